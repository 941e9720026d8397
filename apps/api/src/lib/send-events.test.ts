import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEvents } from './send-events.ts';

/** How a write left the stream, read in the same turn: still corked (held for a later tick) or not. */
type Corked = { response: number; socket: number | undefined };

describe('sendEvents', () => {
  const seen = new Map<string, Corked>();
  const server = createServer((req, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (req.url === '/send-events') sendEvents(res, 'data: first\n\n');
    else res.write('data: first\n\n');
    seen.set(req.url!, { response: res.writableCorked, socket: res.socket?.writableCorked });
    // Whatever the answer does next in this turn; the first event must not wait for it.
    res.end('data: [DONE]\n\n');
  });
  let base = '';
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the events in the turn that writes them; a bare write holds them until the next tick', async () => {
    for (const path of ['/send-events', '/bare-write']) {
      const res = await fetch(base + path);
      expect(await res.text()).toBe('data: first\n\ndata: [DONE]\n\n');
    }
    expect(seen.get('/send-events')).toEqual({ response: 0, socket: 0 });
    // The contrast the helper exists for: Node corks a response's socket on write until the next tick.
    expect(seen.get('/bare-write')).toEqual({ response: 1, socket: 1 });
  });
});
