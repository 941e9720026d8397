import http from 'node:http';
import type net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../testing/test-app.ts';
import { waitFor } from '../testing/wait-for.ts';
import { INGEST_QUEUE } from './ingest-item.ts';

/**
 * A process that stops while an item is ingesting (decision 052): after the drain time the item
 * goes back to the queue with a new job, its attempt not counted, instead of waiting for its
 * heartbeat to be found stale.
 */
let site: http.Server | undefined;
afterAll(() => {
  site?.closeAllConnections();
  site?.close();
});

describe('knowledge ingestion on a graceful stop', () => {
  it('hands an item still ingesting back to the queue, with a job, its attempt not counted', async () => {
    // A web page that never answers: the item is surely mid-ingestion when the process stops.
    site = http.createServer(() => {});
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}/`;
    const t = await startTestApp();
    const owner = await t.signUp();
    const form = new FormData();
    form.append('name', 'Drain');
    form.append('items[0].type', 'url');
    form.append('items[0].value', siteUrl);
    const created = await t.call('POST', '/api/applications/', { token: owner.token, form });
    expect(created.status).toBe(201);
    const knowledge = async () =>
      (await t.call('GET', `/api/applications/${created.body.uuid}/knowledge/`, { token: owner.token })).body;
    await waitFor(async () => JSON.stringify(await knowledge()).includes('"processing"'));

    await t.app.lifecycle.drain(1000);
    await t.app.close();
    const { rows } = await t.database.query<{
      id: number;
      status: string;
      attempts: number;
      lease: string | null;
    }>('SELECT id, status, attempts, lease FROM knowledge_items');
    expect(rows).toEqual([{ id: rows[0]!.id, status: 'queued', attempts: 0, lease: null }]);
    const jobs = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = $1 AND state = 'created' AND (data->>'itemId')::int = $2`,
      [INGEST_QUEUE, rows[0]!.id],
    );
    expect(jobs.rows[0]!.n).toBe(1);
    // The worker left behind ends once its page fails; its writes (under the old lease) change nothing.
    site.closeAllConnections();
    await waitFor(() => t.app.knowledge.deps.leases.size === 0);
    const after = await t.database.query<{ status: string }>('SELECT status FROM knowledge_items');
    expect(after.rows).toEqual([{ status: 'queued' }]);
    await t.database.close();
  }, 120_000);
});
