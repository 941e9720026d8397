import { copyName, type TApplicationCounts, ZApplicationName } from '@cairn/contracts/applications';
import { type FormEvent, type ReactNode, use, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { FormError } from '../../components/form-error';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { fieldErrorsOf, normalizeError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { countParts, whatGoes } from './application-counts';
import { applicationsApi } from './applications-api';

/**
 * The dialogs of an application's "Manage" menu, loaded when the menu first opens: the name check
 * is the API's zod schema, which no page needs on its first load (issue 13, decision 091).
 */

/**
 * What the application holds, for the duplicate and delete dialogs: a promise where the page
 * streams it after its first byte (the Overview, docs/decisions/087), which only a dialog waits for.
 */
export type Counts = TApplicationCounts | Promise<TApplicationCounts>;

function useCounts(counts: Counts, knowledgeItems: number | undefined): TApplicationCounts {
  const resolved = counts instanceof Promise ? use(counts) : counts;
  return knowledgeItems === undefined ? resolved : { ...resolved, knowledge_items: knowledgeItems };
}

interface DialogProps {
  application: { uuid: string; name: string };
  onClose: () => void;
}

interface CountsProps {
  counts: Counts;
  knowledgeItems: number | undefined;
}

/** Rename and Duplicate: a dialog with a name field checked like the API checks it. */
function NameDialog({
  id,
  title,
  description,
  initialName,
  submit,
  submitting,
  onSubmit,
  onClose,
}: {
  id: string;
  title: string;
  description: ReactNode;
  initialName: string;
  submit: string;
  submitting: string;
  /** Resolves when done; throws the API's error. */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZApplicationName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    setFormError(null);
    try {
      await onSubmit(parsed.data);
    } catch (e) {
      const failure = normalizeError(e);
      const field = fieldErrorsOf(failure).name;
      if (field) setError(field);
      else setFormError(failure.message);
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={save} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle className="leading-snug wrap-anywhere">{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormError message={formError} />
          <Field id={id} label="Name" error={error}>
            {(aria) => <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} autoFocus />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? submitting : submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function RenameDialog({ application, onClose }: DialogProps) {
  const revalidator = useRevalidator();
  return (
    <NameDialog
      id="rename-application-name"
      title="Rename application"
      description="The new name shows in the sidebar and in the applications list."
      initialName={application.name}
      submit="Save"
      submitting="Saving…"
      onSubmit={async (name) => {
        await applicationsApi.rename(application.uuid, name);
        onClose();
        toast.success('Application renamed');
        await revalidator.revalidate();
      }}
      onClose={onClose}
    />
  );
}

export function DuplicateDialog({ application, onClose, ...props }: DialogProps & CountsProps) {
  const counts = useCounts(props.counts, props.knowledgeItems);
  const navigate = useNavigate();
  return (
    <NameDialog
      id="duplicate-application-name"
      title={`Duplicate “${application.name}”`}
      description={`The copy gets the same models, answer settings and widget appearance${counts.knowledge_items > 0 ? `, and ${countParts(counts).knowledge}, ready to search` : ''}. Conversations and API keys are not copied, and the copy’s widget is off.`}
      initialName={copyName(application.name)}
      submit="Duplicate"
      submitting="Duplicating…"
      onSubmit={async (name) => {
        const copy = await applicationsApi.duplicate(application.uuid, name);
        onClose();
        toast.success(`“${copy.name}” created`, { description: 'A copy of the settings and the knowledge.' });
        await navigate(`/applications/${copy.uuid}`);
      }}
      onClose={onClose}
    />
  );
}

export function DeleteDialog({ application, onClose, ...props }: DialogProps & CountsProps) {
  const counts = useCounts(props.counts, props.knowledgeItems);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await applicationsApi.remove(application.uuid);
      onClose();
      toast.success(`“${application.name}” deleted`);
      await navigate('/');
    } catch (e) {
      setError(normalizeError(e).message);
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="leading-snug wrap-anywhere">Delete “{application.name}”?</DialogTitle>
          <DialogDescription>
            This deletes the application with {whatGoes(counts)}. Sites that embed its widget and code that
            uses its keys stop working. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <FormError message={error} />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={busy} onClick={remove}>
            {busy ? 'Deleting…' : 'Delete application'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
