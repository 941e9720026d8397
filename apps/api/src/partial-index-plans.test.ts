import { NamingClient } from '@cairn/db/postgres-statements';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resumeAbandonedAnswers, takePendingAnswers } from './modules/chatrooms/answer/answer-queue.ts';
import { startTestApp, type TestApp } from './testing/test-app.ts';

/**
 * Statements run by name are planned once for any parameters after their fifth run (decision 103).
 * Such a generic plan can use a partial index only when the statement's text itself says the
 * index's value (`status = 'pending'`, not `status = $1`); otherwise it scans the table on every
 * run, and the tables these indexes serve grow with every message (decision 105, `eqLiteral`).
 * Each statement here is the product's own text, captured as it ran, then planned generically.
 */
let t: TestApp;
/** Every statement text the app ran since the test began. */
let statements: () => Promise<string[]>;

beforeAll(async () => {
  t = await startTestApp();
  if (t.database.kind === 'pglite') {
    // One session: the named statements are listed where they were prepared.
    statements = async () =>
      (
        await t.database.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')
      ).rows.map((r) => r.statement);
  } else {
    // Every connection of the pool is one of these.
    const query = vi.spyOn(NamingClient.prototype, 'query');
    statements = async () =>
      query.mock.calls.map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text));
  }
});
afterAll(() => t.close());

/** PostgreSQL's generic plan of `text`, whatever its parameters' values. */
async function genericPlan(text: string): Promise<string> {
  const params = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const args = params ? `(${new Array(params).fill('NULL').join(', ')})` : '';
  const steps = [
    `PREPARE plan_probe AS ${text}`,
    'SET plan_cache_mode = force_generic_plan',
    `EXPLAIN EXECUTE plan_probe${args}`,
  ];
  const cleanUp = ['RESET plan_cache_mode', 'DEALLOCATE plan_probe'];
  // PREPARE and SET hold for one session: PGlite's only one, or a pool connection of its own.
  const client = t.database.kind === 'pglite' ? null : await (t.database.raw as pg.Pool).connect();
  const run = (q: string) =>
    client ? client.query<Record<string, string>>(q) : t.database.query<Record<string, string>>(q);
  let plan = '';
  try {
    for (const step of steps) plan = (await run(step)).rows.map((r) => Object.values(r)[0]).join('\n');
    return plan;
  } finally {
    for (const step of cleanUp) await run(step).catch(() => undefined);
    client?.release();
  }
}

async function statementHolding(...fragments: string[]): Promise<string> {
  const found = (await statements()).filter((s) => fragments.every((f) => s.includes(f)));
  expect(found, `a statement holding ${fragments.join(' … ')}`).not.toHaveLength(0);
  return found[0] as string;
}

describe('statements served by a partial index', () => {
  it('keep it in their generic plans', async () => {
    const { token, user } = await t.signUp();
    const created = await t.call('POST', '/api/applications/', { token, json: { name: 'Plans' } });
    const uuid = created.body.uuid;
    // Enough rows that scanning a table costs more than reading its partial index.
    await t.database.query(
      `INSERT INTO chatrooms (uuid, application_id, name, source)
       SELECT gen_random_uuid(), a.id, 'Chat ' || n, 'web' FROM applications a, generate_series(1, 300) n
       WHERE a.uuid = $1`,
      [uuid],
    );
    await t.database.query(
      `INSERT INTO messages (uuid, chatroom_id, sender_identifier, message)
       SELECT gen_random_uuid(), c.id, 'reg_0', 'Hello' FROM chatrooms c, generate_series(1, 20) n`,
    );
    // The product runs its statements: an answer, the sidebar and its badge on a page, a worker
    // looking for queued answers, the sweep for answers whose process died.
    const sent = await t.call('POST', `/api/applications/${uuid}/chatrooms/send-message/`, {
      token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'When do you open?',
        sender_identifier: `reg_${user.id}`,
        metadata: { source: 'web' },
        send_to_user: true,
      },
    });
    expect(sent.status).toBe(201);
    expect((await t.call('GET', `/api/navigation/?application=${uuid}`, { token })).status).toBe(200);
    await takePendingAnswers(t.app, 1);
    await resumeAbandonedAnswers(t.app);

    // Found by what they do, whether their values are literals or parameters.
    const cases: [string[], string][] = [
      [['"messages"."status" =', 'for update skip locked'], 'messages_open_answers_idx'],
      [['"messages"."status" =', '"lease_until" < now()'], 'messages_open_answers_idx'],
      [['count(*)', '"messages"."feedback" ='], 'messages_bad_answers_idx'],
      [['union all', '"chatrooms"."handled_by" ='], 'chatrooms_app_with_a_person_idx'],
    ];
    for (const [fragments, index] of cases) {
      const plan = await genericPlan(await statementHolding(...fragments));
      expect.soft(plan, `${fragments.join(' … ')}\n${plan}`).toContain(index);
    }
  });
});
