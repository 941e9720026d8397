/**
 * What the Q&A match costs every question (decision 070): `matchQaPair` on an application holding
 * N pairs (each with 3 other phrasings, indexed like ingestion does), built-in retrieval (no
 * vectors), on PGlite. Prints p50/p95 over 200 questions, half of them a pair's rewording.
 *
 *   npx tsx bench/qa-match/run.ts                 # 100 and 1,000 pairs (1,000: one CSV import's worth)
 *   npx tsx bench/qa-match/run.ts --sizes 1000
 */
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { openDatabase } from '@cairn/db/client';
import { matchQaPair } from '../../apps/api/src/modules/chatrooms/answer/qa-match.ts';
import { qaDocument } from '../../apps/api/src/modules/knowledge/qa-document.ts';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { insertApplication, modelCtxOf, textDocument } from '../../apps/api/src/rag/test-fixtures.ts';
import { argValue } from '../lib.ts';
import { percentile } from '../retrieval-quality/scifact.ts';

const sizes = (argValue('--sizes') ?? '100,1000').split(',').map(Number);
const TOPICS = ['password', 'invoice', 'shipping', 'refund', 'warranty', 'subscription', 'account', 'order'];
const VERBS = ['reset', 'change', 'cancel', 'find', 'update', 'track', 'download', 'delete'];

const pairOf = (i: number) => {
  const topic = `${TOPICS[i % TOPICS.length]}${i}`;
  const verb = VERBS[Math.floor(i / TOPICS.length) % VERBS.length];
  return {
    question: `How do I ${verb} my ${topic}?`,
    alternatives: [
      `${verb} ${topic}`,
      `Can I ${verb} the ${topic} online?`,
      `Where can I ${verb} my ${topic}`,
    ],
    answer: `Open the ${topic} page and choose "${verb}". It takes effect at once.`,
  };
};

for (const size of sizes) {
  const database = await openDatabase({});
  await database.migrate();
  const ctx = modelCtxOf(database);
  const { applicationId } = await insertApplication(database);
  const started = performance.now();
  for (let i = 0; i < size; i++) {
    const pair = pairOf(i);
    const { rows } = await database.query<{ id: number }>(
      `INSERT INTO knowledge_items (application_id, type, title, status, qa_question, qa_alternatives, qa_answer)
       VALUES ($1, 'qa', $2, 'processing', $2, $3, $4) RETURNING id`,
      [applicationId, pair.question, pair.alternatives, pair.answer],
    );
    await indexItem(ctx, {
      applicationId,
      itemId: rows[0]!.id,
      document: textDocument(pair.question, qaDocument(pair)),
      llmModels: DEFAULT_LLM_MODELS,
    });
  }
  await database.query(`UPDATE knowledge_items SET status = 'ready' WHERE application_id = $1`, [
    applicationId,
  ]);
  const indexing = (performance.now() - started) / 1000;
  const application = { id: applicationId, llmModels: DEFAULT_LLM_MODELS };
  const times: number[] = [];
  let matched = 0;
  for (let q = 0; q < 200; q++) {
    const i = (q * 7919) % size;
    const question =
      q % 2 ? `${pairOf(i).question.toLowerCase()} please` : `What is the weather like in city ${q}?`;
    const t0 = performance.now();
    const match = await matchQaPair(ctx, application, question);
    times.push(performance.now() - t0);
    if (match) matched++;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${size} pairs: indexed in ${indexing.toFixed(1)} s; matchQaPair p50 ${percentile(times, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(times, 95).toFixed(1)} ms; ${matched}/200 matched (100 expected)`,
  );
  await database.close();
}
