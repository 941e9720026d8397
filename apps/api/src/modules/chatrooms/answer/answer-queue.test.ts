import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.ts';
import { openChatSocket } from '../../../testing/chat-socket.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { waitFor } from '../../../testing/wait-for.ts';
import { INTERRUPTED_ERROR, MAX_ANSWER_RESUMES } from './answer-queue.ts';
import { NOT_COVERED_ANSWER } from './no-answer.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function started(...args: Parameters<typeof startTestApp>): Promise<TestApp> {
  const t = await startTestApp(...args);
  cleanups.push(() => t.close());
  return t;
}

async function newApplication(t: TestApp, token: string) {
  const res = await t.call('POST', '/api/applications/', { token, json: { name: 'Queue' } });
  expect(res.status).toBe(201);
  return res.body.uuid as string;
}

const ask = (t: TestApp, owner: { token: string; user: { id: number } }, app: string, message: string) =>
  t.call('POST', `/api/applications/${app}/chatrooms/send-message/`, {
    token: owner.token,
    json: {
      chatroom_identifier: 'new_chat',
      message,
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });

/** An application with no knowledge that answers anyway through a local OpenAI-compatible server. */
async function providerApplication(t: TestApp, token: string, fake: FakeOpenAI) {
  const app = await newApplication(t, token);
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'openai_compatible', name: 'Local', base_url: fake.url },
  });
  const model = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
    token,
    json: { name: 'slow-chat', model_type: 'text' },
  });
  await t.call('PATCH', `/api/applications/${app}/`, {
    token,
    json: { llm_models: [model.body.uuid, 'builtin-embedding'], strictness: 'relaxed' },
  });
  return app;
}

/** An owner asks through `t`: the answer is stored `status`, then completed by some process. */
async function asksAndIsAnswered(t: TestApp, status: 'streaming' | 'pending') {
  const owner = await t.signUp();
  const app = await newApplication(t, owner.token);
  const tab = await openChatSocket(t.url, owner.token);
  cleanups.push(async () => tab.close());

  const res = await ask(t, owner, app, 'What is the warranty of the X200?');
  expect(res.status).toBe(201);
  expect(res.body.answer.status).toBe(status);
  const answer = await tab.finalOf(res.body.answer.uuid);
  expect(answer).toMatchObject({ status: 'complete', message: NOT_COVERED_ANSWER });
}

