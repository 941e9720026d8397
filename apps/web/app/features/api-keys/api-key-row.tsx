import type { TApiKey } from '@cairn/contracts/api-keys';
import { type RefObject, useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { ConfirmForm } from '../../components/confirm-form';
import { DetailItem } from '../../components/detail-item';
import { KeyRoundIcon, Trash2Icon } from '../../components/icons';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { formatNumber } from '../../lib/format-number';
import { RelativeTime } from '../chat/relative-time';
import type { ApiKeysActionData } from './api-keys.server';

/** How a key is recognised without its secret: `cairn_abcd…wxyz`. */
const maskedKey = (key: Pick<TApiKey, 'prefix' | 'last_four'>) => `${key.prefix}…${key.last_four}`;

/** One key: name, its two ends, when it was created, last used and expires, its rate, and delete. */
export function ApiKeyRow({
  apiKey,
  focusAfterDelete,
}: {
  apiKey: TApiKey;
  /** Where focus goes once the key (and with it this row and its delete button) is gone. */
  focusAfterDelete: RefObject<HTMLElement | null>;
}) {
  const expired = apiKey.expires_at !== null && Date.parse(apiKey.expires_at) <= Date.now();
  const nameId = `api-key-${apiKey.uuid}-name`;
  return (
    <li className="grid gap-3 px-4 py-3" aria-labelledby={nameId}>
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">
          <KeyRoundIcon aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-0.5">
          <div className="flex min-w-0 items-center gap-2">
            <span id={nameId} className="min-w-0 truncate font-medium" title={apiKey.name}>
              {apiKey.name}
            </span>
            {expired ? (
              <Badge variant="outline" className="text-destructive">
                Expired
              </Badge>
            ) : null}
          </div>
          <span className="font-mono text-muted-foreground text-sm">{maskedKey(apiKey)}</span>
        </div>
        <DeleteApiKey apiKey={apiKey} focusAfterDelete={focusAfterDelete} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:ml-11 sm:grid-cols-4">
        <DetailItem truncate label="Created">
          <RelativeTime iso={apiKey.created_at} />
        </DetailItem>
        <DetailItem truncate label="Last used">
          {apiKey.last_used_at ? <RelativeTime iso={apiKey.last_used_at} /> : 'Never'}
        </DetailItem>
        <DetailItem truncate label={expired ? 'Expired' : 'Expires'}>
          {apiKey.expires_at ? <RelativeTime iso={apiKey.expires_at} scheduled /> : 'Never'}
        </DetailItem>
        <DetailItem truncate label="Rate limit">
          {formatNumber(apiKey.requests_per_minute)} / min
        </DetailItem>
      </dl>
    </li>
  );
}

/** The delete button and its confirmation. */
function DeleteApiKey({
  apiKey,
  focusAfterDelete,
}: {
  apiKey: TApiKey;
  focusAfterDelete: RefObject<HTMLElement | null>;
}) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<ApiKeysActionData>({ key: deleteApiKeyFetcherKey(apiKey.uuid) });
  const result = fetcher.data?.intent === 'delete' ? fetcher.data : undefined;

  // Closed as soon as the answer arrives (the page says so): once the list has reloaded,
  // this row is gone.
  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          aria-label={`Delete ${apiKey.name}`}
        >
          <Trash2Icon aria-hidden="true" />
          <span className="max-sm:sr-only">Delete</span>
        </Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!result?.ok) return;
          event.preventDefault();
          focusAfterDelete.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="leading-snug wrap-anywhere">Delete “{apiKey.name}”?</DialogTitle>
          <DialogDescription>
            Requests with <span className="font-mono">{maskedKey(apiKey)}</span> are refused at once. Code
            that uses it stops working until you give it another key. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <ConfirmForm
          fetcher={fetcher}
          fields={{ intent: 'delete', keyId: apiKey.uuid }}
          error={result && !result.ok ? result.errors.formError : null}
          onCancel={() => setOpen(false)}
          confirm="Delete key"
          confirming="Deleting…"
        />
      </DialogContent>
    </Dialog>
  );
}

export const deleteApiKeyFetcherKey = (uuid: string) => `delete-api-key-${uuid}`;
