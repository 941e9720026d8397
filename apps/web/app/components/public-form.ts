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

export interface KeptPasswords {
  password?: string;
  confirm_password?: string;
}

/**
 * The new password and its confirmation to fill in again after a failed post (a page without
 * JavaScript is drawn anew, and retyping both for an unrelated error is what people hate): both,
 * unless one of them was refused — a refused password is typed anew, and so is its confirmation;
 * a refused confirmation alone keeps the password.
 */
export async function keptPasswords(request: Request, errors: FormErrors): Promise<KeptPasswords> {
  const form = await request.clone().formData();
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  if (errors.fieldErrors.password) return {};
  if (errors.fieldErrors.confirm_password) return { password: value('password') };
  return { password: value('password'), confirm_password: value('confirm_password') };
}

/**
 * A failed answer with the posted e-mail and the passwords to fill in again. It carries passwords,
 * so no cache (browser or proxy) may keep it.
 */
export function withEmailAndPasswords<D extends { errors: FormErrors }>(
  failure: { data: D; init: ResponseInit | null },
  email: string,
  passwords: KeptPasswords,
) {
  const headers = new Headers(failure.init?.headers);
  headers.set('Cache-Control', 'no-store');
  return data({ ...failure.data, email, passwords }, { ...failure.init, headers });
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
