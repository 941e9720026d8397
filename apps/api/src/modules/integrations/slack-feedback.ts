import { applications, chatrooms, messages } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { setFeedback } from '../chatrooms/set-feedback.ts';
import type { IntegrationRow } from './find-integration.ts';
import { openSecret } from './integration-secrets.ts';
import { slackClient } from './slack-client.ts';
import { FEEDBACK_ACTIONS } from './slack-reply.ts';

/** What Cairn reads of a `block_actions` payload (Slack sends much more). */
const ZBlockActions = z.looseObject({
  type: z.string(),
  user: z.looseObject({ id: z.string() }).optional(),
  channel: z.looseObject({ id: z.string() }).optional(),
  container: z.looseObject({ thread_ts: z.string().optional() }).optional(),
  actions: z
    .array(z.looseObject({ action_id: z.string(), value: z.string().optional() }))
    .max(25)
    .optional(),
});

const isFeedbackAction = (id: string): id is keyof typeof FEEDBACK_ACTIONS =>
  Object.hasOwn(FEEDBACK_ACTIONS, id);

/**
 * A click on 👍 or 👎 under an answer: the feedback is set on that answer (only an answer of this
 * integration's Slack conversations), exactly as the owner's chat sets it, and the person who
 * clicked is thanked in a message only they see.
 */
export async function recordSlackFeedback(app: Ctx, integration: IntegrationRow, payload: string) {
  let parsed: z.infer<typeof ZBlockActions>;
  try {
    parsed = ZBlockActions.parse(JSON.parse(payload));
  } catch {
    throw new AppError('invalid', 'The `payload` field is not a Slack interaction.');
  }
  if (parsed.type !== 'block_actions') return;
  for (const action of parsed.actions ?? []) {
    if (!isFeedbackAction(action.action_id) || !z.uuid().safeParse(action.value).success) continue;
    const [found] = await app.db
      .select({ app: applications.uuid, chatroom: chatrooms.uuid })
      .from(messages)
      .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
      .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
      .where(
        and(
          eq(messages.uuid, action.value!),
          eq(chatrooms.applicationId, integration.applicationId),
          eq(chatrooms.source, 'slack'),
        ),
      );
    if (!found) continue;
    await setFeedback(
      app,
      integration.ownerId,
      { appId: found.app, chatroomId: found.chatroom, messageId: action.value! },
      FEEDBACK_ACTIONS[action.action_id],
    );
    const channel = parsed.channel?.id;
    const user = parsed.user?.id;
    if (channel && user) {
      const token = openSecret(app.secrets, integration.uuid, 'bot_token', integration.botTokenCiphertext);
      // A courtesy: the feedback is stored whether or not Slack takes the thanks.
      void slackClient(app.config, token, app.log)
        .then((client) =>
          client.chat.postEphemeral({
            channel,
            user,
            text: 'Thanks for the feedback!',
            ...(parsed.container?.thread_ts && { thread_ts: parsed.container.thread_ts }),
          }),
        )
        .catch((err: unknown) => app.log.warn({ err }, 'slack ephemeral thanks failed'));
    }
  }
}
