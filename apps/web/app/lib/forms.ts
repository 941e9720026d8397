import { type FormEvent, useEffect, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useSubmit } from 'react-router';
import type { z } from 'zod';
import type { FormErrors } from './api-error';

/**
 * A resolver that loads the schema (and zod with it) on the first validation, so a page with a form
 * does not ship zod in its first load (issue 13).
 */
function lazyZodResolver<S extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<S>,
): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values, context, options) => {
    const [{ zodResolver }, schema] = await Promise.all([import('@hookform/resolvers/zod'), loadSchema()]);
    // The resolver's generic signature cannot follow a generic schema; the types are the schema's own.
    const resolve = zodResolver(schema) as unknown as Resolver<z.input<S>, unknown, z.output<S>>;
    return resolve(values, context, options);
  };
}

/**
 * react-hook-form wired to a contracts zod schema and a React Router action. The browser validates
 * first (same schema as the action, loaded on the first validation: `loadSchema`); a valid form is
 * posted as a normal <form> so it also works before hydration. Errors the action returns land on
 * their fields, or as the form-level message.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<S>,
  opts: {
    defaultValues: DefaultValues<z.input<S>>;
    /** The action's answer; its field errors are put on the matching fields. */
    serverErrors?: FormErrors | undefined | null;
  },
): {
  form: UseFormReturn<z.input<S>, unknown, z.output<S>>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
} {
  const [resolver] = useState(() => lazyZodResolver(loadSchema));
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver,
    defaultValues: opts.defaultValues,
    // Errors appear on submit, then update as the user types (a blur never shifts the layout under a click).
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const submit = useSubmit();
  const { serverErrors } = opts;

  useEffect(() => {
    if (!serverErrors) return;
    for (const [field, message] of Object.entries(serverErrors.fieldErrors)) {
      form.setError(field as Path<z.input<S>>, { type: 'server', message }, { shouldFocus: true });
    }
  }, [serverErrors, form]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const element = event.currentTarget;
    void form.handleSubmit(() => submit(element, { method: 'post' }))(event);
  };
  return { form, onSubmit };
}
