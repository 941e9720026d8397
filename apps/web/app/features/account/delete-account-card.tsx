import { useState } from 'react';
import { Trash2Icon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { useDialogFetcher } from '../../lib/use-dialog-fetcher';
import type { AccountActionData } from './account.server';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Deleting the account: a dialog that says what goes, and asks for the password. */
export function DeleteAccountCard({ applications }: { applications: number }) {
  const [open, setOpenState] = useState(false);
  const { fetcher, forget } = useDialogFetcher<AccountActionData>('account-delete');
  const result = fetcher.data?.intent === 'delete' && !fetcher.data.ok ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  const setOpen = (next: boolean) => {
    if (!next) forget();
    setOpenState(next);
  };
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <h2 id="delete-title" className="font-semibold text-lg leading-none">
          Delete account
        </h2>
        <CardDescription>
          Deletes your account and everything in it, at once and for good. Your address can register again.
        </CardDescription>
      </CardHeader>
      <CardFooter className="justify-end">
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline" className="text-destructive hover:text-destructive">
              <Trash2Icon aria-hidden="true" />
              Delete account…
            </Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription>This cannot be undone. Everything below goes with it:</DialogDescription>
            </DialogHeader>
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              <li>
                {plural(applications, 'application', 'applications')}, with{' '}
                {applications === 1 ? 'its' : 'their'} knowledge, stored files and conversations
              </li>
              <li>API keys and website widgets</li>
              <li>Model providers, webhooks, Slack and Telegram integrations</li>
              <li>Notifications, and every session (you are signed out)</li>
            </ul>
            <fetcher.Form method="post" className="grid gap-4" noValidate>
              <input type="hidden" name="intent" value="delete" />
              <Field
                id="delete_password"
                label="Your password"
                error={result?.errors.fieldErrors.password ?? result?.errors.formError ?? undefined}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    autoFocus
                  />
                )}
              </Field>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="destructive" disabled={busy}>
                  {busy ? 'Deleting…' : 'Delete account'}
                </Button>
              </DialogFooter>
            </fetcher.Form>
          </DialogContent>
        </Dialog>
      </CardFooter>
    </Card>
  );
}
