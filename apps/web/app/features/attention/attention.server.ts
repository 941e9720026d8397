import { type TAttention, ZAnswerUnansweredRequest } from '@cairn/contracts/attention';
import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, type FormErrors, formErrorsOf } from '../../lib/api-error';

const ATTENTION_FAILED = 'Failed to load what needs attention';

const attentionPath = (appId: string) => `/api/applications/${appId}/attention/`;

/** The inbox of the application; a failure other than "no such application" is shown on the page. */
export async function loadAttention(
  api: ApiClient,
  appId: string,
): Promise<{ attention: TAttention; error: null } | { attention: null; error: string }> {
  try {
    return { attention: await api.get<TAttention>(attentionPath(appId)), error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    return { attention: null, error: ATTENTION_FAILED };
  }
}

export type AttentionIntent = 'answer' | 'dismiss' | 'dismiss-feedback';

/** Every answer names its intent and entry, so each row's dialogs read only their own. */
export type AttentionActionData =
  | { intent: 'answer'; id: string; ok: true; item: TKnowledgeItem }
  | { intent: 'dismiss' | 'dismiss-feedback'; id: string; ok: true }
  | { intent: AttentionIntent; id: string; ok: false; errors: FormErrors };

const ZForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('answer'), id: z.uuid(), answer: z.string() }),
  z.object({ intent: z.literal('dismiss'), id: z.uuid() }),
  z.object({ intent: z.literal('dismiss-feedback'), id: z.uuid() }),
]);

function failed(intent: AttentionIntent, id: string, errors: FormErrors) {
  return data<AttentionActionData>({ intent, id, ok: false, errors }, { status: 400 });
}

export async function attentionAction(api: ApiClient, appId: string, form: FormData) {
  const parsed = ZForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw data(null, { status: 400 });
  const { intent, id } = parsed.data;
  const base = attentionPath(appId);
  try {
    if (parsed.data.intent === 'answer') {
      const body = ZAnswerUnansweredRequest.safeParse({ answer: parsed.data.answer });
      if (!body.success) {
        const message = body.error.issues[0]?.message ?? 'Required';
        return failed(intent, id, {
          fieldErrors: { answer: message === 'Required' ? 'Write the answer' : message },
          formError: null,
        });
      }
      const item = await api.post<TKnowledgeItem>(`${base}unanswered/${id}/answer/`, body.data);
      return { intent: 'answer', id, ok: true, item } as const;
    }
    const path =
      intent === 'dismiss' ? `${base}unanswered/${id}/dismiss/` : `${base}negative-feedback/${id}/dismiss/`;
    await api.post(path);
    return { intent, id, ok: true } as const;
  } catch (error) {
    // Already answered or dismissed (another tab): what the owner asked for is done, or nothing is left to do.
    if (error instanceof ApiError && error.status === 404 && intent !== 'answer')
      return { intent, id, ok: true } as const;
    return failed(intent, id, formErrorsOf(error, ['answer']));
  }
}
