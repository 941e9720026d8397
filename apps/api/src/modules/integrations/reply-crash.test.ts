import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { providerApplication } from '../../testing/answer-fleet.ts';
import { startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startFakeSlack } from '../../testing/fake-slack-server.ts';
import { freePort, signUpOverHttp, startServer, waitHealthy } from '../../testing/server-process.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { slackSignature } from './slack-signature.ts';

/**
 * A Slack reply whose process is killed (SIGKILL) while its answer streams is posted once, complete,
 * by the restarted process: the reply job's heartbeat goes stale, pg-boss retries it within about a
 * minute (not at its 15-minute expiry), and the re-run posts the answer the resumed run completed.
 */
const BOT_TOKEN = 'xoxb-3333-4444-crashcrashcr';
const SIGNING_SECRET = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  while (cleanups.length) await cleanups.pop()!();
});

it('a Slack reply cut by kill -9 is posted once, whole, after the restart', {
  timeout: 420_000,
}, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-reply-crash-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Each word 200 ms apart: the answer streams for about eight seconds.
  const model = await startFakeOpenAI({ models: ['slow-chat'], chunkDelayMs: 200, reply: () => ANSWER });
  cleanups.push(() => model.close());
  const slack = await startFakeSlack();
  cleanups.push(() => slack.close());
  slack.tokens.set(BOT_TOKEN, { user_id: 'UBOT', user: 'cairn', team: 'Acme' });

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serve = async () => {
    const server = startServer(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        ALLOW_PRIVATE_URLS: 'true',
        SECRET_KEY: 'reply-crash-test-secret-key-0123456789ab',
        SLACK_API_URL: slack.url,
        PUBLIC_URL: base,
        PORT: String(port),
      },
      children,
    );
    // Slow on a loaded machine: tsx compiles the server, and PGlite makes a new data dir.
    await waitHealthy(port, server.exited, 150_000);
    return server;
  };

  const first = await serve();
  const user = await signUpOverHttp(base, dataDir, 'slack-crash@example.com');
  const headers = { authorization: `Token ${user.token}`, 'content-type': 'application/json' };
  const app = await providerApplication(base, user.token, model.url);
  const created = await fetch(`${base}/api/integrations/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      kind: 'slack',
      application_uuid: app,
      bot_token: BOT_TOKEN,
      signing_secret: SIGNING_SECRET,
    }),
  });
  expect(created.status).toBe(201);
  const integration = (await created.json()) as { events_url: string };

  const threadTs = '1700009000.000100';
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: 'T1',
    api_app_id: 'A1',
    event_id: 'EvCrash1',
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'app_mention',
      user: 'U42',
      text: '<@UBOT> Tell me everything',
      ts: threadTs,
      channel: 'C7',
      event_ts: threadTs,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const accepted = await fetch(integration.events_url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
    body,
  });
  expect(accepted.status).toBe(200);

  // The answer is streaming (the model was asked): the process dies mid-answer.
  await waitFor(() => model.requests.some((r) => r.path.endsWith('/chat/completions')), {
    timeoutMs: 60_000,
    what: 'the model asked',
  });
  first.child.kill('SIGKILL');
  await first.exited;
  expect(slack.messages.filter((m) => m.thread_ts === threadTs)).toHaveLength(0);

  await serve();
  const [reply] = await waitFor(() => slack.messages.filter((m) => m.thread_ts === threadTs), {
    until: (posted) => posted.length > 0,
    timeoutMs: 240_000,
    what: 'the reply posted in the thread after the restart',
  });
  expect(reply!.text).toContain('word0');
  expect(reply!.text).toContain('word39');
  // Nothing proves that no second post will ever come: a while longer, there is still one.
  await new Promise((r) => setTimeout(r, 3000));
  expect(slack.messages.filter((m) => m.thread_ts === threadTs)).toHaveLength(1);
});
