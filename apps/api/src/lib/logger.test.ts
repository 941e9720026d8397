import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log-format.ts';
import { loggerOptions, mailDestination, RequestLogController } from './logger.ts';

const at = new Date(2026, 0, 2, 14, 5, 9, 120).getTime();

describe('readable log lines', () => {
  it('formats a JSON line as time, level, message and the remaining fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 1,
      hostname: 'h',
      msg: 'Cairn is up',
      role: 'all',
    });
    expect(formatLogLine(line, false)).toBe('14:05:09.120 INFO  Cairn is up role=all\n');
    expect(formatLogLine(line, true)).toContain('\x1b[32mINFO \x1b[0m');
    const request = JSON.stringify({ level: 20, time: at, msg: 'GET /api/me/ 200 3 ms', http: { ms: 3 } });
    expect(formatLogLine(request, false)).toBe('14:05:09.120 DEBUG GET /api/me/ 200 3 ms\n');
  });

  it("puts an error's stack under its line, with the request id a user can report", () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      reqId: 'r-1',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' },
      msg: 'unhandled error',
    });
    expect(formatLogLine(line, false)).toBe(
      '14:05:09.120 ERROR unhandled error reqId=r-1\n    Error: boom\n        at x (y.ts:1:1)\n',
    );
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('plain', false)).toBe('plain\n');
  });
});

describe('logger options', () => {
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;
  it('pretty on a terminal, JSON in a pipe, unless LOG_FORMAT says', () => {
    expect(loggerOptions({ logLevel: 'info', logFormat: 'auto' }, tty)).toHaveProperty('stream');
    for (const json of [
      loggerOptions({ logLevel: 'info', logFormat: 'auto' }, pipe),
      loggerOptions({ logLevel: 'info', logFormat: 'json' }, tty),
    ]) {
      expect(json).toMatchObject({ level: 'info' });
      expect(json).not.toHaveProperty('stream');
    }
    expect(loggerOptions({ logLevel: 'debug', logFormat: 'pretty' }, pipe)).toHaveProperty('stream');
  });

  it('names where e-mails go, never the SMTP credentials', () => {
    expect(mailDestination({ smtpUrl: undefined, dataDir: '/srv/cairn' })).toBe(
      '.eml files in /srv/cairn/outbox/',
    );
    const smtp = mailDestination({ smtpUrl: 'smtps://mailer:s3cret@mail.example.com', dataDir: '/d' });
    expect(smtp).toBe('SMTP server smtps://mail.example.com:465');
    expect(mailDestination({ smtpUrl: 'smtp://u:p@127.0.0.1:2525', dataDir: '/d' })).not.toMatch(/u:|p@/);
  });
});

describe('request lines', () => {
  async function logged(level: string) {
    const lines: Array<{ level: number; msg: string; http?: { statusCode: number } }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = Fastify({ logger: { level, stream: sink }, logController: new RequestLogController(300) });
    app.get('/ok', async () => 'ok');
    app.get('/bad', async (_request, reply) => reply.status(400).send({ detail: 'no' }));
    app.get('/limited', async (_request, reply) => reply.status(429).send({ detail: 'slow down' }));
    app.get('/broken', async () => {
      throw new Error('boom');
    });
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 350));
      return 'late';
    });
    for (const url of ['/ok', '/bad', '/limited', '/broken', '/slow']) await app.inject({ url });
    await app.close();
    return lines
      .filter((l) => l.http !== undefined)
      .map((l) => `${l.level} ${l.msg.replace(/\d+ ms/, 'N ms')}`);
  }

  it('logs failures (error), slow requests (warn) and rate limits (info); the rest at debug', async () => {
    expect(await logged('info')).toEqual([
      '30 GET /limited 429 N ms',
      '50 GET /broken 500 N ms',
      '40 GET /slow 200 N ms (slow)',
    ]);
    expect(await logged('debug')).toEqual([
      '20 GET /ok 200 N ms',
      '20 GET /bad 400 N ms',
      '30 GET /limited 429 N ms',
      '50 GET /broken 500 N ms',
      '40 GET /slow 200 N ms (slow)',
    ]);
  });
});