describe('answer queue', () => {
  it('an API process (no background jobs) answers the questions it stores itself', async () => {
    const t = await started({}, { runWorkers: false });
    await asksAndIsAnswered(t, 'streaming');
  });

  it('a process without answer slots leaves the answer pending; a NOTIFY wakes another process that answers it', async () => {
    const t = await started({ answerSlots: 0 }, { runWorkers: false });
    const worker = await buildApp({
      config: { ...t.config, answerSlots: 64 },
      database: t.database,
      runWorkers: true,
      logger: false,
      // Only the wake-up can make it answer within the test.
      answer: { pollIntervalMs: 600_000 },
    });
    await worker.ready();
    cleanups.push(() => worker.close());
    await asksAndIsAnswered(t, 'pending');
  });

  it('a public API call to a process without answer slots streams the answer another process writes', async () => {
    const fake = await startFakeOpenAI({
      models: ['slow-chat'],
      reply: 'Streamed by the worker.',
      // Long enough apart that each piece is published on its own, even on a loaded machine.
      chunkDelayMs: 150,
    });
    cleanups.push(() => fake.close());
    const t = await started({ answerSlots: 0 }, { runWorkers: false });
    const worker = await buildApp({
      config: { ...t.config, answerSlots: 64 },
      database: t.database,
      runWorkers: true,
      logger: false,
      answer: { pollIntervalMs: 600_000 },
    });
    await worker.ready();
    cleanups.push(() => worker.close());
    const owner = await t.signUp();
    const app = await providerApplication(t, owner.token, fake);
    const key = await t.call('POST', `/api/applications/${app}/api-keys/`, {
      token: owner.token,
      json: { name: 'k' },
    });
    const res = await fetch(`${t.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: app,
        stream: true,
        messages: [{ role: 'user', content: 'What is new?' }],
      }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Streamed by the worker.');
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(1);
  });

  it('a process with no free answer slot queues the answer and takes it when a slot frees', async () => {
    const fake = await startFakeOpenAI({
      models: ['slow-chat'],
      reply: 'one two three four five',
      chunkDelayMs: 60,
    });
    cleanups.push(() => fake.close());
    const t = await started({}, { answer: { concurrency: 1, pollIntervalMs: 600_000 } });
    const owner = await t.signUp();
    const app = await providerApplication(t, owner.token, fake);
    const tab = await openChatSocket(t.url, owner.token);
    cleanups.push(async () => tab.close());

    const first = await ask(t, owner, app, 'First question');
    const second = await ask(t, owner, app, 'Second question');
    expect(first.body.answer.status).toBe('streaming');
    expect(second.body.answer.status).toBe('pending');
    const a = await tab.finalOf(first.body.answer.uuid);
    const b = await tab.finalOf(second.body.answer.uuid);
    expect(a).toMatchObject({ status: 'complete', message: 'one two three four five' });
    expect(b).toMatchObject({ status: 'complete', message: 'one two three four five' });
    expect(Date.parse(b.updated_at)).toBeGreaterThanOrEqual(Date.parse(a.updated_at));
  });

  it('renews the lease of an answer while it streams', async () => {
    const fake = await startFakeOpenAI({
      models: ['slow-chat'],
      reply: 'a b c d e f g h i j',
      chunkDelayMs: 80,
    });
    cleanups.push(() => fake.close());
    const t = await started({}, { answer: { leaseCheckMs: 50 } });
    const owner = await t.signUp();
    const app = await providerApplication(t, owner.token, fake);
    const tab = await openChatSocket(t.url, owner.token);
    cleanups.push(async () => tab.close());

    const res = await ask(t, owner, app, 'A slow question');
    const leaseOf = async () =>
      (
        await t.database.query<{ lease: Date | null }>(
          'SELECT lease_until AS lease FROM messages WHERE uuid = $1',
          [res.body.answer.uuid],
        )
      ).rows[0]!.lease;
    const firstLease = await leaseOf();
    expect(firstLease).not.toBeNull();
    await waitFor(async () => new Date((await leaseOf()) ?? 0).getTime() > new Date(firstLease!).getTime());
    expect(await tab.finalOf(res.body.answer.uuid)).toMatchObject({ status: 'complete' });
    expect(await leaseOf()).toBeNull();
  });

  it('starts again, as a new run, an answer whose process died (lease run out), with an event', async () => {
    const t = await started({}, { answer: { leaseCheckMs: 50 } });
    const owner = await t.signUp();
    const app = await newApplication(t, owner.token);
    const tab = await openChatSocket(t.url, owner.token);
    cleanups.push(async () => tab.close());
    const question = await ask(t, owner, app, 'What is the warranty of the X200?');
    await tab.finalOf(question.body.answer.uuid);
    // What a process killed mid-answer leaves behind: a streaming answer nobody renews.
    const { rows } = await t.database.query<{ uuid: string }>(
      `INSERT INTO messages (chatroom_id, sender_identifier, message, status, run, lease_until, metadata)
       SELECT id, 'assistant', 'Half an ans', 'streaming', 2, now() - interval '1 second',
              jsonb_build_object('reply_to', $2::text)
       FROM chatrooms WHERE uuid = $1 RETURNING uuid`,
      [question.body.chatroom.uuid, question.body.message.uuid],
    );
    const answer = await tab.finalOf(rows[0]!.uuid);
    expect(answer).toMatchObject({
      status: 'complete',
      run: 3,
      message: NOT_COVERED_ANSWER,
      metadata: { reply_to: question.body.message.uuid, resumes: 1 },
    });
    // Clients saw the answer restart in place: an empty new run before its text.
    const restarted = tab.events.find(
      (e) => e.kind === 'updated' && e.message.uuid === rows[0]!.uuid && e.message.run === 3,
    );
    expect(restarted).toMatchObject({ message: { status: 'pending', message: '' } });
  });

  it('gives up, as failed with a reason, an answer whose process died too many times', async () => {
    const t = await started({}, { answer: { leaseCheckMs: 50 } });
    const owner = await t.signUp();
    const app = await newApplication(t, owner.token);
    const tab = await openChatSocket(t.url, owner.token);
    cleanups.push(async () => tab.close());
    const question = await ask(t, owner, app, 'A question');
    await tab.finalOf(question.body.answer.uuid);
    const { rows } = await t.database.query<{ uuid: string }>(
      `INSERT INTO messages (chatroom_id, sender_identifier, message, status, lease_until, metadata)
       SELECT id, 'assistant', 'Half an ans', 'streaming', now() - interval '1 second',
              jsonb_build_object('resumes', $2::int)
       FROM chatrooms WHERE uuid = $1 RETURNING uuid`,
      [question.body.chatroom.uuid, MAX_ANSWER_RESUMES],
    );
    expect(await tab.finalOf(rows[0]!.uuid)).toMatchObject({
      status: 'failed',
      message: 'Half an ans',
      metadata: { error: INTERRUPTED_ERROR, error_kind: 'interrupted' },
    });
  });
});

describe('graceful drain', () => {
  async function slowSetup(chunkDelayMs: number) {
    const fake = await startFakeOpenAI({
      models: ['slow-chat'],
      reply: 'w '.repeat(20).trim(),
      chunkDelayMs,
    });
    cleanups.push(() => fake.close());
    const t = await startTestApp();
    const owner = await t.signUp();
    const app = await providerApplication(t, owner.token, fake);
    const tab = await openChatSocket(t.url, owner.token);
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) answers.push((await ask(t, owner, app, `Question ${i}`)).body.answer.uuid);
    await waitFor(() => answers.every((uuid) => tab.streamedText(uuid).length > 0));
    return { t, tab, answers, owner };
  }

  it('lets the answers under way finish, refusing new requests meanwhile', async () => {
    const { t, tab, answers } = await slowSetup(30);
    const drained = t.app.lifecycle.drain(30_000);
    const health = await fetch(`${t.url}/api/health/`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'draining' });
    const refused = await fetch(`${t.url}/api/me/`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ code: 'unavailable' });
    const page = await fetch(`${t.url}/applications`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Cairn is restarting');
    await drained;
    for (const uuid of answers) {
      expect(await tab.finalOf(uuid)).toMatchObject({
        status: 'complete',
        run: 0,
        message: 'w '.repeat(20).trim(),
      });
    }
    tab.close();
    await t.close();
  });

  it('hands back, as new pending runs, the answers still running when the time is up', async () => {
    const { t, tab, answers } = await slowSetup(400);
    await t.app.lifecycle.drain(0);
    await waitFor(() =>
      answers.every((uuid) =>
        tab.events.some((e) => e.kind === 'updated' && e.message.uuid === uuid && e.message.run === 1),
      ),
    );
    const { rows } = await t.database.query<{ status: string; run: number; message: string }>(
      'SELECT status, run, message FROM messages WHERE uuid = ANY($1::uuid[])',
      [answers],
    );
    expect(rows).toEqual(answers.map(() => ({ status: 'pending', run: 1, message: '' })));
    tab.close();
    await t.close();
  });
});
