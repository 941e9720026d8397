import type { TLlmModel } from '@cairn/contracts/applications';
import {
  ASSISTANT_SENDER,
  type TAnswerMetadata,
  type TMessageStatus,
  type TSource,
} from '@cairn/contracts/chat';
import { BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import { preparedPerDb } from '@cairn/db/prepared';
import { messages } from '@cairn/db/schema';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { markAnswerPhase } from '../../../lib/answer-phases.ts';
import type { Ctx, ModelCtx } from '../../../lib/ctx.ts';
import { outboxEventsWithRows, rowFromDatabase } from '../../../lib/product-events.ts';
import type { ChatTurn, TextGeneration, TextModel, Usage } from '../../../models/types.ts';
import { passageSimilarity } from '../../../rag/passage-similarity.ts';
import { termStatistics } from '../../../rag/term-statistics.ts';
import type { Passage } from '../../../rag/types.ts';
import { recordAnswerOutcome } from '../../attention/record-unanswered.ts';
import { serializeMessage } from '../serialize-chat.ts';
import { type AnswerTarget, answerRequestOf } from './answer-queue.ts';
import { buildPrompt } from './build-prompt.ts';
import { citedSources } from './citations.ts';
import { loadTokenCounter } from './count-tokens.ts';
import { describeProviderError } from './describe-provider-error.ts';
import { composeAnswer, streamedText } from './extractive-answerer.ts';
import { greetingOf } from './greeting.ts';
import { notCoveredAnswer } from './no-answer.ts';
import { matchQaPair, qaSource } from './qa-match.ts';
import { judgeRelevance, type RelevanceDecision } from './relevance.ts';
import { smallTalkOf, smallTalkReply } from './small-talk.ts';

export const TOP_K = 6;
/**
 * How far down the retrieval's ranking the relevance decision reads titles (decision 089): its
 * first TOP_K passages are the ones quoted, the rest only say whether retrieval keeps returning one
 * document. Both counts rank with the same candidates (`candidatesFor`), so the first TOP_K are the same.
 */
export const RANKED_K = 20;
export const HISTORY_TURNS = 10;
export const TURN_MAX = 2000;
const PERSIST_EVERY_MS = 750;
/**
 * After the first delta, the answer's text goes out at most this often: what a model streams
 * meanwhile (a token every 10–30 ms) leaves as one delta. Every delta is an event to each of the
 * owner's sockets, a visitor's stream, the public API's and the other processes (a NOTIFY on
 * PostgreSQL), about 0.1 ms of the server's CPU each; at a delta per token that was more than the
 * rest of the answer (decision 116). 50 ms is below what a reader sees as a pause.
 */
export const DELTA_EVERY_MS = 50;

/** The two collaborators of answering, as the retrieval and model-provider modules export them. */
export interface AnswerDeps {
  retrieve(
    ctx: ModelCtx,
    application: { id: number; llmModels: TLlmModel[] },
    query: string,
    topK: number,
  ): Promise<Passage[]>;
  resolveTextModel(ctx: ModelCtx, ownerId: number, ref: TLlmModel): Promise<TextModel>;
}

/**
 * Why a run was aborted: the user pressed stop, the model went silent, or the run was handed back
 * (its process is stopping, or lost its lease): then this run writes nothing more, the queue has it.
 */
export type AbortReason = 'stop' | 'timeout' | 'handoff';

export interface AnswerRun {
  app: Ctx;
  deps: AnswerDeps;
  controller: AbortController;
  /** Abort when the model sends nothing for this long. */
  idleTimeoutMs: number;
}

class AbortedError extends Error {
  constructor(readonly reason: AbortReason) {
    super(`aborted: ${reason}`);
  }
}

/** Iterates a stream but gives up as soon as the signal aborts, even if the stream ignores it. */
async function* abortable<T>(iterable: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError(signal.reason as AbortReason));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

// Only what the prompt needs: an answer's metadata (its citations) is most of its row.
const conversationBefore = preparedPerDb((db) =>
  db
    .select({
      uuid: messages.uuid,
      message: messages.message,
      senderIdentifier: messages.senderIdentifier,
      status: messages.status,
      sendToUser: sql<boolean>`coalesce(${messages.metadata}->'send_to_user' = 'true'::jsonb, false)`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.chatroomId, sql.placeholder('chatroomId')),
        lt(messages.id, sql.placeholder('answerId')),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(HISTORY_TURNS * 2 + 1)
    .prepare('conversation_before_answer'),
);

/** The question this answer replies to and the turns before it, oldest first. */
export async function loadConversation(app: Ctx, chatroomId: number, answerId: number, replyTo: unknown) {
  const rows = await conversationBefore(app.db).execute({ chatroomId, answerId });
  const usable = rows.reverse().filter((m) => m.message.trim() && !m.sendToUser);
  let at = usable.findIndex((m) => m.uuid === replyTo);
  if (at < 0) at = usable.findLastIndex((m) => m.senderIdentifier !== ASSISTANT_SENDER);
  const question = at >= 0 ? usable[at]!.message : '';
  const history: ChatTurn[] = usable
    .slice(0, Math.max(at, 0))
    .filter((m) => m.status === 'complete' || m.senderIdentifier !== ASSISTANT_SENDER)
    .slice(-HISTORY_TURNS)
    .map((m) => ({
      role: m.senderIdentifier === ASSISTANT_SENDER ? 'assistant' : 'user',
      content: m.message.slice(0, TURN_MAX),
    }));
  return { question, history };
}

/**
 * The built-in answerer's generation with honest usage (a real tokenizer's counts of what it read
 * and wrote) and, with `maxTokens`, cut where the answer reaches that many tokens.
 */
function withCountedUsage(
  generation: TextGeneration,
  read: string,
  maxTokens: number | undefined,
): TextGeneration {
  let truncated = false;
  let written = '';
  let streamEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    streamEnded = resolve;
  });
  const counter = loadTokenCounter();
  async function* textStream() {
    try {
      const count = maxTokens === undefined ? null : await counter;
      for await (const delta of generation.textStream) {
        if (count && count(written + delta) > maxTokens!) {
          truncated = true;
          return;
        }
        written += delta;
        yield delta;
      }
    } finally {
      streamEnded();
    }
  }
  // Counted once the text is all written (or the stream was left early).
  const usage = (async (): Promise<Usage> => {
    const [count] = await Promise.all([counter, ended]);
    return { input_tokens: count(read), output_tokens: count(written) };
  })();
  return { textStream: textStream(), usage, truncated: () => truncated };
}

