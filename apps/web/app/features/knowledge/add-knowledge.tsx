import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { FileTextIcon, GlobeIcon, TextIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import type { FormErrors } from '../../lib/api-error';
import { cn } from '../../lib/utils';
import { FileDropZone } from './file-drop-zone';
import { appendUrlImport, NEW_URL_IMPORT, UrlImportFields } from './url-import-fields';

type Kind = 'file' | 'text' | 'url';
const KINDS: Array<{ kind: Kind; label: string; icon: typeof FileTextIcon }> = [
  { kind: 'file', label: 'File', icon: FileTextIcon },
  { kind: 'text', label: 'Text', icon: TextIcon },
  { kind: 'url', label: 'URL', icon: GlobeIcon },
];

/** Adds knowledge: files (drag and drop, several at once), a text, or a web page address. */
export function AddKnowledge() {
  const fetcher = useFetcher<{ errors?: FormErrors; added?: number }>({ key: 'add-knowledge' });
  const [kind, setKind] = useState<Kind>('file');
  const [files, setFiles] = useState<File[]>([]);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [urlImport, setUrlImport] = useState(NEW_URL_IMPORT);
  const [localError, setLocalError] = useState<string | null>(null);
  const id = useId();
  const busy = fetcher.state !== 'idle';
  const errors = fetcher.data?.errors;
  const fieldErrors = errors?.fieldErrors ?? {};

  // After a successful add, clear what was sent — unless it was edited while the request ran.
  const sent = useRef<{ data: unknown; kind: Kind; value: string | File[] } | null>(null);
  useEffect(() => {
    const last = sent.current;
    if (fetcher.state !== 'idle' || !fetcher.data?.added || !last || last.data === fetcher.data) return;
    last.data = fetcher.data;
    if (last.kind === 'file' && files === last.value) setFiles([]);
    if (last.kind === 'text' && text === last.value) {
      setText('');
      setTitle('');
    }
    if (last.kind === 'url' && url === last.value) setUrl('');
  }, [fetcher.state, fetcher.data, files, text, url]);

  const submit = () => {
    const body = new FormData();
    body.set('intent', 'add');
    if (kind === 'file') {
      if (files.length === 0) return setLocalError('Choose at least one file.');
      files.forEach((file, i) => {
        body.set(`items[${i}].type`, 'file');
        body.set(`items[${i}].file`, file, file.name);
      });
    } else if (kind === 'text') {
      if (!text.trim()) return setLocalError('Write the text to add.');
      body.set('items[0].type', 'text');
      body.set('items[0].value', text);
      if (title.trim()) body.set('items[0].title', title.trim());
    } else {
      if (!url.trim()) return setLocalError('Enter the address of a web page.');
      body.set('items[0].type', 'url');
      body.set('items[0].value', url.trim());
      appendUrlImport(body, urlImport);
    }
    setLocalError(null);
    sent.current = {
      data: fetcher.data,
      kind,
      value: kind === 'file' ? files : kind === 'text' ? text : url,
    };
    fetcher.submit(body, { method: 'post', encType: 'multipart/form-data' });
  };

  const serverMessages = Object.values(fieldErrors);
  const formError =
    localError ?? errors?.formError ?? (serverMessages.length ? serverMessages.join(' ') : null);

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border p-4 sm:p-6">
      <h2 id={`${id}-title`} className="mb-4 font-semibold text-lg">
        Add knowledge
      </h2>
      <div role="tablist" aria-label="Source" className="mb-4 inline-flex rounded-lg bg-muted p-1">
        {KINDS.map(({ kind: k, label, icon: Icon }) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`${id}-tab-${k}`}
            aria-selected={kind === k}
            aria-controls={`${id}-panel`}
            onClick={() => {
              setKind(k);
              setLocalError(null);
            }}
            className={cn(
              'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 font-medium text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
              kind === k
                ? 'bg-background text-foreground shadow-sm'
                : 'text-muted-foreground hover:text-foreground',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
          </button>
        ))}
      </div>
      <form
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-tab-${kind}`}
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <FormError message={formError} />
        {kind === 'file' ? (
          <FileDropZone id={`${id}-files`} files={files} onChange={setFiles} onRefusal={setLocalError} />
        ) : null}
        {kind === 'text' ? (
          <>
            <Field
              id={`${id}-title-input`}
              label="Title"
              description="Optional: the first line is used otherwise."
            >
              {(aria) => (
                <Input {...aria} value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} />
              )}
            </Field>
            <Field id={`${id}-text`} label="Text" error={fieldErrors['items[0].value']}>
              {(aria) => (
                <Textarea
                  {...aria}
                  rows={6}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  placeholder="Paste or write what the assistant should know."
                />
              )}
            </Field>
          </>
        ) : null}
        {kind === 'url' ? (
          <>
            <Field
              id={`${id}-url`}
              label="Web page address"
              description="The page is fetched and its main content indexed."
              error={fieldErrors['items[0].value']}
            >
              {(aria) => (
                <Input
                  {...aria}
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com/guide"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                />
              )}
            </Field>
            <UrlImportFields id={id} value={urlImport} onChange={setUrlImport} errors={fieldErrors} />
          </>
        ) : null}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Adding…' : kind === 'file' && files.length > 1 ? `Add ${files.length} files` : 'Add'}
          </Button>
        </div>
      </form>
    </section>
  );
}
