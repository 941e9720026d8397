import { type FormEvent, useState } from 'react';
import { useNavigate, useParams, useRevalidator } from 'react-router';
import { EllipsisIcon, PencilIcon, Trash2Icon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { normalizeError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { NEW_CHAT_ID } from '../../lib/utils';
import { chatApi } from './chat-api';

/** The "…" menu of a chatroom in the sidebar: rename or delete it. */
export function ChatroomActions({
  appId,
  chatroom,
}: {
  appId: string;
  chatroom: { uuid: string; name: string };
}) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const [name, setName] = useState(chatroom.name);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const params = useParams();

  const close = () => {
    setDialog(null);
    setError(undefined);
  };
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await chatApi.rename(appId, chatroom.uuid, name);
      close();
      revalidator.revalidate();
    } catch (e) {
      setError(normalizeError(e).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await chatApi.remove(appId, chatroom.uuid);
      close();
      if (params.chatroomId === chatroom.uuid) navigate(`/applications/${appId}/messages/${NEW_CHAT_ID}`);
      else revalidator.revalidate();
    } catch (e) {
      toast.error(normalizeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="absolute top-1/2 right-1 size-7 -translate-y-1/2 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 data-[state=open]:opacity-100"
            aria-label={`Actions for ${chatroom.name}`}
          >
            <EllipsisIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem
            onSelect={() => {
              setName(chatroom.name);
              setDialog('rename');
            }}
          >
            <PencilIcon aria-hidden="true" />
            Rename
          </DropdownMenuItem>
          <DropdownMenuItem className="text-destructive" onSelect={() => setDialog('delete')}>
            <Trash2Icon aria-hidden="true" />
            Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={dialog === 'rename'} onOpenChange={(open) => !open && close()}>
        <DialogContent>
          <form onSubmit={rename} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Rename chat</DialogTitle>
              <DialogDescription>Give this chat a name you will recognise.</DialogDescription>
            </DialogHeader>
            <Field id={`rename-${chatroom.uuid}`} label="Name" error={error}>
              {(aria) => (
                <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} maxLength={255} />
              )}
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy || !name.trim()}>
                Save
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      <Dialog open={dialog === 'delete'} onOpenChange={(open) => !open && close()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete chat?</DialogTitle>
            <DialogDescription>
              “{chatroom.name}” and all its messages will be deleted. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="button" variant="destructive" disabled={busy} onClick={remove}>
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
