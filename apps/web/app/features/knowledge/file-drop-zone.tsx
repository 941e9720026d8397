import { KNOWLEDGE_FILE_ACCEPT } from '@cairn/contracts/knowledge-limits';
import { useState } from 'react';
import { FileTextIcon, UploadIcon, XIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { formatBytes } from './knowledge-item-row';

const ACCEPTED = KNOWLEDGE_FILE_ACCEPT.split(',');

/** The files a drop or a pick brings, split into those the API takes and a message naming the others. */
export function acceptFiles(list: Iterable<File>): { accepted: File[]; refusal: string | null } {
  const all = [...list];
  const refused = all.filter((f) => !ACCEPTED.some((ext) => f.name.toLowerCase().endsWith(ext)));
  return {
    accepted: all.filter((f) => !refused.includes(f)),
    refusal: refused.length
      ? `Not a supported file: ${refused.map((f) => f.name).join(', ')}. Use ${ACCEPTED.join(' ')}.`
      : null,
  };
}

/**
 * Where files are chosen for the knowledge (the knowledge page and the create-application dialog):
 * drop them or pick several at once, see them listed with their size, remove one. `errorOf` gives
 * the API's message for the file at a position, if any.
 */
export function FileDropZone({
  id,
  files,
  onChange,
  onRefusal,
  errorOf,
  compact = false,
}: {
  id: string;
  files: File[];
  onChange: (files: File[]) => void;
  /** A message naming files of a type the API does not take (null once every chosen file is fine). */
  onRefusal: (message: string | null) => void;
  errorOf?: (index: number) => string | undefined;
  /** Less padding (inside a dialog). */
  compact?: boolean;
}) {
  const [dragging, setDragging] = useState(false);
  const add = (list: FileList | null) => {
    if (!list) return;
    const { accepted, refusal } = acceptFiles(list);
    onRefusal(refusal);
    onChange([...files, ...accepted]);
  };
  return (
    <div className="grid gap-2">
      <label
        htmlFor={id}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          add(event.dataTransfer.files);
        }}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 text-center text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
          compact ? 'py-4' : 'py-8',
          dragging ? 'border-primary bg-primary/5' : 'hover:bg-muted/50',
        )}
      >
        <UploadIcon aria-hidden="true" className="size-6 text-muted-foreground" />
        <span className="font-medium">Drop files here or choose them</span>
        <span className="text-muted-foreground">
          PDF, Word (.doc, .docx), text, Markdown, HTML or images (.png, .jpg, .webp) · up to 25 MB each
        </span>
      </label>
      <input
        id={id}
        type="file"
        multiple
        accept={KNOWLEDGE_FILE_ACCEPT}
        className="sr-only"
        onChange={(event) => {
          add(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      {files.length ? (
        <ul className="grid gap-1" aria-label="Chosen files">
          {files.map((file, i) => {
            const error = errorOf?.(i);
            return (
              <li key={`${file.name}-${file.size}-${file.lastModified}`} className="grid gap-1">
                <div className="flex items-center gap-2 rounded-md bg-muted/50 px-3 py-1.5 text-sm">
                  <FileTextIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 truncate">{file.name}</span>
                  <span className="shrink-0 text-muted-foreground">{formatBytes(file.size)}</span>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => onChange(files.filter((_, j) => j !== i))}
                  >
                    <XIcon aria-hidden="true" />
                  </Button>
                </div>
                {error ? <p className="px-3 text-destructive text-sm">{error}</p> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
