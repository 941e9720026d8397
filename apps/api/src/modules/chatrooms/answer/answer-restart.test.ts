import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminQuery } from '@cairn/db/testing';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { type AskedAnswer, ask, providerApplication, watchAnswers } from '../../../testing/answer-fleet.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../../testing/fake-openai-server.ts';
import { freePort, signUpOverHttp, startServer, waitHealthy } from '../../../testing/server-process.ts';

/**
 * Answers across real restarts of real server processes (decision 052): the server runs as its
 * own process, answers stream from a slow model server, and the process is stopped with SIGTERM or
 * killed with SIGKILL mid-answer. On PostgreSQL (TEST_DATABASE_URL) two processes share the
 * database and one of them is killed.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const LONG = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
const MEDIUM = Array.from({ length: 10 }, (_, i) => `part${i}`).join(' ');

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  while (cleanups.length) await cleanups.pop()!();
});

/** A data dir (and, on PostgreSQL, a database) shared by the processes of one test. */
async function environment() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-restart-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl = '';
  if (PG_URL) {
    const name = `cairn_restart_${randomBytes(4).toString('hex')}`;
    await adminQuery(PG_URL, `CREATE DATABASE ${name}`);
    cleanups.push(() => adminQuery(PG_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  const fake = await startFakeOpenAI({
    models: ['slow-chat'],
    // Each word 200 ms apart: a long answer streams for about eight seconds.
    chunkDelayMs: 200,
    reply: (body) => (JSON.stringify(body.messages.at(-1)).includes('medium') ? MEDIUM : LONG),
  });
  cleanups.push(() => fake.close());
  return { dataDir, databaseUrl, fake };
}

async function serve(env: { dataDir: string; databaseUrl: string }, extra: Record<string, string> = {}) {
  const port = Number(extra.PORT ?? (await freePort()));
  const server = startServer(
    {
      DATA_DIR: env.dataDir,
      DATABASE_URL: env.databaseUrl,
      ALLOW_PRIVATE_URLS: 'true',
      SECRET_KEY: 'restart-test-secret-key-0123456789abcdef',
      ...extra,
      PORT: String(port),
    },
    children,
  );
  // Slow on a loaded machine: tsx compiles the server, and PGlite makes a new data dir.
  await waitHealthy(port, server.exited, 150_000);
  return { ...server, port, base: `http://127.0.0.1:${port}` };
}

/** A user and an application on `base`, watched through its socket, then `questions` asked at once. */
async function askMany(
  base: string,
  env: { dataDir: string; fake: FakeOpenAI },
  questions: string[],
  watchBase: () => string = () => base,
) {
  const user = await signUpOverHttp(
    base,
    env.dataDir,
    `restart-${randomBytes(3).toString('hex')}@example.com`,
  );
  const app = await providerApplication(base, user.token, env.fake.url);
  const answers: AskedAnswer[] = [];
  const watch = watchAnswers(watchBase, user.token, app, answers);
  cleanups.push(() => watch.close());
  answers.push(...(await Promise.all(questions.map((q) => ask(base, user, app, q)))));
  return { watch, answers };
}

/** Waits until the health check says `draining` (the signal is handled a moment after it is sent). */
async function drainingSeen(base: string) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${base}/api/health/`);
    if (res.status === 503) return res.json();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the health check never said draining');
}

/** Waits until every answer of `answers` has streamed part of its first run. */
async function streaming(watch: ReturnType<typeof watchAnswers>, answers: AskedAnswer[]) {
  const deadline = Date.now() + 20_000;
  while (!answers.every((a) => watch.runsSeen.get(a.uuid)?.has(0))) {
    if (Date.now() > deadline) throw new Error('the answers did not start streaming');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const TIMEOUT = 420_000;

describe(`answers across a restart (${PG_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it(
    'SIGTERM: answers that can finish do, the rest are handed back and complete after the restart',
    async () => {
      const env = await environment();
      const first = await serve(env, { DRAIN_TIMEOUT_SECONDS: '4' });
      const port = String(first.port);
      const questions = Array.from({ length: 20 }, (_, i) => (i % 2 ? `long question ${i}` : `medium ${i}`));
      const { watch, answers } = await askMany(first.base, env, questions);
      await streaming(watch, answers);

      const signalledAt = Date.now();
      first.child.kill('SIGTERM');
      // Draining: the balancer's health check is told so (until the process exits).
      expect(await drainingSeen(first.base)).toEqual({ status: 'draining' });
      expect(await first.exited).toBe(0);
      // The sockets were closed with "Service Restart": clients reconnect.
      expect(watch.closeCodes).toContain(1012);

      await serve(env, { PORT: port });
      await watch.allFinal(60_000);
      answers.forEach((a, i) => {
        expect(a.final).toMatchObject({
          status: 'complete',
          message: questions[i]!.startsWith('medium') ? MEDIUM : LONG,
        });
        // Finished in its first run, or handed back (not failed) and written anew after the
        // restart. (A machine so loaded that a lease runs out may add a resumed run.)
        if (a.final!.run === 0) expect(a.final!.metadata.resumes).toBeUndefined();
      });
      // Answers under way at the signal finished during the drain (two seconds of a medium answer
      // fit in its four), and those that could not were handed back.
      expect(answers.some((a) => a.final!.run === 0 && a.finishedAt! > signalledAt)).toBe(true);
      expect(answers.filter((a) => a.final!.run >= 1).length).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'SIGKILL: every answer under way is started again after the restart and completes',
    async () => {
      const env = await environment();
      const first = await serve(env);
      const port = String(first.port);
      const questions = Array.from({ length: 20 }, (_, i) => `long question ${i}`);
      const { watch, answers } = await askMany(first.base, env, questions);
      await streaming(watch, answers);

      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      const restarted = await serve(env, { PORT: port });
      await watch.allFinal(60_000);
      // Every answer completes: one that was still being written at the kill as a new run, resumed.
      for (const a of answers) {
        expect(a.final).toMatchObject({ status: 'complete', message: LONG });
        if (a.final!.run > 0) expect(a.final!.metadata.resumes).toBeGreaterThanOrEqual(1);
      }
      const resumed = answers.filter((a) => a.final!.run >= 1);
      expect(resumed.length).toBeGreaterThan(answers.length / 2);
      expect(resumed.every((a) => a.finishedAt! > killedAt)).toBe(true);
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    },
    TIMEOUT,
  );

  it.runIf(PG_URL)(
    'two processes on PostgreSQL: kill -9 one, every answer it was writing completes on the other',
    async () => {
      const env = await environment();
      const doomed = await serve(env);
      const survivor = await serve(env);
      const questions = Array.from({ length: 20 }, (_, i) => `long question ${i}`);
      // Asked through the process that is killed: it takes the answers itself.
      const { watch, answers } = await askMany(doomed.base, env, questions, () => survivor.base);
      await streaming(watch, answers);

      doomed.child.kill('SIGKILL');
      await watch.allFinal(60_000);
      // Every answer completes; one that was still being written at the kill, on the survivor, as
      // a new run (the killed process can write nothing more).
      for (const a of answers) {
        expect(a.final).toMatchObject({ status: 'complete', message: LONG });
        if (a.final!.run > 0) expect(a.final!.metadata.resumes).toBeGreaterThanOrEqual(1);
      }
      expect(answers.filter((a) => a.final!.run >= 1).length).toBeGreaterThan(answers.length / 2);
      survivor.child.kill('SIGTERM');
      await survivor.exited;
    },
    TIMEOUT,
  );

  it.runIf(PG_URL)(
    'two processes on PostgreSQL: a completion streamed by the API process goes on when the worker writing it is killed',
    async () => {
      const env = await environment();
      // A process that serves requests and answers none, and one that writes answers.
      const api = await serve(env, { ROLE: 'api', ANSWER_SLOTS: '0' });
      const writer = await serve(env);
      const user = await signUpOverHttp(
        api.base,
        env.dataDir,
        `api-${randomBytes(3).toString('hex')}@example.com`,
      );
      const app = await providerApplication(api.base, user.token, env.fake.url);
      const key = await fetch(`${api.base}/api/applications/${app}/api-keys/`, {
        method: 'POST',
        headers: { authorization: `Token ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'restart' }),
      });
      const client = new OpenAI({
        apiKey: ((await key.json()) as { key: string }).key,
        baseURL: `${api.base}/api/v1`,
        maxRetries: 0,
      });
      const stream = await client.chat.completions.create({
        model: app,
        stream: true,
        messages: [{ role: 'user', content: 'long question' }],
      });
      let text = '';
      let conversation = '';
      let finishReason: string | null = null;
      let restarted: Promise<unknown> | undefined;
      for await (const chunk of stream) {
        conversation ||= (chunk as unknown as { conversation_id: string }).conversation_id;
        text += chunk.choices[0]?.delta.content ?? '';
        finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
        if (!restarted && text.split(' ').length > 5) {
          // Killed mid-answer, and started again: the answer's lease runs out, a new run begins.
          writer.child.kill('SIGKILL');
          restarted = writer.exited.then(() => serve(env));
        }
      }
      await restarted;
      // The client read the whole answer once, as if nothing happened but a pause.
      expect(text).toBe(LONG);
      expect(finishReason).toBe('stop');
      const room = await fetch(`${api.base}/api/applications/${app}/chatrooms/${conversation}/messages/`, {
        headers: { authorization: `Token ${user.token}` },
      });
      const stored = ((await room.json()) as { messages: AskedAnswer['final'][] }).messages.at(-1)!;
      expect(stored).toMatchObject({ status: 'complete', message: LONG, metadata: { resumes: 1 } });
      expect(stored.run).toBeGreaterThanOrEqual(1);
    },
    TIMEOUT,
  );
});
