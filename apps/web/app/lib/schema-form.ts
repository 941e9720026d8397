import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { FormErrors } from './api-error';

/** A message per field, keyed by the field's name (`text_model`, `retention_days`). */
export type FieldMessages = Readonly<Record<string, string>>;

/** The form's values as the browser would post them: one string per name (the first, as a radio group has). */
export function formValuesOf(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && !(name in values)) values[name] = value;
  }
  return values;
}

/** The first issue of each field, as react-hook-form's zod resolver shows them. */
export function messagesOf(issues: readonly z.core.$ZodIssue[]): FieldMessages {
  const messages: Record<string, string> = {};
  for (const issue of issues) {
    const name = issue.path.join('.');
    if (!(name in messages)) messages[name] = issue.message;
  }
  return messages;
}

function focusField(form: HTMLFormElement, name: string) {
  for (const element of form.elements) {
    if ((element as HTMLInputElement).name === name) {
      (element as HTMLElement).focus();
      return;
    }
  }
}

/**
 * A form of uncontrolled inputs (each with a `name` and its saved value as a DOM default) checked
 * with a contracts zod schema before it is sent, without react-hook-form (decision 091: the form is
 * on the first paint, react-hook-form is 14 KB). It keeps what `useZodForm` did for such a form:
 * the schema (and zod) load on the first validation; errors appear on submit, the first invalid
 * field is focused, then a field's error follows its value as it changes; the action's field errors
 * land on their fields.
 */
export function useSchemaForm<S extends z.ZodType>(
  loadSchema: () => Promise<S>,
  opts: {
    /** The action's answer; its field errors are put on the matching fields. */
    serverErrors?: FormErrors | undefined | null;
    /** Called with the form once it is valid. */
    onValid: (form: HTMLFormElement) => void;
  },
): {
  /** For the <form>: where the action's errors are focused. */
  ref: RefObject<HTMLFormElement | null>;
  errors: FieldMessages;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onChange: (event: FormEvent<HTMLFormElement>) => void;
} {
  const [errors, setErrors] = useState<FieldMessages>({});
  const submitted = useRef(false);
  const ref = useRef<HTMLFormElement>(null);
  const { serverErrors } = opts;

  const check = async (form: HTMLFormElement) => {
    const result = (await loadSchema()).safeParse(formValuesOf(form));
    return result.success ? {} : messagesOf(result.error.issues);
  };

  useEffect(() => {
    if (!serverErrors) return;
    const fields = Object.entries(serverErrors.fieldErrors);
    if (fields.length === 0) return;
    setErrors((current) => ({ ...current, ...serverErrors.fieldErrors }));
    // As react-hook-form's setError with shouldFocus did for each field in turn: the last one keeps the focus.
    if (ref.current) focusField(ref.current, fields[fields.length - 1]![0]);
  }, [serverErrors]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitted.current = true;
    void check(form).then((found) => {
      setErrors(found);
      const first = [...form.elements]
        .map((element) => (element as HTMLInputElement).name)
        .find((name) => name && name in found);
      if (first) focusField(form, first);
      else opts.onValid(form);
    });
  };

  // After a submit, the changed field's error follows its value (the others keep theirs).
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (!submitted.current || !name) return;
    const form = event.currentTarget;
    void check(form).then((found) =>
      setErrors((current) => {
        const next: Record<string, string> = { ...current };
        if (found[name] === undefined) delete next[name];
        else next[name] = found[name];
        return next;
      }),
    );
  };

  return { ref, errors, onSubmit, onChange };
}
