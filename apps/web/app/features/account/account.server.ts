import {
  type TSession,
  ZChangeEmailRequest,
  ZChangePasswordRequest,
  ZDeleteAccountRequest,
} from '@cairn/contracts/account-settings';
import { MESSAGES, ZUpdateMeRequest } from '@cairn/contracts/accounts';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { type FormErrors, formErrorsOf } from '../../lib/api-error';

const ACCOUNT_INTENTS = ['profile', 'email', 'password', 'end-session', 'end-others', 'delete'] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

/** Every answer names its intent, so each form reads only its own. */
export type AccountActionData =
  | { intent: AccountIntent; ok: true; message: string }
  | { intent: AccountIntent; ok: false; errors: FormErrors };

/** What the page shows besides the user (which the layout loads): sessions and a pending e-mail change. */
export async function loadAccount(api: ApiClient) {
  const [sessions, email] = await Promise.allSettled([
    api.get<TSession[]>('/api/me/sessions/'),
    api.get<{ email: string; pending_email: string | null }>('/api/me/email/'),
  ]);
  return {
    sessions: sessions.status === 'fulfilled' ? sessions.value : null,
    pendingEmail: email.status === 'fulfilled' ? email.value.pending_email : null,
  };
}

const ZPasswordForm = ZChangePasswordRequest.extend({ confirm_password: z.string() }).refine(
  (v) => v.new_password === v.confirm_password,
  { message: MESSAGES.passwordsMustMatch, path: ['confirm_password'] },
);
const ZSessionId = z.coerce.number().int().positive();

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

function invalid(intent: AccountIntent, issues: z.core.$ZodIssue[]) {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.join('.');
    if (key && !fieldErrors[key]) fieldErrors[key] = issue.message;
  }
  return data<AccountActionData>(
    { intent, ok: false, errors: { fieldErrors, formError: null } },
    { status: 400 },
  );
}

const refused = (intent: AccountIntent, error: unknown, fields: readonly string[]) =>
  data<AccountActionData>({ intent, ok: false, errors: formErrorsOf(error, fields) }, { status: 400 });

/**
 * The account page's forms. A deletion answers `'deleted'`: the route clears the cookie and leaves.
 */
export async function accountAction(api: ApiClient, form: FormData) {
  const intent = ACCOUNT_INTENTS.find((i) => i === form.get('intent'));
  if (!intent) throw data(null, { status: 400 });
  const ok = (message: string) => ({ intent, ok: true as const, message });
  try {
    switch (intent) {
      case 'profile': {
        const parsed = ZUpdateMeRequest.safeParse({
          first_name: text(form, 'first_name') ?? '',
          last_name: text(form, 'last_name') ?? '',
          display_name: text(form, 'display_name') ?? '',
        });
        if (!parsed.success) return invalid(intent, parsed.error.issues);
        await api.patch('/api/me/', parsed.data);
        return ok('Profile saved');
      }
      case 'email': {
        const parsed = ZChangeEmailRequest.safeParse({
          email: text(form, 'email') ?? '',
          password: text(form, 'password') ?? '',
        });
        if (!parsed.success) return invalid(intent, parsed.error.issues);
        const answer = await api.post<{ detail: string }>('/api/me/email/', parsed.data);
        return ok(answer.detail);
      }
      case 'password': {
        const parsed = ZPasswordForm.safeParse({
          current_password: text(form, 'current_password') ?? '',
          new_password: text(form, 'new_password') ?? '',
          confirm_password: text(form, 'confirm_password') ?? '',
        });
        if (!parsed.success) return invalid(intent, parsed.error.issues);
        const { confirm_password: _, ...body } = parsed.data;
        const answer = await api.post<{ detail: string }>('/api/me/password/', body);
        return ok(answer.detail);
      }
      case 'end-session': {
        const id = ZSessionId.safeParse(form.get('sessionId'));
        if (!id.success) throw data(null, { status: 400 });
        await api.delete(`/api/me/sessions/${id.data}/`);
        return ok('Session signed out');
      }
      case 'end-others': {
        const { ended } = await api.delete<{ ended: number }>('/api/me/sessions/');
        return ok(ended === 1 ? '1 other session signed out' : `${ended} other sessions signed out`);
      }
      case 'delete': {
        const parsed = ZDeleteAccountRequest.safeParse({ password: text(form, 'password') ?? '' });
        if (!parsed.success) return invalid(intent, parsed.error.issues);
        await api.request('DELETE', '/api/me/', { body: parsed.data });
        return 'deleted' as const;
      }
    }
  } catch (error) {
    return refused(intent, error, FIELDS[intent]);
  }
}

const FIELDS: Record<AccountIntent, readonly string[]> = {
  profile: ['first_name', 'last_name', 'display_name'],
  email: ['email', 'password'],
  password: ['current_password', 'new_password', 'confirm_password'],
  'end-session': [],
  'end-others': [],
  delete: ['password'],
};
