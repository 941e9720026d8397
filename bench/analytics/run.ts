/**
 * Analytics response time (issue 20): the daily rollups of a year of a busy application, filled
 * directly with SQL as the analytics subscriber would have left them, then `GET …/analytics/` for
 * 30 and 365 days timed from this (client) process against a server process.
 *
 *   npx tsx bench/analytics/run.ts                                    # PGlite, 10,000 conversations / 100,000 messages
 *   npx tsx bench/analytics/run.ts --database-url postgres://127.0.0.1:5432/postgres   # 100,000 / 1,000,000
 *   options: --conversations N (messages are 10 per conversation), --requests 50
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '@cairn/db/client';
import { percentile } from '../chat/setup.ts';
import { adminQuery, argValue } from '../lib.ts';
import { startServerProcess } from '../server-process.ts';

const adminUrl = argValue('--database-url');
const CONVERSATIONS = Number(argValue('--conversations') ?? (adminUrl ? 100_000 : 10_000));
const MESSAGES = CONVERSATIONS * 10;
const REQUESTS = Number(argValue('--requests') ?? 50);
const PORT = 3990;

/**
 * What a year of MESSAGES leaves in the rollups: half of the messages are questions, half answers
 * (a third by the built-in answerer, the rest by a priced provider model), spread evenly over the
 * 365 days ending today (the owner's zone is UTC here); visitors come back (60% distinct), a
 * handoff every 50 conversations, 150 knowledge items cited a day, questions worded from a few
 * thousand word pairs (as many groups to merge as a real inbox has, or more).
 */
/**
 * The day of the i-th of `count` rows: rows go in day after day, as the subscriber appends them,
 * so a day's rows are near each other on disk as they would be (not one per page).
 */
const dayOf = (count: string) => `current_date - 364 + ((i - 1)::bigint * 365 / (${count}))::int`;

async function fill(db: Database, applicationId: number, modelUuid: string) {
  const answers = MESSAGES / 2;
  const year = `current_date - 364`;
  const statements: Array<[string, string, unknown[]]> = [
    [
      'analytics_days',
      `INSERT INTO analytics_days (application_id, day, conversations, messages, rated_up, rated_down,
         not_covered, handoffs_requested, handoffs_answered)
       SELECT $1, d::date, $2::int / 365, $3::int / 365, $2::int / 365 / 8, $2::int / 365 / 20,
         $2::int / 365 / 10, $2::int / 365 / 50, $2::int / 365 / 60
       FROM generate_series(${year}, current_date, interval '1 day') d`,
      [applicationId, CONVERSATIONS, MESSAGES],
    ],
    [
      'analytics_visitors',
      `INSERT INTO analytics_visitors (application_id, day, visitor)
       SELECT $1, ${dayOf('$2')}, 'visitor_' || (i::bigint * 7919 % ($2::int * 6 / 10))
       FROM generate_series(1, $2::int) i ON CONFLICT DO NOTHING`,
      [applicationId, CONVERSATIONS],
    ],
    [
      'analytics_answers',
      `INSERT INTO analytics_answers (application_id, day, first_token_ms, model_uuid, model_name,
         input_tokens, output_tokens)
       SELECT $1, ${dayOf('$2')}, 200 + (i::bigint * 7919 % 2800),
         CASE WHEN i % 3 = 0 THEN NULL ELSE $3::uuid END,
         CASE WHEN i % 3 = 0 THEN 'Built-in extractive answerer' ELSE 'gpt-bench' END,
         800 + i % 1200, 100 + i % 400
       FROM generate_series(1, $2::int) i`,
      [applicationId, answers, modelUuid],
    ],
    [
      'analytics_human_replies',
      `INSERT INTO analytics_human_replies (application_id, day, wait_ms)
       SELECT $1, ${dayOf('$2::int / 60')}, 5000 + (i::bigint * 7919 % 600000)
       FROM generate_series(1, $2::int / 60) i`,
      [applicationId, CONVERSATIONS],
    ],
    [
      'analytics_questions',
      `INSERT INTO analytics_questions (application_id, day, question, tokens)
       SELECT $1, ${dayOf('$2')}, 'How do I ' || t || ' the ' || o || '?', ARRAY[o, t]
       FROM generate_series(1, $2::int) i,
         LATERAL (SELECT 'thing' || (i * 17 % 50) AS o, 'topic' || (i * 31 % 400) AS t) w`,
      [applicationId, MESSAGES / 2],
    ],
    [
      'analytics_citations',
      // The same uuid for an item every day, shaped as the v4 uuids items have.
      `INSERT INTO analytics_citations (application_id, day, item_uuid, title, citations)
       SELECT $1, current_date - 364 + d, overlay(overlay(md5('item' || k) placing '4' from 13) placing '8' from 17)::uuid, 'Article ' || k, 1 + (d * k) % 40
       FROM generate_series(0, 364) d, generate_series(1, 150) k`,
      [applicationId],
    ],
  ];
  for (const [table, text, values] of statements) {
    const started = performance.now();
    await db.query(text, values);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    console.log(
      `  ${table}: ${rows[0]!.n.toLocaleString('en')} rows (${Math.round(performance.now() - started)} ms)`,
    );
  }
  await db.query('ANALYZE');
}

async function time(base: string, token: string, appUuid: string, query: string) {
  const url = `${base}/api/applications/${appUuid}/analytics/${query}`;
  const get = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Token ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} → ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await get());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main() {
  const backend = adminUrl ? 'PostgreSQL' : 'PGlite';
  console.log(
    `analytics bench on ${backend}: ${CONVERSATIONS.toLocaleString('en')} conversations, ` +
      `${MESSAGES.toLocaleString('en')} messages over a year, ${REQUESTS} requests per range`,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-analytics-'));
  const dbName = `cairn_bench_analytics_${process.pid}`;
  let databaseUrl: string | undefined;
  if (adminUrl) {
    await adminQuery(adminUrl, `CREATE DATABASE ${dbName}`);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const storage = { dataDir, databaseUrl };
  let server = await startServerProcess('analytics', PORT, { storage });
  try {
    const token = await server.signUp();
    const app = await server.call<{ uuid: string }>('POST', '/api/applications/', token, { name: 'Busy' });
    const provider = await server.call<{ uuid: string }>('POST', '/api/model-providers/', token, {
      kind: 'openai_compatible',
      name: 'Bench',
      base_url: 'http://127.0.0.1:9/v1',
    });
    const model = await server.call<{ uuid: string }>(
      'POST',
      `/api/model-providers/${provider.uuid}/models/`,
      token,
      { name: 'gpt-bench', model_type: 'text' },
    );
    await server.call('PATCH', `/api/model-providers/${provider.uuid}/models/${model.uuid}/`, token, {
      input_price_per_million: 0.15,
      output_price_per_million: 0.6,
    });
    // PGlite has one process at a time: the server stops while this process fills its data dir.
    if (!adminUrl) await server.stop();
    const db = await openDatabase({ databaseUrl, dataDir });
    try {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
        app.uuid,
      ]);
      await fill(db, rows[0]!.id, model.uuid);
    } finally {
      await db.close();
    }
    if (!adminUrl) server = await startServerProcess('analytics', PORT, { storage });

    for (const [label, query] of [
      ['30 days', '?days=30'],
      ['365 days', '?days=365'],
    ] as const) {
      const { p50, p95 } = await time(server.base, token, app.uuid, query);
      console.log(`  ${label.padEnd(8)} p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
    }
    console.log(`  server peak RSS ${server.peakRssMb().toFixed(0)} MB`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
