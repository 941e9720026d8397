import type * as React from 'react';
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { KnowledgeDraftFields } from '../features/knowledge/knowledge-draft-fields';
import type { FormErrors } from '../lib/api-error';
import { useZodForm } from '../lib/forms';
import { FormError } from './form-error';
import { Button } from './ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './ui/dialog';
import { Field } from './ui/field';
import { Input } from './ui/input';

/**
 * "Create application": the name and knowledge drafts (File, Text, URL). The action
 * answers with a redirect to the new application, which selects it and adds it to the list.
 */
export function CreateApplicationDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close when the dialog was opened from a menu (whose item is gone by then). */
  returnFocusTo?: React.RefObject<HTMLElement | null>;
}) {
  const fetcher = useFetcher<{ errors: FormErrors }>({ key: 'create-application' });
  const errors = fetcher.data?.errors ?? null;
  const { form } = useZodForm(
    () => import('@cairn/contracts/applications').then((m) => m.ZCreateApplicationForm),
    { defaultValues: { name: '' }, serverErrors: errors },
  );
  const {
    register,
    reset,
    formState: { errors: fieldErrors },
  } = form;
  const busy = fetcher.state !== 'idle';

  useEffect(() => {
    if (!open) reset();
  }, [open, reset]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.current) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Create application</DialogTitle>
          <DialogDescription>
            An application holds its own knowledge, models and chats. You can rename it later.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form
          method="post"
          action="/applications/create"
          encType="multipart/form-data"
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            const element = event.currentTarget;
            void form.handleSubmit(() =>
              fetcher.submit(element, { method: 'post', encType: 'multipart/form-data' }),
            )(event);
          }}
        >
          <FormError message={errors?.formError} />
          <Field id="application-name" label="Name" error={fieldErrors.name?.message}>
            {(aria) => (
              <Input
                {...aria}
                autoComplete="off"
                placeholder="e.g. Support assistant"
                {...register('name')}
              />
            )}
          </Field>
          <KnowledgeDraftFields errors={errors?.fieldErrors} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create application'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
