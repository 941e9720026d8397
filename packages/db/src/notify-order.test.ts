import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { openTestDatabase } from './testing.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

it('delivers the NOTIFYs of one process in the order they were sent, though sent at once', async () => {
  const heard: number[] = [];
  const unlisten = await db.listen('notify_order_test', (payload) => heard.push(Number(payload)));
  const sent = Array.from({ length: 400 }, (_, i) => i);
  // Not awaited one by one: an answer's events are published while the previous one is in flight.
  await Promise.all(sent.map((i) => db.notify('notify_order_test', String(i))));
  await expect.poll(() => heard.length, { timeout: 10_000 }).toBe(sent.length);
  expect(heard).toEqual(sent);
  await unlisten();
});
