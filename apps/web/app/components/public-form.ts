import { data } from 'react-router';
import type { FormErrors } from '../lib/api-error';

/**
 * The public pages (sign in, register, password reset, e-mail verification) ship no JavaScript
 * (public-layout's `handle`, docs/decisions/050): their forms are plain posts to the route's action,
 * which answers with the page again. These helpers carry what the page needs to show the answer.
 */

/** The e-mail address that was posted, to fill the field in again (never the password). */
export async function postedEmail(request: Request): Promise<string> {
  const email = (await request.clone().formData()).get('email');
  return typeof email === 'string' ? email : '';
}

/** A failed answer (`{ errors }` from parseForm or apiFailure) with the posted e-mail added. */
export function withEmail<D extends object>(failure: { data: D; init: ResponseInit | null }, email: string) {
  return data({ ...failure.data, email }, failure.init ?? undefined);
}

/**
 * The field to focus when the page renders: the first one with an error after a failed post
 * (so the cursor is where the fix goes), else `initial`.
 */
export function focusField(
  errors: FormErrors | null | undefined,
  order: readonly string[],
  initial: string | null,
): string | null {
  if (!errors) return initial;
  return order.find((field) => errors.fieldErrors[field]) ?? initial;
}
