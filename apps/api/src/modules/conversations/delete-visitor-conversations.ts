import { isVisitorSender } from '@cairn/contracts/chat';
import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';

/**
 * Deletes every conversation of the application in which the visitor wrote (a person's request to
 * erase their data): messages, notifications and attention rows go by their foreign keys, and the
 * stored Responses API bodies of those conversations here, since they hold the text too (their
 * key only detaches them). Answers the deleted chatrooms' uuids; the daily analytics keep their
 * counts (they name no conversation).
 */
export async function deleteVisitorConversations(
  { database }: Pick<Ctx, 'database'>,
  applicationId: number,
  visitor: string,
): Promise<string[]> {
  // The assistant and the owner are not visitors: their messages are in every conversation.
  if (!isVisitorSender(visitor)) throw fieldError('visitor', 'Not a visitor');
  const { rows } = await database.query<{ uuid: string }>(
    `WITH doomed AS (
       SELECT c.id FROM chatrooms c
       WHERE c.application_id = $1
         AND EXISTS (SELECT 1 FROM messages m WHERE m.chatroom_id = c.id AND m.sender_identifier = $2)),
     responses AS (DELETE FROM stored_responses WHERE chatroom_id IN (SELECT id FROM doomed))
     DELETE FROM chatrooms WHERE id IN (SELECT id FROM doomed) RETURNING uuid`,
    [applicationId, visitor],
  );
  return rows.map((r) => r.uuid);
}
