import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { useProviderModel } from '../../testing/chat-fixtures.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';

/**
 * What a client of the OpenAI-compatible API sees when the process writing its answer stops
 * mid-answer and the answer is written again as a new run by another process (decision 052): the
 * request is served by an API-only process, the answer by a worker process that is stopped (its
 * answers handed back, as a drain that runs out of time does) and replaced by a new one. The
 * crash path (a lease that runs out) makes the same new run: `answer-restart.test.ts` kills a real
 * process under a streamed completion.
 */
const FIRST = Array.from({ length: 30 }, (_, i) => `first${i}`).join(' ');
const AGAIN = Array.from({ length: 12 }, (_, i) => `again${i}`).join(' ');

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** An application of `token`'s owner answering through the local model `fake`, knowledge or not. */
async function providerAppOf(t: TestApp, token: string, fake: FakeOpenAI): Promise<string> {
  const app = (await t.call('POST', '/api/applications/', { token, json: { name: 'Restart' } })).body
    .uuid as string;
  await useProviderModel(t, token, app, { baseUrl: fake.url, model: 'slow-chat' });
  await t.call('PATCH', `/api/applications/${app}/`, { token, json: { strictness: 'relaxed' } });
  return app;
}

/** An OpenAI client with a new key of `app`; it does not retry by itself. */
async function clientOf(t: TestApp, token: string, app: string) {
  const key = await t.call('POST', `/api/applications/${app}/api-keys/`, { token, json: { name: 'k' } });
  return new OpenAI({ apiKey: key.body.key, baseURL: `${t.url}/api/v1`, maxRetries: 0 });
}

/**
 * An API process without answer slots and a worker, an application answering through a slow local model, and a key.
 * `replies(n)` is the text of the model's n-th answer to a question (0 for the first run).
 */
async function setup(replies: (n: number) => string) {
  const calls = new Map<string, number>();
  const fake: FakeOpenAI = await startFakeOpenAI({
    models: ['slow-chat'],
    // Apart enough that the text streams in many pieces, even on a loaded machine.
    chunkDelayMs: 120,
    reply: (body) => {
      const question = JSON.stringify(body.messages.at(-1));
      const n = calls.get(question) ?? 0;
      calls.set(question, n + 1);
      return replies(n);
    },
  });
  cleanups.push(() => fake.close());
  const t: TestApp = await startTestApp({ answerSlots: 0 }, { runWorkers: false });
  cleanups.push(() => t.close());
  const worker = async () => {
    const w = await buildApp({
      config: { ...t.config, answerSlots: 64 },
      database: t.database,
      runWorkers: true,
      logger: false,
    });
    await w.ready();
    cleanups.push(() => w.close());
    return w;
  };
  const first = await worker();
  const owner = await t.signUp();
  const app = await providerAppOf(t, owner.token, fake);
  const client = await clientOf(t, owner.token, app);
  /** The first worker stops writing (its answers go back to the queue); a new one writes them again. */
  const restart = async (): Promise<FastifyInstance> => {
    await first.lifecycle.drain(0);
    return worker();
  };
  /** The answer of a conversation as stored (what the owner, and a continued conversation, see). */
  const stored = async (conversation: string) => {
    const res = await t.call('GET', `/api/applications/${app}/chatrooms/${conversation}/messages/`, {
      token: owner.token,
    });
    return res.body.messages.at(-1) as { status: string; run: number; message: string };
  };
  /** How many answers the model has begun writing. */
  const asked = () => [...calls.values()].reduce((a, b) => a + b, 0);
  return { client, app, restart, stored, asked };
}

