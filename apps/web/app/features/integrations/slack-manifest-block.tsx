import { Textarea } from '../../components/ui/textarea';
import { CopyButton } from '../api-keys/copy-button';

/** The Slack app manifest Cairn made for an integration, to copy into Slack's manifest editor. */
export function SlackManifestBlock({ id, manifest }: { id: string; manifest: string }) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="font-medium text-sm">
          App manifest (JSON)
        </label>
        <CopyButton value={manifest} label="Copy app manifest" size="sm">
          Copy
        </CopyButton>
      </div>
      <Textarea
        id={id}
        readOnly
        value={manifest}
        rows={12}
        spellCheck={false}
        className="font-mono text-xs"
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}
