import type { TWidgetConversation } from '@cairn/contracts/widget';
import { applications, chatrooms } from '@cairn/db/schema';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { announceHandBack, handBackInTransaction } from '../chatrooms/hand-back.ts';
import { type ChatroomRow, serializeChatroom } from '../chatrooms/serialize-chat.ts';
import { widgetConversationOf } from './serialize-widget.ts';
import type { VisitorContext } from './visitor-auth.ts';
import { loadWidget } from './widget-settings.ts';

export const HANDOFF_TIMEOUT_QUEUE = 'widget-handoff-timeout';
interface HandoffTimeoutJob {
  chatroomId: number;
  /** The request this job ends; a later request has its own job. */
  waitingSince: string;
}

/**
 * The visitor asks for a person: the chatroom is handled by a human and waiting, the owner sees it
 * at once (a `chatroom` event) and by e-mail if they want it, and a job due after the owner's wait
 * time hands the conversation back to the assistant if nobody replied by then.
 */
export async function requestHandoff(
  app: Ctx,
  visitor: VisitorContext,
  chatroom: ChatroomRow,
): Promise<TWidgetConversation> {
  const { application, widget } = visitor;
  if (!widget.takeover.enabled) throw new AppError('forbidden', 'Talking to a person is not available here.');
  // Only a conversation the assistant handles, not already waiting, is changed. The condition is in
  // the update itself, so of two requests at once one changes the row and tells the owner; the other
  // answers with the conversation as it now is.
  // The change, its `handoff.requested` (decision 085) and the timeout job commit together.
  const row = await app.events.transaction(async (tx, emit) => {
    const [waiting] = await tx
      .update(chatrooms)
      // Milliseconds, as the API shows it: the timeout job names the request by this exact value.
      .set({
        handledBy: 'human',
        waitingSince: sql`date_trunc('milliseconds', now())`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(chatrooms.id, chatroom.id),
          eq(chatrooms.handledBy, 'assistant'),
          isNull(chatrooms.waitingSince),
        ),
      )
      .returning();
    if (!waiting) return null;
    emit('handoff.requested', { application, chatroom: waiting, takeover: widget.takeover });
    await app.jobs.send<HandoffTimeoutJob>(
      HANDOFF_TIMEOUT_QUEUE,
      { chatroomId: waiting.id, waitingSince: waiting.waitingSince!.toISOString() },
      { startAfter: widget.takeover.wait_minutes * 60, retryLimit: 5, tx },
    );
    return waiting;
  });
  if (!row) {
    const [current] = await app.db.select().from(chatrooms).where(eq(chatrooms.id, chatroom.id));
    return widgetConversationOf(serializeChatroom(current ?? chatroom));
  }
  const updated = serializeChatroom(row);
  await app.events.emit('chat.changed', {
    ownerId: application.ownerId,
    change: {
      kind: 'chatroom',
      application_uuid: application.uuid,
      chatroom_uuid: updated.uuid,
      chatroom: updated,
      visitor_uuid: visitor.claims.v,
    },
  });
  return widgetConversationOf(updated);
}

/**
 * Nobody replied in time: if the chatroom still waits on the same request, the assistant tells the
 * visitor (the owner's no-reply message) and answers again, starting with what the visitor asked
 * while waiting. A reply or a decision by the owner
 * cleared `waiting_since`, and then this does nothing.
 */
export async function endUnansweredHandoff(app: Ctx, job: HandoffTimeoutJob): Promise<void> {
  const ended = await app.events.transaction(async (tx, emit) => {
    const [room] = await tx
      .update(chatrooms)
      .set({ handledBy: 'assistant', waitingSince: null, lastMessageAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(chatrooms.id, job.chatroomId), eq(chatrooms.waitingSince, new Date(job.waitingSince))))
      .returning();
    if (!room) return null;
    const [application] = await tx.select().from(applications).where(eq(applications.id, room.applicationId));
    const widget = await loadWidget(tx, application!);
    // The owner's no-reply message tells the visitor; what they asked while waiting is answered.
    const created = await handBackInTransaction(tx, emit, application!, room, {
      message: widget.takeover.no_reply_message,
      metadata: { handoff_timeout: true },
    });
    return { room, application: application!, created };
  });
  if (!ended) return;
  await app.events.emit('chat.changed', {
    ownerId: ended.application.ownerId,
    change: {
      kind: 'chatroom',
      application_uuid: ended.application.uuid,
      chatroom_uuid: ended.room.uuid,
      chatroom: serializeChatroom(ended.room),
      visitor_uuid: ended.room.visitorUuid ?? undefined,
    },
  });
  await announceHandBack(app, ended.application, ended.room, ended.created);
}

export async function defineHandoffTimeouts(app: Ctx) {
  await app.jobs.define<HandoffTimeoutJob>(HANDOFF_TIMEOUT_QUEUE, {
    work: {
      batchSize: 10,
      async handle(jobs) {
        for (const job of jobs) await endUnansweredHandoff(app, job.data);
      },
    },
  });
}
