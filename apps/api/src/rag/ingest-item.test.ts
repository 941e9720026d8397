import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { waitFor } from '../testing/wait-for.ts';
import { INGEST_QUEUE, MAX_INGEST_ATTEMPTS, recoverStalledItems } from './ingest-item.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signUp()).token;
});
afterAll(() => t.close());

async function createWith(items: Array<[string, string]>) {
  const form = new FormData();
  form.append('name', 'Pipeline');
  items.forEach(([type, value], i) => {
    form.append(`items[${i}].type`, type);
    form.append(`items[${i}].value`, value);
  });
  const res = await t.call('POST', '/api/applications/', { token, form });
  expect(res.status).toBe(201);
  return res.body.uuid as string;
}

async function itemRow(appUuid: string) {
  const { rows } = await t.database.query<{
    id: number;
    uuid: string;
    status: string;
    error: string | null;
    attempts: number;
    chunk_count: number;
  }>(
    `SELECT k.id, k.uuid, k.status, k.error, k.attempts, k.chunk_count FROM knowledge_items k
     JOIN applications a ON a.id = k.application_id WHERE a.uuid = $1`,
    [appUuid],
  );
  return rows[0];
}

const chunkCount = async (itemId: number) =>
  (
    await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM knowledge_chunks WHERE item_id = $1',
      [itemId],
    )
  ).rows[0]!.n;

describe('stalled items', () => {
  it('are queued again while attempts remain, then fail with a reason', async () => {
    const appUuid = await createWith([['text', 'Harbour notes\n\nThe harbour closes at dusk.']]);
    const ready = await waitFor(() => itemRow(appUuid), {
      until: (r) => r?.status === 'ready',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(ready!.attempts).toBe(1);

    // A worker is mid-way: the row says processing, with a fresh heartbeat…
    await t.database.query(
      `UPDATE knowledge_items SET status = 'processing', lease = 'dead-worker', heartbeat_at = now() WHERE id = $1`,
      [ready!.id],
    );
    expect(await recoverStalledItems(t.app.knowledge.deps)).toBe(0);
    await t.database.query(
      `UPDATE knowledge_items SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [ready!.id],
    );
    expect(await recoverStalledItems(t.app.knowledge.deps)).toBe(1);
    const again = await waitFor(() => itemRow(appUuid), {
      until: (r) => r?.status === 'ready',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(again!.attempts).toBe(2);

    await t.database.query(
      `UPDATE knowledge_items SET status = 'processing', attempts = $2, heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [ready!.id, MAX_INGEST_ATTEMPTS],
    );
    await recoverStalledItems(t.app.knowledge.deps);
    const failed = await itemRow(appUuid);
    expect(failed!.status).toBe('failed');
    expect(failed!.error).toBe(
      `Processing stopped unexpectedly ${MAX_INGEST_ATTEMPTS} times (the server restarted or ran out of memory). Try a smaller file, or re-sync.`,
    );
    expect(await chunkCount(ready!.id)).toBe(0);
    const listed = await t.call('GET', `/api/applications/${appUuid}/knowledge/`, { token });
    expect(listed.body[0].error).toBe(failed!.error);

    // Re-sync starts the attempts over.
    await t.call('POST', `/api/applications/${appUuid}/knowledge/${failed!.uuid}/resync/`, { token });
    const resynced = await waitFor(() => itemRow(appUuid), {
      until: (r) => r?.status === 'ready',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(resynced!.attempts).toBe(1);
  });

  it('re-queues a queued item whose job was lost', async () => {
    const appUuid = await createWith([['text', 'Lost job\n\nThis item lost its job.']]);
    const ready = await waitFor(() => itemRow(appUuid), {
      until: (r) => r?.status === 'ready',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    // Queued, but no job exists for it (as after a crash between fetching a batch and starting it).
    await t.database.query(
      `UPDATE knowledge_items SET status = 'queued', updated_at = now() - interval '1 hour' WHERE id = $1`,
      [ready!.id],
    );
    expect(await recoverStalledItems(t.app.knowledge.deps)).toBe(1);
    const after = await waitFor(() => itemRow(appUuid), {
      until: (r) => r?.status === 'ready',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(after!.status).toBe('ready');
  });
});

describe('deleting mid-ingestion', () => {
  it('leaves no chunks behind, and the worker does not bring the item back', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let hit!: () => void;
    const hitSeen = new Promise<void>((resolve) => {
      hit = resolve;
    });
    const site = http.createServer(async (_req, res) => {
      hit();
      await released;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<h1>Long page</h1>${'<p>A paragraph about lanterns and harbours.</p>'.repeat(200)}`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    const appUuid = await createWith([['url', url]]);
    await hitSeen;
    const row = await itemRow(appUuid);
    expect(row!.status).toBe('processing');
    expect(
      (await t.call('DELETE', `/api/applications/${appUuid}/knowledge/${row!.uuid}/`, { token })).status,
    ).toBe(204);
    release();
    // The job finishes (the worker notices the item is gone) …
    const state = await waitFor(
      async () =>
        (
          await t.database.query<{ state: string }>(
            `SELECT state FROM pgboss.job WHERE name = $1 AND (data->>'itemId')::int = $2`,
            [INGEST_QUEUE, row!.id],
          )
        ).rows[0]?.state,
      { until: (s) => s === 'completed' || s === 'failed', timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(state).toBe('completed');
    // … and nothing of the item is left.
    expect(await chunkCount(row!.id)).toBe(0);
    expect(await itemRow(appUuid)).toBeUndefined();
    site.close();
  });
});
