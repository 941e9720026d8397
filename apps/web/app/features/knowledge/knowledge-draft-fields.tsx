import { useId, useState } from 'react';
import { GlobeIcon, TextIcon, XIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import { FileDropZone } from './file-drop-zone';

/** A knowledge draft item (specification §3): local id, type, value. */
export interface KnowledgeDraft {
  id: string;
  type: 'text' | 'url';
  value: string;
}

const LABELS = { text: 'Text', url: 'URL' } as const;
const ICONS = { text: TextIcon, url: GlobeIcon } as const;

/**
 * Knowledge drafts inside a form (the create-application dialog): texts and URLs as drafts, files
 * through the knowledge page's drop zone (several at once, dragged or picked). Every item renders
 * the specification's fields `items[i].type` plus `items[i].file` or `items[i].value`, so the form
 * posts them as multipart as is (the form needs `encType="multipart/form-data"`): drafts first, then
 * the files. `errors` are the API's field errors, keyed like `items[2].value`.
 */
export function KnowledgeDraftFields({ errors = {} }: { errors?: Record<string, string> }) {
  const [drafts, setDrafts] = useState<KnowledgeDraft[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const baseId = useId();
  const add = (type: KnowledgeDraft['type']) =>
    setDrafts((current) => [
      ...current,
      { id: `${Date.now().toString(36)}-${current.length}`, type, value: '' },
    ]);
  const update = (id: string, value: string) =>
    setDrafts((current) => current.map((d) => (d.id === id ? { ...d, value } : d)));
  const remove = (id: string) => setDrafts((current) => current.filter((d) => d.id !== id));

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 font-medium text-sm">Knowledge (optional)</legend>
      {drafts.length ? (
        // Many drafts scroll inside the dialog instead of pushing its buttons off screen.
        <div className="grid max-h-[40vh] gap-3 overflow-y-auto pr-1">
          {drafts.map((draft, index) => {
            const Icon = ICONS[draft.type];
            const fieldId = `${baseId}-${draft.id}`;
            const error = errors[`items[${index}].value`];
            return (
              <div key={draft.id} className="grid gap-1" data-draft={draft.type}>
                <div className="flex items-start gap-2">
                  <Icon aria-hidden="true" className="mt-2.5 size-4 shrink-0 text-muted-foreground" />
                  <input type="hidden" name={`items[${index}].type`} value={draft.type} />
                  <label htmlFor={fieldId} className="sr-only">
                    {`${LABELS[draft.type]} ${index + 1}`}
                  </label>
                  {draft.type === 'text' ? (
                    <Textarea
                      id={fieldId}
                      name={`items[${index}].value`}
                      rows={3}
                      value={draft.value}
                      placeholder="Text the assistant should know"
                      aria-invalid={Boolean(error)}
                      onChange={(e) => update(draft.id, e.target.value)}
                    />
                  ) : (
                    <Input
                      id={fieldId}
                      type="url"
                      name={`items[${index}].value`}
                      value={draft.value}
                      placeholder="https://example.com/page"
                      aria-invalid={Boolean(error)}
                      onChange={(e) => update(draft.id, e.target.value)}
                    />
                  )}
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${LABELS[draft.type].toLowerCase()} ${index + 1}`}
                    onClick={() => remove(draft.id)}
                  >
                    <XIcon aria-hidden="true" />
                  </Button>
                </div>
                {error ? <p className="pl-6 text-destructive text-sm">{error}</p> : null}
              </div>
            );
          })}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {(['text', 'url'] as const).map((type) => {
          const Icon = ICONS[type];
          return (
            <Button key={type} type="button" variant="outline" size="sm" onClick={() => add(type)}>
              <Icon aria-hidden="true" />
              Add {type === 'url' ? 'URL' : 'text'}
            </Button>
          );
        })}
      </div>
      {refusal ? <p className="text-destructive text-sm">{refusal}</p> : null}
      <FileDropZone
        id={`${baseId}-files`}
        files={files}
        onChange={setFiles}
        onRefusal={setRefusal}
        errorOf={(i) => errors[`items[${drafts.length + i}].file`]}
        compact
      />
      {files.map((file, i) => (
        <FileField
          key={`${file.name}-${file.size}-${file.lastModified}`}
          index={drafts.length + i}
          file={file}
        />
      ))}
    </fieldset>
  );
}

/** A chosen file as the form's fields `items[i].type` and `items[i].file` (a file input holding it). */
function FileField({ index, file }: { index: number; file: File }) {
  return (
    <>
      <input type="hidden" name={`items[${index}].type`} value="file" />
      <input
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        name={`items[${index}].file`}
        ref={(input) => {
          if (!input) return;
          const transfer = new DataTransfer();
          transfer.items.add(file);
          input.files = transfer.files;
        }}
      />
    </>
  );
}
