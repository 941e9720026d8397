import { randomUUID } from 'node:crypto';
import {
  ASSISTANT_SENDER,
  chatroomNameFrom,
  type TChatroomSource,
  type TSendMessageResponse,
} from '@cairn/contracts/chat';
import { chatrooms, messages } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import { markAnswerPhase } from '../../lib/answer-phases.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { type AnyProductEvent, outboxEventsWithRow, rowFromDatabase } from '../../lib/product-events.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { type AnswerRequest, takenAnswer, wakeAnswerWorkers } from './answer/answer-queue.ts';
import { type ChatroomRow, serializeChatroom, serializeMessage } from './serialize-chat.ts';

export interface PostMessageInput {
  application: ApplicationRow;
  /** The conversation to add to; without one a chatroom is created, named from the message. */
  chatroom?: ChatroomRow | undefined;
  /** Where a new chatroom comes from. */
  source: TChatroomSource;
  /** A new widget chatroom's visitor and the page it started on. */
  visitor?: { uuid: string; startedOn: string | null } | undefined;
  senderIdentifier: string;
  message: string;
  metadata: Record<string, unknown>;
  /**
   * A message for the chatroom's end user: stored and announced, never answered. In a widget
   * chatroom it is the owner taking the conversation over (`handled_by: human`).
   */
  sendToUser: boolean;
  /** What shapes the answer beyond the application's settings (kept on the answer, see AnswerRequest). */
  answerRequest?: AnswerRequest | undefined;
  /** The answer's uuid, when the caller listens for its events before they can be published. */
  answerUuid?: string | undefined;
}

/**
 * Stores a message of a conversation, whatever its channel (the owner's web app, the public API, the
 * widget …) and, unless it is meant for the chatroom's end user or a person handles the chatroom,
 * an empty answer: taken and started at once in one of this process's answer slots, or left
 * `pending` for the answer workers (answer-queue.ts). Every change is announced to the owner's
 * sockets as `message` events.
 */
export async function postMessage(app: Ctx, input: PostMessageInput): Promise<TSendMessageResponse> {
  const { application, chatroom } = input;
  const takeOver = input.sendToUser && chatroom?.source === 'widget';
  const slot = input.sendToUser || chatroom?.handledBy === 'human' ? null : app.answers.reserve();
  // Both messages go in one INSERT (the answer names the question's uuid, so it is made here), and
  // a new chatroom is created with the activity time already set: few statements, few round trips.
  const questionUuid = randomUUID();
  const stored = app.db.transaction(async (tx) => {
    const [room] = chatroom
      ? await tx
          .update(chatrooms)
          .set({
            lastMessageAt: sql`now()`,
            ...(takeOver && { handledBy: 'human' as const, waitingSince: null }),
          })
          .where(eq(chatrooms.id, chatroom.id))
          .returning()
      : await tx
          .insert(chatrooms)
          .values({
            applicationId: application.id,
            name: chatroomNameFrom(input.message),
            source: input.source,
            ...(input.visitor && { visitorUuid: input.visitor.uuid, startedOn: input.visitor.startedOn }),
          })
          .returning();
    // Read after the update: a takeover that just happened silences the assistant for this message.
    const answered = !input.sendToUser && room!.handledBy === 'assistant';
    const question = {
      uuid: questionUuid,
      chatroomId: room!.id,
      senderIdentifier: input.senderIdentifier,
      message: input.message,
      metadata: { ...input.metadata, ...(input.sendToUser && { send_to_user: true }) },
    };
    const answer = {
      uuid: input.answerUuid ?? randomUUID(),
      chatroomId: room!.id,
      senderIdentifier: ASSISTANT_SENDER,
      ...(slot && answered ? takenAnswer() : { status: 'pending' as const }),
      metadata: { reply_to: questionUuid, ...(input.answerRequest && { request: input.answerRequest }) },
    };
    const where = { application, chatroom: room! };
    // The owner's first reply to a visitor waiting for a person answers the handoff.
    const waitingSince = takeOver ? chatroom.waitingSince : null;
    // The question's webhooks, notifications and analytics (durable events, decision 085) go to the
    // outbox in the messages' own INSERT, the question's row as it was written: one statement.
    const insert = tx
      .insert(messages)
      .values(answered ? [question, answer] : [question])
      .returning();
    const { rows: written } = (await tx.execute(sql`
      WITH inserted AS (${insert.getSQL()}), outbox AS (
        INSERT INTO product_outbox (events)
        SELECT ${outboxEventsWithRow(
          [
            ...(chatroom ? [] : [{ type: 'conversation.created' as const, payload: where }]),
            { type: 'message.created', payload: where, row: 'message' },
            ...(waitingSince
              ? [{ type: 'handoff.answered' as const, payload: { ...where, waitingSince }, row: 'reply' }]
              : []),
          ],
          { table: 'messages', cte: 'inserted' },
        )}
        FROM inserted WHERE uuid = ${questionUuid}
        RETURNING id
      )
      SELECT inserted.*, (SELECT id FROM outbox) AS outbox_id FROM inserted`)) as unknown as {
      rows: Array<Record<string, unknown>>;
    };
    const rows = written.map((raw) => rowFromDatabase('messages', raw));
    const message = rows.find((row) => row.uuid === questionUuid)!;
    const events: AnyProductEvent[] = [
      ...(chatroom ? [] : [{ type: 'conversation.created' as const, payload: where }]),
      { type: 'message.created', payload: { ...where, message } },
      ...(waitingSince
        ? [{ type: 'handoff.answered' as const, payload: { ...where, reply: message, waitingSince } }]
        : []),
    ];
    return {
      room: room!,
      message,
      answer: rows.find((row) => row.uuid !== questionUuid),
      outbox: { id: Number(written[0]!.outbox_id), events },
    };
  });
  const result = await stored.catch((error: unknown) => {
    slot?.release();
    throw error;
  });
  if (result.answer) markAnswerPhase(result.answer.uuid, 'stored');
  // Committed: delivered from here, off this request.
  await app.events.written(result.outbox.id, result.outbox.events);
  if (slot && !result.answer) slot.release();

  const ownerId = application.ownerId;
  const base = { application_uuid: application.uuid, chatroom_uuid: result.room.uuid };
  const response: TSendMessageResponse = {
    chatroom: serializeChatroom(result.room),
    message: serializeMessage(result.message),
    answer: result.answer ? serializeMessage(result.answer) : null,
  };
  // The answer starts while its events go out; it holds its first delta until they are published.
  const announced = (async () => {
    await app.events.emit('chat.changed', {
      ownerId,
      change: {
        kind: 'chatroom',
        ...base,
        chatroom: response.chatroom,
        visitor_uuid: result.room.visitorUuid ?? undefined,
      },
    });
    await app.events.emit('chat.changed', {
      ownerId,
      change: { kind: 'created', ...base, message: response.message },
    });
    if (response.answer)
      await app.events.emit('chat.changed', {
        ownerId,
        change: { kind: 'created', ...base, message: response.answer },
      });
  })();
  if (slot && result.answer) {
    slot.run({
      application,
      chatroom: result.room,
      answer: result.answer,
      question: input.message,
      // A new chatroom has no turns before this question but those the request brought.
      ...(!chatroom && { history: input.answerRequest?.history ?? [] }),
      announced,
    });
  }
  await announced;
  if (!slot && result.answer) await wakeAnswerWorkers(app);
  return response;
}
