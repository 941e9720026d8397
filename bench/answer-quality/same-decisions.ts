/**
 * Whether a change to the relevance decision's code leaves every decision as it was, and what the
 * decision costs before and after (decision 095). Runs `judgeRelevance` and `composeAnswer` of
 * another worktree (`--base`, e.g. `git worktree add /tmp/base main` with its own `npm ci`) and of
 * this one on every question of `run.ts --dump` files and, with `--scifact`, on SciFact's claims
 * with twenty abstracts each (ranked by the weight of the claim's words they hold; every other one
 * under its title as a markdown heading, as the chat bench's items hold them): passages five times
 * SQuAD's. Each question three ways: its six quoted passages; the same with cosines that vouch for
 * some of them (053); its twenty, as the knowledge page scores the passages it shows. Compared:
 * covered, score, the passing passages in order, the weighted terms, every passage's coverage (to
 * the last bit, in the map's order), the composed answer's text and citations. Then each side's
 * CPU per decision (six passages quoted, the twenty read for titles), rounds taking turns.
 *
 *   npx tsx bench/answer-quality/same-decisions.ts --base /work/wt/base --dumps s24.json,s3c.json [--scifact] [--rounds 5]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Answerer from '../../apps/api/src/modules/chatrooms/answer/extractive-answerer.ts';
import type * as Relevance from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import type { TermStatistics } from '../../apps/api/src/rag/term-statistics.ts';
import type { Passage } from '../../apps/api/src/rag/types.ts';
import { argValue } from '../lib.ts';
import { loadSciFact } from '../retrieval-quality/scifact.ts';
import type { Dump } from './study-report.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const base = argValue('--base');
if (!base) throw new Error('--base <worktree> is required');
const rounds = Number(argValue('--rounds') ?? 5);

interface Side {
  name: string;
  relevance: typeof Relevance;
  answerer: typeof Answerer;
}
async function sideOf(name: string, root: string): Promise<Side> {
  const dir = path.join(root, 'apps/api/src/modules/chatrooms/answer');
  return {
    name,
    relevance: (await import(path.join(dir, 'relevance.ts'))) as typeof Relevance,
    answerer: (await import(path.join(dir, 'extractive-answerer.ts'))) as typeof Answerer,
  };
}
const sides = [await sideOf('before', base), await sideOf('after', path.resolve(here, '../..'))] as const;

interface Case {
  question: string;
  stats: TermStatistics;
  /** The ranking's first twenty: the first six are quoted. */
  ranking: Passage[];
}

function casesOf(dump: Dump): Case[] {
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  return dump.questions.map((q) => ({
    question: q.question,
    stats: {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
      titleChunks,
    },
    ranking: q.passages.slice(0, 20),
  }));
}

/** SciFact's claims, each with the twenty abstracts holding most of its words' weight (IDF). */
function sciFactCases(): Case[] {
  const data = loadSciFact(path.resolve(here, '../../../shared/datasets/scifact'));
  const docs = data.corpus.map((d, i) => ({
    passage: {
      item_uuid: `item-${Math.floor(i / 20)}`,
      item_title: `SciFact ${Math.floor(i / 20)}`,
      chunk_id: i,
      content: i % 2 ? `# ${d.title}\n\n${d.text}` : d.text,
      score: 0,
      page: null,
      heading: i % 2 ? null : d.title,
    } satisfies Passage,
    terms: new Set(termsOf(`${d.title} ${d.text}`)),
  }));
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const titleChunks = new Map<string, number>();
  for (const { passage } of docs)
    titleChunks.set(passage.item_title, (titleChunks.get(passage.item_title) ?? 0) + 1);
  const idf = (t: string) => Math.log(docs.length / (df.get(t) ?? 1));
  return data.queries.map((q) => {
    const terms = [...new Set(termsOf(q.text))];
    const ranking = docs
      .map((d) => ({ d, score: terms.reduce((s, t) => s + (d.terms.has(t) ? idf(t) : 0), 0) }))
      .sort((a, b) => b.score - a.score || a.d.passage.chunk_id - b.d.passage.chunk_id)
      .slice(0, 20)
      .map(({ d }) => d.passage);
    const words = q.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    return {
      question: q.text,
      stats: {
        chunks: docs.length,
        df: new Map(words.map((w) => [w, df.get(termsOf(w)[0] ?? '') ?? 0])),
        stopWords: new Set<string>(),
        titleChunks,
      },
      ranking,
    };
  });
}

/** Everything a caller may read of one decision and its answer, numbers to the last bit. */
function outcome(side: Side, c: Case, passages: Passage[], similarity?: ReadonlyMap<number, number>) {
  const decision = side.relevance.judgeRelevance(c.question, passages, c.stats, similarity, {
    ranking: c.ranking,
  });
  const answer = side.answerer.composeAnswer(c.question, decision.weighted, decision.passages);
  return JSON.stringify({
    covered: decision.covered,
    score: decision.score,
    passages: decision.passages.map((p) => p.chunk_id),
    weighted: decision.weighted.map((w) => [w.term, w.weight.toString()]),
    coverage: [...decision.coverage].map(([id, score]) => [id, score.toString(), Object.is(score, -0)]),
    text: answer.text,
    cited: answer.cited.map((p) => p.chunk_id),
  });
}

/** A fixed cosine per chunk (0–0.999), so that some passages are vouched for. */
const cosine = (chunkId: number) => ((chunkId * 2654435761) % 1000) / 1000;

function compare(name: string, cases: Case[]) {
  let compared = 0;
  let differing = 0;
  for (const c of cases) {
    const six = c.ranking.slice(0, 6);
    const vectors = new Map(six.map((p) => [p.chunk_id, cosine(p.chunk_id)]));
    for (const [way, passages, similarity] of [
      ['six', six, undefined],
      ['six, vectors', six, vectors],
      ['twenty', c.ranking, undefined],
    ] as const) {
      const [before, after] = sides.map((side) => outcome(side, c, passages, similarity));
      compared++;
      if (before === after) continue;
      differing++;
      if (differing <= 5)
        console.log(`DIFFERS (${way}) ${c.question}\n  before ${before}\n  after  ${after}`);
    }
  }
  console.log(`${name}: ${cases.length} questions, ${compared} decisions compared, ${differing} differ`);
}

function cpuPerDecision(side: Side, cases: Case[]): number {
  const started = process.cpuUsage();
  for (const c of cases)
    side.relevance.judgeRelevance(c.question, c.ranking.slice(0, 6), c.stats, undefined, {
      ranking: c.ranking,
    });
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / cases.length;
}

function time(name: string, cases: Case[]) {
  for (const side of sides) cpuPerDecision(side, cases);
  const runs = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const [i, side] of sides.entries()) runs[i]!.push(cpuPerDecision(side, cases));
  sides.forEach((side, i) => {
    const ms = runs[i]!;
    const median = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
    console.log(
      `${name}, ${side.name}: ${ms.map((x) => x.toFixed(3)).join(' / ')} → median ${median.toFixed(3)} ms CPU per decision`,
    );
  });
}

const inputs: Array<[string, Case[]]> = (argValue('--dumps')?.split(',') ?? []).map((file) => [
  path.basename(file),
  casesOf(JSON.parse(fs.readFileSync(file, 'utf8')) as Dump),
]);
if (process.argv.includes('--scifact')) inputs.push(['SciFact', sciFactCases()]);
for (const [name, cases] of inputs) compare(name, cases);
for (const [name, cases] of inputs) time(name, cases);
