import { type ReactNode, useCallback, useState } from 'react';
import { PlusIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '../../components/ui/dialog';
import { lazyModule, preloadOnIntent } from '../../lib/lazy-module';
import { useDialogFetcher } from '../../lib/use-dialog-fetcher';
import type { ApiKeysActionData } from './api-keys.server';

/**
 * The form and the new key, loaded on first open. No Suspense of its own: while it loads, the
 * dialog's lazy root keeps the dialog closed, so it opens complete, never empty.
 */
const content = lazyModule(() => import('./create-api-key-content'));

const CREATE_API_KEY_FETCHER = 'create-api-key';

/**
 * The "Create key" button and its dialog: name, expiry and rate limit, then the key, shown once with
 * a copy button. Closing forgets the answer, so the key is gone from the page and from memory; the
 * list shows only its ends. The button is the dialog's trigger, so focus returns to it on close.
 */
export function CreateApiKeyDialog({ disabled }: { disabled: boolean }) {
  const [open, setOpenState] = useState(false);
  const { fetcher, forget } = useDialogFetcher<ApiKeysActionData>(CREATE_API_KEY_FETCHER);
  const result = fetcher.data?.intent === 'create' ? fetcher.data : undefined;
  const created = result?.ok ? result.created : null;

  const setOpen = useCallback(
    (next: boolean) => {
      if (!next) forget();
      setOpenState(next);
    },
    [forget],
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button disabled={disabled} {...preloadOnIntent(content)}>
          <PlusIcon aria-hidden="true" />
          Create key
        </Button>
      </DialogTrigger>
      <DialogContent
        // Wide enough to show a whole key.
        className="sm:max-w-xl"
        // The key is shown only here: a stray click beside the dialog must not throw it away.
        onInteractOutside={(event) => {
          if (created) event.preventDefault();
        }}
      >
        <KeyContent>
          {({ CreateKeyForm, CreatedKey }) =>
            created ? (
              <CreatedKey created={created} onDone={() => setOpen(false)} />
            ) : (
              <CreateKeyForm
                fetcher={fetcher}
                errors={result && !result.ok ? result.errors : null}
                onCancel={() => setOpen(false)}
              />
            )
          }
        </KeyContent>
      </DialogContent>
    </Dialog>
  );
}

function KeyContent({
  children,
}: {
  children: (m: Awaited<ReturnType<typeof content.preload>>) => ReactNode;
}) {
  return children(content.useModule());
}