/**
 * The knowledge search and the relevance decision every answer path shares: the passages that pass
 * are what the answer may use; when none does, the knowledge does not cover the question.
 */
async function searchAndJudge(
  ctx: ModelCtx,
  deps: AnswerDeps,
  application: { id: number; llmModels: TLlmModel[] },
  question: string,
): Promise<RelevanceDecision> {
  const ranking = question ? await deps.retrieve(ctx, application, question, RANKED_K) : [];
  const passages = ranking.slice(0, TOP_K);
  const chunkIds = passages.map((p) => p.chunk_id);
  const [stats, similarity] = await Promise.all([
    passages.length ? termStatistics(ctx.database, application.id, question) : null,
    // Vectors are a second opinion: the answer goes on without them when the model fails.
    passageSimilarity(ctx, application, question, chunkIds).catch(() => undefined),
  ]);
  return judgeRelevance(question, passages, stats, similarity, { ranking });
}

/**
 * One answer, start to end: retrieve → prompt → stream the application's text model → store the
 * answer with its cited sources. Every outcome ends in a final status (complete, stopped, failed)
 * stored on the message and sent as an `updated` event: a conversation never hangs.
 */
export async function answerMessage(run: AnswerRun, target: AnswerTarget): Promise<void> {
  const { app, deps, controller } = run;
  const { chatroom, application, answer } = target;
  markAnswerPhase(answer.uuid, 'started');
  const ownerId = application.ownerId;
  const thisRun = and(eq(messages.id, answer.id), eq(messages.run, answer.run));
  const startedAt = answer.updatedAt.getTime();
  const base = {
    application_uuid: application.uuid,
    chatroom_uuid: chatroom.uuid,
    visitor_uuid: chatroom.visitorUuid ?? undefined,
  };
  const ref = application.llmModels.find((m) => m.model_type === 'text') ?? BUILTIN_TEXT_MODEL;
  const request = answerRequestOf(answer.metadata);
  // Token counts where a caller asks for usage (the public API); a chat answer by the built-in
  // models has none to report, and never loads the tokenizer (~36 MB).
  const countsUsage = answer.metadata.request !== undefined;
  const metadata: TAnswerMetadata = {
    ...(typeof answer.metadata.reply_to === 'string' && { reply_to: answer.metadata.reply_to }),
    ...(answer.metadata.request !== undefined && { request: answer.metadata.request }),
    ...(typeof answer.metadata.resumes === 'number' && { resumes: answer.metadata.resumes }),
    model: { uuid: ref.uuid, name: ref.name, provider: ref.provider },
  };

  let text = '';
  let sent = 0;
  let unsent = '';
  let flushing: Promise<void> | null = null;
  let lastPersist = Date.now();
  let lastDelta = 0;
  /** Set once the model's stream has ended: the rest goes out without waiting. */
  let streamEnded = false;
  let wakeFlush: (() => void) | undefined;
  const endStream = () => {
    streamEnded = true;
    wakeFlush?.();
  };
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => controller.abort('timeout' satisfies AbortReason), run.idleTimeoutMs);
  };

  // The first delta goes out as soon as it arrives, the next ones at most every DELTA_EVERY_MS;
  // while one publish is in flight the next ones coalesce.
  async function flush() {
    await target.announced?.catch(() => {});
    while (unsent) {
      const wait = lastDelta + DELTA_EVERY_MS - Date.now();
      if (sent > 0 && wait > 0 && !streamEnded) {
        // More text gathers meanwhile; the stream's end cuts the wait short.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          wakeFlush = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeFlush = undefined;
      }
      lastDelta = Date.now();
      const delta = unsent;
      const offset = sent;
      unsent = '';
      sent += delta.length;
      await app.events.emit('chat.changed', {
        ownerId,
        change: {
          kind: 'delta',
          ...base,
          message_uuid: answer.uuid,
          run: answer.run,
          offset,
          delta,
        },
      });
      if (offset === 0) markAnswerPhase(answer.uuid, 'published');
      if (Date.now() - lastPersist > PERSIST_EVERY_MS) {
        lastPersist = Date.now();
        // Stored so far: a client that reconnects mid-answer catches up from `GET …/messages/`.
        await app.db.update(messages).set({ message: text }).where(thisRun);
      }
    }
    flushing = null;
  }
  function push(delta: string) {
    if (!delta) return;
    if (!text) {
      metadata.first_token_ms = Date.now() - startedAt;
      markAnswerPhase(answer.uuid, 'first-text');
    }
    text += delta;
    unsent += delta;
    flushing ??= flush();
  }

  let status: TMessageStatus = 'complete';
  /** The question, once known: an uncovered one goes to the owner's inbox. */
  let asked = '';
  let usage: Usage | undefined;
  let cited: Passage[] = [];
  /** The sources of an answer not written from passages (a Q&A pair's). */
  let sources: TSource[] | undefined;
  try {
    armIdle();
    // The history, the provider's model (a query and a key decryption) and, when the question is
    // at hand, the knowledge search all run at once.
    const knownHistory = target.history ?? request.history;
    const conversation =
      target.question !== undefined && knownHistory
        ? Promise.resolve({ question: target.question, history: knownHistory })
        : loadConversation(app, chatroom.id, answer.id, metadata.reply_to).then((loaded) =>
            request.history ? { ...loaded, history: request.history } : loaded,
          );
    conversation.catch(() => {});
    const modelReady = ref.provider === 'builtin' ? null : deps.resolveTextModel(app, ownerId, ref);
    modelReady?.catch(() => {});
    const question = target.question ?? (await conversation).question;
    asked = question;
    let generation: TextGeneration;
    /** What a provider model was sent, counted when the provider reports no usage. */
    let promptText: string | undefined;
    /** What the built-in answerer read, for the usage a caller may ask for. */
    let read = [question];
    // A question the owner answered as a Q&A pair gets their words, before anything else and
    // without the model; a failed lookup only means the usual way. The knowledge is searched at the
    // same time (its result is dropped when a pair or small talk answers): one round trip less on
    // the first word's path.
    const qaLookup = question
      ? matchQaPair(app, application, question).catch((error: unknown) => {
          app.log.warn({ err: error }, 'Q&A match failed');
          return null;
        })
      : null;
    const searchStarted = performance.now();
    const search = searchAndJudge(app, deps, application, question);
    search.catch(() => {});
    const qa = await qaLookup;
    const smallTalk = smallTalkOf(question);
    if (qa) {
      metadata.qa_match = { item_uuid: qa.itemUuid, score: Math.round(qa.score * 1000) / 1000 };
      metadata.relevance = { covered: true, score: metadata.qa_match.score };
      sources = [qaSource(qa)];
      generation = streamedText(qa.answer);
    } else if (smallTalk) {
      metadata.small_talk = true;
      const greeting =
        smallTalk === 'greeting' ? await greetingOf(app.db, application.id, application.name) : '';
      generation = streamedText(smallTalkReply(smallTalk, question, { name: application.name, greeting }));
    } else {
      const decision = await search.catch((error: unknown) => {
        app.log.warn({ err: error }, 'retrieval failed');
        throw new Error(`Could not search the knowledge: ${(error as Error).message}`, {
          cause: 'retrieval',
        });
      });
      metadata.retrieval_ms = Math.round(performance.now() - searchStarted);
      markAnswerPhase(answer.uuid, 'searched');
      // Loaded while the knowledge was searched.
      const { history } = await conversation;
      metadata.relevance = { covered: decision.covered, score: decision.score };
      if (!decision.covered) metadata.not_covered = true;
      const refusal = notCoveredAnswer(application.noAnswerMessage, question);
      if (!modelReady || (!decision.covered && application.strictness === 'strict')) {
        // The built-in answerer, or a question a strict application's model is not asked (no tokens spent).
        const composed =
          !modelReady && decision.covered
            ? composeAnswer(question, decision.weighted, decision.passages)
            : { text: refusal, cited: [] };
        cited = composed.cited;
        read = [...history.map((t) => t.content), question, ...cited.map((p) => p.content)];
        generation = streamedText(composed.text);
      } else {
        const model = await modelReady;
        cited = decision.passages;
        const prompt = buildPrompt({
          applicationName: application.name,
          instructions: [application.instructions, request.instructions ?? '']
            .filter((s) => s.trim())
            .join('\n\n'),
          strictness: application.strictness,
          passages: cited,
          history,
          question,
          notCovered: refusal,
        });
        markAnswerPhase(answer.uuid, 'model-called');
        generation = model.generate({
          ...prompt,
          temperature: request.temperature ?? application.temperature,
          maxTokens: request.max_tokens,
          signal: controller.signal,
        });
        promptText = [prompt.system, ...prompt.messages.map((m) => m.content)].join('\n');
      }
    }
    if (promptText === undefined && countsUsage)
      generation = withCountedUsage(generation, read.join('\n'), request.max_tokens);
    generation.usage.catch(() => {});
    for await (const delta of abortable(generation.textStream, controller.signal)) {
      armIdle();
      push(delta);
    }
    usage = await generation.usage.catch(() => undefined);
    if (
      promptText !== undefined &&
      (usage?.input_tokens === undefined || usage.output_tokens === undefined)
    ) {
      // Some compatible servers report no usage; a real tokenizer's count beats none.
      const count = await loadTokenCounter();
      usage = { input_tokens: count(promptText), output_tokens: count(text) };
    }
    if (generation.truncated?.()) metadata.finish_reason = 'length';
    if (!text.trim() && !metadata.finish_reason) throw new Error('The model returned an empty answer.');
    metadata.sources = sources ?? citedSources(text, cited);
  } catch (error) {
    const reason =
      error instanceof AbortedError ? error.reason : (controller.signal.reason as AbortReason | undefined);
    if (controller.signal.aborted && reason === 'handoff') {
      clearTimeout(idle);
      endStream();
      await Promise.resolve(flushing).catch(() => {});
      return;
    }
    if (controller.signal.aborted && reason === 'stop') {
      status = 'stopped';
    } else {
      status = 'failed';
      if (reason === 'timeout') {
        metadata.error = `The model sent nothing for ${Math.round(run.idleTimeoutMs / 1000)} seconds, so the answer was stopped.`;
        metadata.error_kind = 'timeout';
      } else if ((error as Error).cause === 'retrieval') {
        metadata.error = (error as Error).message;
        metadata.error_kind = 'retrieval';
      } else {
        const described = describeProviderError(error);
        metadata.error = described.message;
        metadata.error_kind = described.kind;
      }
      app.log.warn({ err: error, kind: metadata.error_kind }, 'answer failed');
    }
    // What was streamed before a stop or failure may already cite passages.
    metadata.sources = sources ?? citedSources(text, cited);
  } finally {
    clearTimeout(idle);
    endStream();
  }
  await flushing;
  if (usage) metadata.usage = usage;
  metadata.latency_ms = Date.now() - startedAt;
  // The final row and its `message.created` (webhooks, notifications, analytics: decision 085) are
  // written by one statement, so they commit together at no cost of a transaction; the event is
  // delivered after it, off this run. Once per run: only the process holding this run gets a row.
  const { rows } = (await app.db.execute(sql`
    WITH final AS (
      UPDATE ${messages}
      SET message = ${text}, status = ${status}, metadata = ${JSON.stringify(metadata)}::jsonb,
          lease_until = NULL, updated_at = now()
      WHERE ${thisRun}
      RETURNING *
    ), outbox AS (
      INSERT INTO product_outbox (events)
      SELECT ${outboxEventsWithRows([{ type: 'message.created', payload: { application, chatroom }, rows: { message: { table: 'messages', cte: 'final' } } }])}
      FROM final
      RETURNING id
    )
    SELECT final.*, (SELECT id FROM outbox) AS outbox_id FROM final`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  const row = rows[0] && rowFromDatabase('messages', rows[0]);
  const outboxId = Number(rows[0]?.outbox_id);
  if (row)
    await app.events.written(outboxId, [
      { type: 'message.created', payload: { application, chatroom, message: row } },
    ]);
  // No row: the chatroom was deleted or the answer regenerated meanwhile; nobody waits for this run.
  if (!row) return;
  // Counted before the final event, so whoever sees the answer finish finds it in the inbox.
  // The inbox is a courtesy to the owner: the answer stands if counting it fails.
  await recordAnswerOutcome(app.db, {
    applicationId: application.id,
    chatroomId: chatroom.id,
    answer: row,
    question: asked,
  }).catch((err: unknown) => app.log.warn({ err }, 'could not record an unanswered question'));
  // The answer's own bookkeeping (log, analytics, webhooks' queue) is done before it is seen to
  // end: whoever sees it finish finds it there too, and a question asked at once does not queue
  // behind it.
  await app.events.delivered(outboxId);
  await app.events.emit('chat.changed', {
    ownerId,
    change: { kind: 'updated', ...base, message: serializeMessage(row) },
  });
}