/** Streams a completion; once `afterWords` words arrived, `midway` runs beside the stream. */
async function streamAcross(client: OpenAI, app: string, midway: () => Promise<unknown>, afterWords = 5) {
  const stream = await client.chat.completions.create({
    model: app,
    stream: true,
    messages: [{ role: 'user', content: 'Tell me everything' }],
  });
  let text = '';
  let conversation = '';
  let finishReason: string | null = null;
  let error: unknown = null;
  let during: Promise<unknown> | undefined;
  try {
    for await (const chunk of stream) {
      conversation ||= (chunk as unknown as { conversation_id: string }).conversation_id;
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      if (!during && text.split(' ').length > afterWords) during = midway();
    }
  } catch (err) {
    error = err;
  }
  await during;
  return { text, conversation, finishReason, error };
}

// Slow on a loaded machine: two or three apps, and answers streamed twice.
describe('a public API answer written again after its process stopped', { timeout: 120_000 }, () => {
  it('the stream goes on with the new run where the text sent so far ends: the whole answer, once', async () => {
    const { client, app, restart, stored } = await setup(() => FIRST);
    const seen = await streamAcross(client, app, restart);
    expect(seen.error).toBeNull();
    expect(seen.text).toBe(FIRST);
    expect(seen.finishReason).toBe('stop');
    expect(await stored(seen.conversation)).toMatchObject({ status: 'complete', run: 1, message: FIRST });
  });

  it('a new run whose text departs from what was sent ends the stream with a retryable error, never a mixed text', async () => {
    const { client, app, restart, stored } = await setup((n) => (n === 0 ? FIRST : AGAIN));
    const seen = await streamAcross(client, app, restart);
    // The OpenAI client raises the error event: the text it had is not taken for an answer.
    expect(seen.error).toBeInstanceOf(OpenAI.APIError);
    expect((seen.error as InstanceType<typeof OpenAI.APIError>).code).toBe('interrupted');
    expect(FIRST.startsWith(seen.text)).toBe(true);
    expect(seen.text).not.toContain('again');
    // The stored answer is the new run's whole text, nothing left of the first.
    await expect
      .poll(async () => (await stored(seen.conversation)).status, { timeout: 30_000 })
      .toBe('complete');
    expect(await stored(seen.conversation)).toMatchObject({ run: 1, message: AGAIN });
  });

  it('a request without streaming waits for the new run and returns its whole text', async () => {
    const { client, app, restart, asked } = await setup((n) => (n === 0 ? FIRST : AGAIN));
    const completion = client.chat.completions.create({
      model: app,
      messages: [{ role: 'user', content: 'Tell me everything' }],
    });
    // The first run is under way (the model is writing it) when its process stops.
    await waitFor(() => asked() === 1, { timeoutMs: 30_000 });
    await restart();
    const done = await completion;
    expect(done.choices[0]!.message.content).toBe(AGAIN);
    expect(done.choices[0]!.finish_reason).toBe('stop');
  });

  it('a process stopping with a streamed answer unfinished ends the stream with a retryable error, and stops', async () => {
    const fake = await startFakeOpenAI({ models: ['slow-chat'], chunkDelayMs: 120, reply: FIRST });
    cleanups.push(() => fake.close());
    // One process that serves the request and writes the answer, as on PGlite.
    const t = await startTestApp();
    let closed = false;
    cleanups.push(() => (closed ? Promise.resolve() : t.close()));
    const owner = await t.signUp();
    const app = await providerAppOf(t, owner.token, fake);
    const client = await clientOf(t, owner.token, app);
    const waiting = client.chat.completions
      .create({ model: app, messages: [{ role: 'user', content: 'Tell me everything' }] })
      .catch((err: unknown) => err);
    // A drain that runs out of time hands the answers back, then the process closes.
    const seen = await streamAcross(client, app, async () => {
      await t.app.lifecycle.drain(0);
      await t.close();
      closed = true;
    });
    expect(seen.error).toBeInstanceOf(OpenAI.APIError);
    expect((seen.error as InstanceType<typeof OpenAI.APIError>).code).toBe('interrupted');
    expect(FIRST.startsWith(seen.text)).toBe(true);
    const refused = await waiting;
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused).toMatchObject({ status: 503, code: 'interrupted' });
  });
});
