import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedAddress, guardedRequest } from './ssrf.ts';

/** A server on every loopback address that answers with the address it was reached at. */
let server: http.Server;
let port: number;
const connections: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => res.end(req.socket.localAddress));
  server.on('connection', (socket) => connections.push(socket.localAddress ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** GET through `guardedRequest` with a check that returns `address`; resolves to the body. */
async function get(address: string): Promise<string> {
  const check = async (): Promise<CheckedAddress> => ({ address, family: 4 });
  const req = await guardedRequest(new URL(`http://service.test:${port}/`), check, { method: 'GET' });
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('guardedRequest', () => {
  it('connects to the checked address, never to what the name would resolve to', async () => {
    // `service.test` resolves nowhere: only the pinned address can have been used.
    expect(await get('127.0.0.1')).toBe('127.0.0.1');
  });

  it('reuses a kept-alive connection for the same checked address, and only for it', async () => {
    connections.length = 0;
    expect(await get('127.0.0.3')).toBe('127.0.0.3');
    expect(await get('127.0.0.3')).toBe('127.0.0.3');
    expect(await get('127.0.0.3')).toBe('127.0.0.3');
    expect(connections).toEqual(['127.0.0.3']);
    // Same host name and port, but this request's check returned another address: a new connection to it.
    expect(await get('127.0.0.4')).toBe('127.0.0.4');
    expect(connections).toEqual(['127.0.0.3', '127.0.0.4']);
  });
});
