import { randomUUID } from 'node:crypto';
import {
  ASSISTANT_SENDER,
  chatroomNameFrom,
  type TChatroomSource,
  type TSendMessageResponse,
} from '@cairn/contracts/chat';
import { chatrooms, messages } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
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
  // One statement (atomic without a transaction: no BEGIN, no COMMIT on PGlite's one connection):
  // the chatroom's update (or creation, with the activity time already set), both messages (the
  // answer names the question's uuid, so it is made here) and the question's durable events
  // (webhooks, notifications, analytics: decision 085) in the outbox, with the rows as written.
  const questionUuid = randomUUID();
  const room = chatroom
    ? app.db
        .update(chatrooms)
        .set({
          lastMessageAt: sql`now()`,
          ...(takeOver && { handledBy: 'human' as const, waitingSince: null }),
        })
        .where(eq(chatrooms.id, chatroom.id))
        .returning()
    : app.db
        .insert(chatrooms)
        .values({
          applicationId: application.id,
          name: chatroomNameFrom(input.message),
          source: input.source,
          ...(input.visitor && { visitorUuid: input.visitor.uuid, startedOn: input.visitor.startedOn }),
        })
        .returning();
  const answerUuid = input.answerUuid ?? randomUUID();
  const answerState = slot ? takenAnswer() : { status: 'pending' as const, leaseUntil: sql`NULL` };
  const rows = [
    sql`(1, ${questionUuid}::uuid, ${input.senderIdentifier}, ${input.message},
      ${JSON.stringify({ ...input.metadata, ...(input.sendToUser && { send_to_user: true }) })}::jsonb,
      'complete', NULL::timestamptz)`,
    // The answer, unless the message is for the end user.
    ...(input.sendToUser
      ? []
      : [
          sql`(2, ${answerUuid}::uuid, ${ASSISTANT_SENDER}, '',
            ${JSON.stringify({ reply_to: questionUuid, ...(input.answerRequest && { request: input.answerRequest }) })}::jsonb,
            ${answerState.status}, (${answerState.leaseUntil})::timestamptz)`,
        ]),
  ];
  const where = { application };
  // The owner's first reply to a visitor waiting for a person answers the handoff.
  const waitingSince = takeOver ? chatroom.waitingSince : null;
  const chatroomRow = { chatroom: { table: 'chatrooms', cte: 'room' } } as const;
  const questionRow = { table: 'messages', cte: 'inserted' } as const;
  const stored = app.db
    .execute(sql`
      WITH room AS (${room.getSQL()}), inserted AS (
        INSERT INTO ${messages} (uuid, chatroom_id, sender_identifier, message, metadata, status, lease_until)
        SELECT m.uuid, room.id, m.sender_identifier, m.message, m.metadata, m.status, m.lease_until
        FROM room, (VALUES ${sql.join(rows, sql`, `)})
          AS m(n, uuid, sender_identifier, message, metadata, status, lease_until)
        -- Read after the update: a takeover that just happened silences the assistant for this message.
        WHERE m.n = 1 OR room.handled_by = 'assistant'
        ORDER BY m.n
        RETURNING *
      ), outbox AS (
        INSERT INTO product_outbox (events)
        SELECT ${outboxEventsWithRow([
          ...(chatroom ? [] : [{ type: 'conversation.created' as const, payload: where, rows: chatroomRow }]),
          {
            type: 'message.created',
            payload: where,
            rows: { ...chatroomRow, message: questionRow },
          },
          ...(waitingSince
            ? [
                {
                  type: 'handoff.answered' as const,
                  payload: { ...where, waitingSince },
                  rows: { ...chatroomRow, reply: questionRow },
                },
              ]
            : []),
        ])}
        FROM inserted, room WHERE inserted.uuid = ${questionUuid}
        RETURNING id
      )
      SELECT inserted.*, (SELECT to_jsonb(room) FROM room) AS room, (SELECT id FROM outbox) AS outbox_id
      FROM inserted ORDER BY inserted.id`)
    .then((written) => {
      const raw = (written as unknown as { rows: Array<Record<string, unknown>> }).rows;
      if (!raw.length) throw new Error('The conversation no longer exists.');
      const roomRow = rowFromDatabase('chatrooms', raw[0]!.room as Record<string, unknown>);
      const [message, answer] = raw.map((row) => rowFromDatabase('messages', row));
      const at = { application, chatroom: roomRow };
      const events: AnyProductEvent[] = [
        ...(chatroom ? [] : [{ type: 'conversation.created' as const, payload: at }]),
        { type: 'message.created', payload: { ...at, message: message! } },
        ...(waitingSince
          ? [{ type: 'handoff.answered' as const, payload: { ...at, reply: message!, waitingSince } }]
          : []),
      ];
      return { room: roomRow, message: message!, answer, outbox: { id: Number(raw[0]!.outbox_id), events } };
    });
  const result = await stored.catch((error: unknown) => {
    slot?.release();
    throw error;
  });
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
