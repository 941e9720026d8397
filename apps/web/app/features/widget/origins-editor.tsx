import { WIDGET_LIMITS } from '@cairn/contracts/widget-limits';
import { type KeyboardEvent, useRef, useState } from 'react';
import { type Control, type FieldErrors, useFieldArray } from 'react-hook-form';
import { GlobeIcon, PlusIcon, TriangleAlertIcon, XIcon } from '../../components/icons';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/utils';
import type { TWidgetFormInput } from './widget-form';
import { checkNewOrigin } from './widget-form-check';

export const NO_ORIGIN_WARNING = 'The widget works on no site until you add one';

/**
 * The sites allowed to show the widget: exact origins, added one at a time (checked and normalised
 * as the API does, so "https://Shop.example.com/" becomes "https://shop.example.com") and removed
 * one at a time. An origin the API refuses is marked on its own row.
 */
export function OriginsEditor({
  control,
  errors,
}: {
  control: Control<TWidgetFormInput>;
  errors: FieldErrors<TWidgetFormInput>['allowed_origins'];
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'allowed_origins' });
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listError = errors?.message ?? errors?.root?.message;
  const full = fields.length >= WIDGET_LIMITS.allowedOrigins;

  const add = () => {
    const check = checkNewOrigin(
      draft,
      fields.map((f) => f.value),
    );
    if (!check.ok) {
      setDraftError(check.message);
      input.current?.focus();
      return;
    }
    append({ value: check.origin }, { shouldFocus: false });
    setDraft('');
    setDraftError(null);
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the origin instead of saving the whole form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <fieldset className="grid min-w-0 gap-3" aria-describedby="widget-origins-description">
      <legend className="font-medium text-sm">Allowed sites</legend>
      <p id="widget-origins-description" className="-mt-1 text-muted-foreground text-sm">
        The widget shows only on these exact origins: scheme, host and port, without a path. Add{' '}
        <span className="font-mono text-[0.85em]">www.</span> and other subdomains separately.
      </p>
      {fields.length === 0 ? (
        <Alert
          role="status"
          className="border-amber-500/60 bg-amber-500/10 [&>svg]:text-amber-600 dark:[&>svg]:text-amber-400"
        >
          <TriangleAlertIcon aria-hidden="true" />
          <AlertTitle>{NO_ORIGIN_WARNING}</AlertTitle>
          <AlertDescription>
            Add the address of each site that shows it, such as https://www.example.com. Any other site is
            refused.
          </AlertDescription>
        </Alert>
      ) : (
        <ul className="grid min-w-0 divide-y rounded-lg border" aria-label="Allowed sites">
          {fields.map((field, index) => {
            const error = errors?.[index]?.value?.message;
            return (
              <li
                key={field.id}
                className={cn('grid min-w-0 gap-1 py-1.5 pr-1.5 pl-3', error && 'bg-destructive/5')}
              >
                <div className="flex min-w-0 items-center gap-2">
                  <GlobeIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="min-w-0 flex-1 break-all font-mono text-sm">{field.value}</span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8"
                    aria-label={`Remove ${field.value}`}
                    onClick={() => {
                      remove(index);
                      input.current?.focus();
                    }}
                  >
                    <XIcon aria-hidden="true" />
                  </Button>
                </div>
                {error ? (
                  <p className="pl-6 text-destructive text-sm" data-field-error>
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {listError ? (
        <p className="text-destructive text-sm" data-field-error>
          {listError}
        </p>
      ) : null}
      <div className="grid gap-2">
        <label htmlFor="widget-origin-new" className="font-medium text-sm">
          Add a site
        </label>
        <div className="flex min-w-0 gap-2">
          <Input
            id="widget-origin-new"
            ref={input}
            value={draft}
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://www.example.com"
            disabled={full}
            aria-invalid={Boolean(draftError)}
            aria-describedby={draftError ? 'widget-origin-new-error' : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              if (draftError) setDraftError(null);
            }}
            onKeyDown={onKeyDown}
          />
          <Button type="button" variant="outline" onClick={add} disabled={full}>
            <PlusIcon aria-hidden="true" />
            Add
          </Button>
        </div>
        {draftError ? (
          <p id="widget-origin-new-error" className="text-destructive text-sm" data-field-error>
            {draftError}
          </p>
        ) : full ? (
          <p className="text-muted-foreground text-sm">
            At most {WIDGET_LIMITS.allowedOrigins} sites. Remove one to add another.
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
