/**
 * Sidebar and retention at scale (decision 067): one application with `--rooms` conversations
 * (default 100,000; 2 messages each, 95 % API, 5 % the owner's own, 20 widget visitors waiting, a
 * notification per API room), on PostgreSQL (`--database-url postgres://…`, a scratch database is
 * created and dropped) or PGlite. Prints the sidebar list's p50/p95 (`GET …/chatrooms/`'s query),
 * then the time the retention job takes to delete the older half, and its rate.
 *
 *   npx tsx bench/retention/run.ts [--rooms 100000] [--database-url postgres://…]
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '@cairn/db/client';
import type { FastifyInstance } from 'fastify';
import { sidebarChatroomsOf } from '../../apps/api/src/modules/chatrooms/list-chatrooms.ts';
import { deleteExpiredConversations } from '../../apps/api/src/modules/retention/delete-expired-conversations.ts';
import { adminQuery, argValue } from '../lib.ts';

const ROOMS = Number(argValue('--rooms') ?? 100_000);
const url = argValue('--database-url');

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (url) {
    const name = `cairn_bench_retention_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: target.href });
    return {
      database,
      drop: async () => {
        await database.close();
        await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-retention-'));
  const database = await openDatabase({ dataDir });
  return {
    database,
    drop: async () => {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const { database, drop } = await open();
try {
  await database.migrate();
  const q = (text: string, values: unknown[] = []) => database.query<Record<string, unknown>>(text, values);
  const user = (
    await q(
      `INSERT INTO users (email, username, password_hash) VALUES ('bench@example.com', 'bench', 'x') RETURNING id`,
    )
  ).rows[0]!.id as number;
  const app = (
    await q(`INSERT INTO applications (owner_id, name) VALUES ($1, 'Busy') RETURNING id, uuid`, [user])
  ).rows[0]! as { id: number; uuid: string };
  const started = performance.now();
  // Activity spread over the last 200 days, oldest first: the older half is past a 100-day retention.
  await q(
    `INSERT INTO chatrooms (application_id, name, source, handled_by, waiting_since, last_message_at)
     SELECT $1, 'Conversation ' || g,
            CASE WHEN g % 20 = 0 THEN 'web' WHEN g > $2 - 20 THEN 'widget' ELSE 'api' END,
            CASE WHEN g > $2 - 20 AND g % 20 <> 0 THEN 'human' ELSE 'assistant' END,
            CASE WHEN g > $2 - 20 AND g % 20 <> 0 THEN now() END,
            now() - make_interval(secs => ($2 - g) * 200 * 86400.0 / $2)
       FROM generate_series(1, $2) g`,
    [app.id, ROOMS],
  );
  await q(
    `INSERT INTO messages (chatroom_id, sender_identifier, message)
     SELECT c.id, s.sender, 'Message ' || c.id FROM chatrooms c, (VALUES ('api_bench'), ('assistant')) s(sender)`,
  );
  await q(
    `INSERT INTO notifications (owner_id, event, title, application_id, chatroom_id, read_at)
     SELECT $1, 'conversation_started', 'New', $2, id, now() FROM chatrooms WHERE source = 'api'`,
    [user, app.id],
  );
  await q('ANALYZE');
  console.log(`generated ${ROOMS} conversations in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const times: number[] = [];
  let listed = 0;
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    listed = (await sidebarChatroomsOf(database.db, app.id)).chatrooms.length;
    if (i >= 10) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `sidebar list (${listed} rooms of ${ROOMS}): p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms`,
  );

  await q(`UPDATE applications SET conversation_retention_days = 100 WHERE id = $1`, [app.id]);
  // The job needs the database and somewhere to announce deleted sidebar rooms (no sockets here).
  const jobApp = { db: database.db, realtime: { publish: async () => {} } } as unknown as FastifyInstance;
  const t0 = performance.now();
  const deleted = await deleteExpiredConversations(jobApp, new Date());
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `retention deleted ${deleted} conversations (${deleted * 2} messages, their notifications) in ${seconds.toFixed(1)} s: ${Math.round(deleted / seconds)} conversations/s`,
  );
} finally {
  if (process.argv.includes('--keep')) await database.close();
  else await drop();
}
