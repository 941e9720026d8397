import { TriangleAlertIcon } from '../../components/icons';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Input } from '../../components/ui/input';
import { CopyButton } from '../api-keys/copy-button';

/** A signing secret, shown this once with a copy button and a warning that it will not come back. */
export function SecretReveal({ id, secret, label }: { id: string; secret: string; label: string }) {
  return (
    <>
      {/* The kit has no warning colour; amber reads as "take care" in every theme. */}
      <Alert className="border-amber-500/60 bg-amber-500/10 [&>svg]:text-amber-600 dark:[&>svg]:text-amber-400">
        <TriangleAlertIcon aria-hidden="true" />
        <AlertTitle>This secret will not be shown again</AlertTitle>
        <AlertDescription>
          Copy it into your receiver now. It verifies that deliveries come from Cairn (any Standard Webhooks
          library checks the <span className="font-mono">webhook-signature</span> header with it).
        </AlertDescription>
      </Alert>
      <div className="grid gap-2">
        <label htmlFor={id} className="font-medium text-sm">
          {label}
        </label>
        <div className="flex items-center gap-2">
          <Input
            id={id}
            readOnly
            value={secret}
            className="font-mono"
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={secret} label="Copy signing secret" size="default">
            Copy
          </CopyButton>
        </div>
      </div>
    </>
  );
}
