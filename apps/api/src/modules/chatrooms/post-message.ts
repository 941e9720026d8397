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
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import {
  type EventWithRows,
  eventsWithRowsOf,
  outboxEventsWithRows,
  rowFromDatabase,
} from '../../lib/product-events.ts';
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
  // One statement: the chatroom's activity (or the new chatroom), both messages and the outbox row.
  // Atomic without BEGIN and COMMIT, and one round trip where a transaction took four (decision 112).
  const questionUuid = randomUUID();
  const answerUuid = input.answerUuid ?? randomUUID();
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
  const answer = slot ? takenAnswer() : { status: 'pending' as const, leaseUntil: null };
  const metadata = { ...input.metadata, ...(input.sendToUser && { send_to_user: true }) };
  const answerMetadata = {
    reply_to: questionUuid,
    ...(input.answerRequest && { request: input.answerRequest }),
  };
  // The owner's first reply to a visitor waiting for a person answers the handoff.
  const waitingSince = takeOver ? chatroom.waitingSince : null;
  const payload = { application };
  const ROOM = { table: 'chatrooms', cte: 'room' } as const;
  const INSERTED = { table: 'messages', cte: 'inserted' } as const;
  // The question's webhooks, notifications and analytics (durable events, decision 085). One list
  // for the outbox row and for this process: each payload's rows are the statement's own.
  const staged: EventWithRows[] = [
    ...(chatroom ? [] : [{ type: 'conversation.created' as const, payload, rows: { chatroom: ROOM } }]),
    { type: 'message.created' as const, payload, rows: { chatroom: ROOM, message: INSERTED } },
    ...(waitingSince
      ? [
          {
            type: 'handoff.answered' as const,
            payload: { ...payload, waitingSince },
            rows: { chatroom: ROOM, reply: INSERTED },
          },
        ]
      : []),
  ];
  let raw: Array<Record<string, unknown>>;
  try {
    ({ rows: raw } = (await app.db.execute(sql`
      WITH room AS (${room.getSQL()}), inserted AS (
        INSERT INTO ${messages} (uuid, chatroom_id, sender_identifier, message, metadata, status, lease_until)
        SELECT v.uuid, room.id, v.sender, v.message, v.metadata, v.status, v.lease_until
        FROM room, (VALUES
          (1, ${questionUuid}::uuid, ${input.senderIdentifier}, ${input.message}, ${JSON.stringify(metadata)}::jsonb, 'complete', NULL::timestamptz)
          ${input.sendToUser ? sql`` : sql`, (2, ${answerUuid}::uuid, ${ASSISTANT_SENDER}, '', ${JSON.stringify(answerMetadata)}::jsonb, ${answer.status}, (${answer.leaseUntil})::timestamptz)`}
        ) AS v(turn, uuid, sender, message, metadata, status, lease_until)
        -- Read after the update: a takeover that just happened silences the assistant for this message.
        WHERE v.turn = 1 OR room.handled_by = 'assistant'
        ORDER BY v.turn
        RETURNING *
      ), outbox AS (
        INSERT INTO product_outbox (events)
        SELECT ${outboxEventsWithRows(staged)}
        FROM room, inserted WHERE inserted.uuid = ${questionUuid}
        RETURNING id
      )
      SELECT inserted.*, (SELECT id FROM outbox) AS outbox_id, to_jsonb(room) AS room_row FROM room, inserted`)) as unknown as {
      rows: Array<Record<string, unknown>>;
    });
    // The chatroom was deleted since the caller found it.
    if (!raw[0]) throw notFound();
  } catch (error) {
    slot?.release();
    throw error;
  }
  const first = raw[0];
  const messageRows = raw.map((row) => rowFromDatabase('messages', row));
  const stored = {
    room: rowFromDatabase('chatrooms', first.room_row as Record<string, unknown>),
    inserted: messageRows.find((row) => row.uuid === questionUuid)!,
  };
  const result = {
    room: stored.room,
    message: stored.inserted,
    answer: messageRows.find((row) => row.uuid !== questionUuid),
  };
  if (result.answer) markAnswerPhase(result.answer.uuid, 'stored');
  // Committed: delivered from here, off this request.
  await app.events.written(Number(first.outbox_id), eventsWithRowsOf(staged, stored));
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
