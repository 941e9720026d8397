import { integrationEvents } from '@cairn/db/schema';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, conversationsOf } from '../../testing/chat-fixtures.ts';
import { type FakeSlack, startFakeSlack } from '../../testing/fake-slack-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { REPLY_QUEUE, type ReplyJob } from './reply-job.ts';
import { sendReply } from './send-reply.ts';
import { slackSignature } from './slack-signature.ts';

const BOT_TOKEN = 'xoxb-1111-2222-abcdefghijkl';
const SIGNING_SECRET = 'a3f9c2e8b1d7f4a6c0e5b9d2f8a1c7e3';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.',
};

let t: TestApp;
let slack: FakeSlack;
let owner: { token: string };
let other: { token: string };
let appA: { uuid: string; items: string[] };
let integration: { uuid: string; events_url: string; interactivity_url: string; manifest: string };

const now = () => String(Math.floor(Date.now() / 1000));

/** Posts `body` to an inbound Slack URL as Slack would: signed with the secret (or as told). */
async function slackPost(
  url: string,
  body: string,
  opts: {
    secret?: string;
    timestamp?: string;
    signature?: string | null;
    type?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const timestamp = opts.timestamp ?? now();
  const signature =
    opts.signature === null
      ? undefined
      : (opts.signature ?? slackSignature(opts.secret ?? SIGNING_SECRET, timestamp, body));
  const res = await fetch(url.replace(t.config.publicUrl, t.url), {
    method: 'POST',
    headers: {
      'content-type': opts.type ?? 'application/json',
      'x-slack-request-timestamp': timestamp,
      ...(signature && { 'x-slack-signature': signature }),
      ...opts.headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const mention = (eventId: string, text: string, ts: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    token: 'ignored',
    team_id: 'T1',
    api_app_id: 'A1',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: 'app_mention', user: 'U42', text, ts, channel: 'C7', event_ts: ts, ...extra },
  });

beforeAll(async () => {
  slack = await startFakeSlack();
  slack.tokens.set(BOT_TOKEN, { user_id: 'UBOT', user: 'cairn', team: 'Acme' });
  t = await startTestApp({ slackApiUrl: slack.url });
  owner = await t.signUp();
  other = await t.signUp();
  appA = await applicationWith(t, owner.token, [WARRANTY]);
});
afterAll(async () => {
  await t?.close();
  await slack?.close();
});

describe('Slack integrations API', () => {
  it('documents every integration operation in the OpenAPI document', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const ops = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(ops('/api/integrations/')).toEqual(['get', 'post']);
    expect(ops('/api/integrations/{integrationId}/')).toEqual(['delete', 'get', 'patch']);
    expect(ops('/api/integrations/slack/{integrationId}/events/')).toEqual(['post']);
    expect(ops('/api/integrations/slack/{integrationId}/interactions/')).toEqual(['post']);
    expect(ops('/api/integrations/telegram/{integrationId}/updates/')).toEqual(['post']);
  });

  it('checks the token with auth.test, stores the secrets encrypted and returns the events URL and a manifest', async () => {
    const res = await t.call('POST', '/api/integrations/', {
      token: owner.token,
      json: {
        kind: 'slack',
        application_uuid: appA.uuid,
        bot_token: BOT_TOKEN,
        signing_secret: SIGNING_SECRET,
      },
    });
    expect(res.status).toBe(201);
    integration = res.body;
    expect(res.body).toMatchObject({
      kind: 'slack',
      application_uuid: appA.uuid,
      status: 'connected',
      bot_name: 'cairn',
      last_event_at: null,
      last_error: null,
      events_url: `${t.config.publicUrl}/api/integrations/slack/${res.body.uuid}/events/`,
      interactivity_url: `${t.config.publicUrl}/api/integrations/slack/${res.body.uuid}/interactions/`,
    });
    expect(JSON.stringify(res.body)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(res.body)).not.toContain(SIGNING_SECRET);
    const manifest = JSON.parse(res.body.manifest);
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['app_mentions:read', 'chat:write', 'im:history', 'im:read']),
    );
    // A retried post reads the thread or channel for its earlier self (decision 073).
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['channels:history', 'groups:history', 'channels:read', 'groups:read']),
    );
    expect(manifest.settings.event_subscriptions).toEqual({
      request_url: res.body.events_url,
      bot_events: ['app_mention', 'message.im'],
    });
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: res.body.interactivity_url,
    });
    expect(slack.calls.find((c) => c.method === 'auth.test')?.token).toBe(BOT_TOKEN);

    const { rows } = await t.database.query<{
      bot_token_ciphertext: string;
      signing_secret_ciphertext: string;
    }>('SELECT bot_token_ciphertext, signing_secret_ciphertext FROM integrations WHERE uuid = $1', [
      res.body.uuid,
    ]);
    expect(rows[0]!.bot_token_ciphertext).toMatch(/^v1\./);
    expect(rows[0]!.bot_token_ciphertext).not.toContain(BOT_TOKEN);
    expect(rows[0]!.signing_secret_ciphertext).not.toContain(SIGNING_SECRET);

    const list = await t.call('GET', '/api/integrations/', { token: owner.token });
    expect(list.body.map((i: { uuid: string }) => i.uuid)).toEqual([integration.uuid]);
    expect(
      (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token })).body.uuid,
    ).toBe(integration.uuid);
  });

  it("refuses a token Slack refuses, bad fields, and another user's application or integration", async () => {
    const bad = await t.call('POST', '/api/integrations/', {
      token: owner.token,
      json: {
        kind: 'slack',
        application_uuid: appA.uuid,
        bot_token: 'xoxb-0-wrong',
        signing_secret: SIGNING_SECRET,
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ bot_token: ['Slack does not accept this token (invalid_auth).'] });

    // Slack out of reach: a 503 saying so, and nothing stored.
    t.config.slackApiUrl = 'http://127.0.0.1:9';
    try {
      const down = await t.call('POST', '/api/integrations/', {
        token: owner.token,
        json: {
          kind: 'slack',
          application_uuid: appA.uuid,
          bot_token: BOT_TOKEN,
          signing_secret: SIGNING_SECRET,
        },
      });
      expect(down.status).toBe(503);
      expect(down.body).toEqual({
        detail: expect.stringMatching(/^Slack could not be reached: .*[^.]\. Try again later\.$/),
        code: 'unavailable',
      });
    } finally {
      t.config.slackApiUrl = slack.url;
    }
    expect((await t.call('GET', '/api/integrations/', { token: owner.token })).body).toHaveLength(1);

    const fields = await t.call('POST', '/api/integrations/', {
      token: owner.token,
      json: {
        kind: 'slack',
        application_uuid: appA.uuid,
        bot_token: 'xoxp-user\u0000',
        signing_secret: 'short',
        extra: 1,
      },
    });
    expect(fields.status).toBe(400);
    expect(Object.keys(fields.body.errors)).toEqual(expect.arrayContaining(['bot_token', 'signing_secret']));
    const kind = await t.call('POST', '/api/integrations/', {
      token: owner.token,
      json: { kind: 'discord', application_uuid: appA.uuid, bot_token: BOT_TOKEN },
    });
    expect(kind.status).toBe(400);

    const foreign = await t.call('POST', '/api/integrations/', {
      token: other.token,
      json: {
        kind: 'slack',
        application_uuid: appA.uuid,
        bot_token: BOT_TOKEN,
        signing_secret: SIGNING_SECRET,
      },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ application_uuid: ['No such application.'] });
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.call(method, `/api/integrations/${integration.uuid}/`, {
        token: other.token,
        ...(method === 'PATCH' && { json: { signing_secret: SIGNING_SECRET } }),
      });
      expect(res.status).toBe(404);
    }
    expect((await t.call('GET', '/api/integrations/', { token: other.token })).body).toEqual([]);
    expect((await t.call('GET', '/api/integrations/', {})).status).toBe(401);
  });
});

describe('Slack events URL', () => {
  it('answers a signed url_verification with its challenge', async () => {
    const res = await slackPost(
      integration.events_url,
      JSON.stringify({
        token: 'x',
        challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
        type: 'url_verification',
      }),
    );
    expect(res).toEqual({
      status: 200,
      body: { challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' },
    });
  });

  it('refuses unsigned, stale, tampered and wrongly signed requests, and unknown integrations', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    const unsigned = await slackPost(integration.events_url, body, { signature: null });
    expect(unsigned).toEqual({
      status: 401,
      body: { detail: 'The request is not signed.', code: 'unauthorized' },
    });
    const old = String(Math.floor(Date.now() / 1000) - 301);
    expect((await slackPost(integration.events_url, body, { timestamp: old })).status).toBe(401);
    const signed = slackSignature(SIGNING_SECRET, now(), body);
    const tampered = await slackPost(integration.events_url, body.replace('"c"', '"d"'), {
      signature: signed,
    });
    expect(tampered).toEqual({
      status: 401,
      body: { detail: 'The request signature does not match.', code: 'unauthorized' },
    });
    expect((await slackPost(integration.events_url, body, { secret: 'b'.repeat(32) })).status).toBe(401);
    const unknown = integration.events_url.replace(integration.uuid, '6f1c2b1e-8d4a-4c2e-9b7f-3a5d9e0c1b2a');
    expect((await slackPost(unknown, body)).status).toBe(404);
    expect((await slackPost(integration.events_url, 'not json')).status).toBe(400);
  });

  it('answers a mention in its thread with cited sources and feedback buttons, once even when Slack retries', async () => {
    const since = slack.calls.length;
    const body = mention('Ev01', '<@UBOT> How long is the warranty of the X200?', '1700000001.000200');
    const started = Date.now();
    const first = await slackPost(integration.events_url, body);
    expect(first).toEqual({ status: 200, body: { ok: true } });
    expect(Date.now() - started).toBeLessThan(3000);
    // Slack retries (it did not see our answer in time): acknowledged, not answered again.
    const retry = await slackPost(integration.events_url, body, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retry).toEqual({ status: 200, body: { ok: true } });

    const posted = await slack.waitFor('chat.postMessage', since);
    expect(posted.token).toBe(BOT_TOKEN);
    expect(posted.args).toMatchObject({ channel: 'C7', thread_ts: '1700000001.000200' });
    expect(String(posted.args.text)).toContain('three-year warranty');
    expect(String(posted.args.text)).toContain('[1]');
    const blocks = posted.args.blocks as Array<{ type: string; elements?: Array<Record<string, unknown>> }>;
    const context = blocks.find((b) => b.type === 'context');
    expect(JSON.stringify(context)).toContain('[1] X200 manual');
    const actions = blocks.find((b) => b.type === 'actions')!;
    expect(actions.elements!.map((e) => e.action_id)).toEqual(['cairn_feedback_up', 'cairn_feedback_down']);

    await new Promise((r) => setTimeout(r, 500));
    expect(slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    const [events] = await t.app.db
      .select({ n: count() })
      .from(integrationEvents)
      .where(eq(integrationEvents.eventId, 'Ev01'));
    expect(events!.n).toBe(1);

    // The thread is a chatroom of the application with source slack, holding question and answer.
    const rooms = await conversationsOf(t, appA.uuid);
    const room = rooms.find((r) => r.source === 'slack')!;
    const messages = (
      await t.call('GET', `/api/applications/${appA.uuid}/chatrooms/${room.uuid}/messages/`, {
        token: owner.token,
      })
    ).body.messages as Array<{
      uuid: string;
      message: string;
      sender_identifier: string;
      feedback: string | null;
    }>;
    expect(messages.map((m) => m.sender_identifier)).toEqual(['slack_U42', 'assistant']);
    expect(messages[0]!.message).toBe('How long is the warranty of the X200?');
    const answer = messages[1]!;
    expect(actions.elements![0]!.value).toBe(answer.uuid);

    // A reply in the same thread continues the same chatroom.
    const next = slack.calls.length;
    await slackPost(
      integration.events_url,
      mention('Ev02', '<@UBOT> Do I need to register the device?', '1700000005.000100', {
        thread_ts: '1700000001.000200',
      }),
    );
    expect((await slack.waitFor('chat.postMessage', next)).args.thread_ts).toBe('1700000001.000200');
    const after = await conversationsOf(t, appA.uuid);
    expect(after.filter((r: { source: string }) => r.source === 'slack')).toHaveLength(1);

    // 👎 from the buttons: the feedback is stored on the answer.
    const payload = {
      type: 'block_actions',
      user: { id: 'U42' },
      channel: { id: 'C7' },
      container: { type: 'message', thread_ts: '1700000001.000200' },
      actions: [
        { action_id: 'cairn_feedback_down', block_id: 'cairn_feedback', value: answer.uuid, type: 'button' },
      ],
    };
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const unsigned = await slackPost(integration.interactivity_url, form, {
      type: 'application/x-www-form-urlencoded',
      signature: null,
    });
    expect(unsigned.status).toBe(401);
    const clicked = await slackPost(integration.interactivity_url, form, {
      type: 'application/x-www-form-urlencoded',
    });
    expect(clicked).toEqual({ status: 200, body: { ok: true } });
    const rated = (
      await t.call('GET', `/api/applications/${appA.uuid}/chatrooms/${room.uuid}/messages/`, {
        token: owner.token,
      })
    ).body.messages as Array<{ uuid: string; feedback: string | null }>;
    expect(rated.find((m) => m.uuid === answer.uuid)!.feedback).toBe('down');

    const shown = (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token }))
      .body;
    expect(shown.last_event_at).not.toBeNull();
    expect(shown.status).toBe('connected');
  });

  it('answers a direct message, and ignores bot messages, edits and other events', async () => {
    const since = slack.calls.length;
    const dm = (eventId: string, event: Record<string, unknown>) =>
      JSON.stringify({
        type: 'event_callback',
        event_id: eventId,
        event: { channel: 'D9', channel_type: 'im', ts: '1700000100.000100', ...event },
      });
    await slackPost(
      integration.events_url,
      dm('Ev10', { type: 'message', bot_id: 'B1', user: 'UBOT', text: 'my own answer' }),
    );
    await slackPost(
      integration.events_url,
      dm('Ev11', { type: 'message', subtype: 'message_changed', user: 'U42', text: 'edited' }),
    );
    await slackPost(integration.events_url, dm('Ev12', { type: 'reaction_added', user: 'U42' }));
    await slackPost(
      integration.events_url,
      dm('Ev13', { type: 'message', user: 'U42', text: 'What does the warranty cover?' }),
    );
    const posted = await slack.waitFor('chat.postMessage', since);
    expect(posted.args).toMatchObject({ channel: 'D9', thread_ts: '1700000100.000100' });
    expect(String(posted.args.text)).toContain('parts and labour');
    await new Promise((r) => setTimeout(r, 300));
    expect(slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
  });

  it('records a reply Slack refuses as the last error, and connects again after the next success', async () => {
    slack.failNext('chat.postMessage', 'channel_not_found');
    const since = slack.calls.length;
    await slackPost(integration.events_url, mention('Ev20', '<@UBOT> Warranty?', '1700000200.000100'));
    const refused = await slack.waitFor('chat.postMessage', since);
    const shownOnce = async (status: string) => {
      let shown = (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token }))
        .body;
      for (let i = 0; i < 100 && shown.status !== status; i++) {
        await new Promise((r) => setTimeout(r, 50));
        shown = (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token })).body;
      }
      return shown;
    };
    const failed = await shownOnce('error');
    expect(failed).toMatchObject({ status: 'error', last_error: 'Slack answered: channel_not_found.' });
    expect(failed.last_error_at).not.toBeNull();

    // The queue retries the job (5 s later) and posts the answer it already has: connected again,
    // the last failure still shown with its time.
    const retried = await slack.waitFor('chat.postMessage', slack.calls.indexOf(refused) + 1, 20_000);
    expect(retried.args).toMatchObject({
      channel: 'C7',
      thread_ts: '1700000200.000100',
      text: refused.args.text,
    });
    expect(await shownOnce('connected')).toMatchObject({
      status: 'connected',
      last_error: failed.last_error,
      last_error_at: failed.last_error_at,
    });
  });
});

describe('a reply job run again after Slack took its post (decision 073)', () => {
  /** The reply job of a thread once pg-boss settled it (completed or given up). */
  async function settledJob(threadKey: string): Promise<{ state: string; data: ReplyJob }> {
    for (let i = 0; i < 300; i++) {
      const { rows } = await t.database.query<{ state: string; data: ReplyJob }>(
        "SELECT state, data FROM pgboss.job WHERE name = $1 AND data->>'threadKey' = $2",
        [REPLY_QUEUE, threadKey],
      );
      if (rows[0] && ['completed', 'failed'].includes(rows[0].state)) return rows[0];
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the reply job of ${threadKey} never settled`);
  }
  const inThread = (threadTs: string) => slack.messages.filter((m) => m.thread_ts === threadTs);
  const postsSince = (since: number) =>
    slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage');

  it('finds the post whose answer was lost in the thread, page by page, and posts nothing more', async () => {
    const threadTs = '1700000300.000100';
    // The thread already holds the question and a person's reply: the bot's post is on the third page.
    slack.messages.push(
      { channel: 'C7', ts: threadTs, text: '<@UBOT> Is the warranty transferable?' },
      { channel: 'C7', ts: '1700000301.000100', thread_ts: threadTs, text: 'good question' },
    );
    slack.pageSize = 1;
    slack.loseNextAnswer('chat.postMessage');
    const since = slack.calls.length;
    try {
      await slackPost(integration.events_url, mention('Ev30', '<@UBOT> Warranty?', threadTs));
      const job = await settledJob(`C7:${threadTs}`);
      expect(job.state).toBe('completed');
    } finally {
      slack.pageSize = 1000;
    }
    const reads = slack.calls.slice(since).filter((c) => c.method === 'conversations.replies');
    expect(reads.map((c) => c.args.cursor)).toEqual([undefined, '1', '2']);
    expect(reads[0]!.args).toMatchObject({ channel: 'C7', ts: threadTs, include_all_metadata: 'true' });
    expect(postsSince(since)).toHaveLength(1);
    const posted = inThread(threadTs).filter((m) => m.metadata);
    expect(posted).toHaveLength(1);
    const answerUuid = (await settledJob(`C7:${threadTs}`)).data.answerUuid;
    expect(posted[0]!.metadata).toEqual({ event_type: 'cairn_reply', event_payload: { id: answerUuid } });
    const shown = (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token }))
      .body;
    expect(shown.status).toBe('connected');
  });

  it('run twice in a row, posts once; a first run never reads the thread', async () => {
    const threadTs = '1700000100.000100'; // the direct message answered above, through the queue
    const { data } = await settledJob(`D9:${threadTs}`);
    expect(inThread(threadTs)).toHaveLength(1);
    const since = slack.calls.length;
    await sendReply(t.app, data, true);
    expect(postsSince(since)).toHaveLength(0);
    expect(slack.calls.slice(since).map((c) => c.method)).toEqual(['conversations.replies']);
    expect(inThread(threadTs)).toHaveLength(1);
  });

  it('an app installed without the history scopes answers once, and a re-run posts rather than fails', async () => {
    slack.withoutHistory.add(BOT_TOKEN);
    try {
      const threadTs = '1700000400.000100';
      const since = slack.calls.length;
      await slackPost(integration.events_url, mention('Ev40', '<@UBOT> Warranty?', threadTs));
      const { state, data } = await settledJob(`C7:${threadTs}`);
      expect(state).toBe('completed');
      expect(inThread(threadTs)).toHaveLength(1);
      expect(slack.calls.slice(since).map((c) => c.method)).not.toContain('conversations.replies');

      // A re-run cannot look (missing_scope): it posts, as before this decision, and the bot stays connected.
      const rerun = slack.calls.length;
      await sendReply(t.app, data, true);
      expect(slack.calls.slice(rerun).map((c) => c.method)).toEqual([
        'conversations.replies',
        'chat.postMessage',
      ]);
      expect(inThread(threadTs)).toHaveLength(2);
      const shown = (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token }))
        .body;
      expect(shown.status).toBe('connected');
    } finally {
      slack.withoutHistory.delete(BOT_TOKEN);
    }
  });
});

describe('changing and deleting', () => {
  it('replaces the signing secret (the old one stops verifying) and deletes (the URLs stop answering)', async () => {
    const newSecret = 'Z'.repeat(32);
    const patched = await t.call('PATCH', `/api/integrations/${integration.uuid}/`, {
      token: owner.token,
      json: { signing_secret: newSecret },
    });
    expect(patched.status).toBe(200);
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    expect((await slackPost(integration.events_url, body)).status).toBe(401);
    expect((await slackPost(integration.events_url, body, { secret: newSecret })).status).toBe(200);
    expect(
      (await t.call('PATCH', `/api/integrations/${integration.uuid}/`, { token: owner.token, json: {} }))
        .status,
    ).toBe(400);
    expect(
      (
        await t.call('PATCH', `/api/integrations/${integration.uuid}/`, {
          token: owner.token,
          json: { bot_token: 'xoxb-0-wrong' },
        })
      ).body.errors,
    ).toEqual({ bot_token: ['Slack does not accept this token (invalid_auth).'] });

    // A secret that no longer opens (sealed for another purpose, as after a SECRET_KEY change): refused, and said.
    await t.database.query(
      'UPDATE integrations SET signing_secret_ciphertext = bot_token_ciphertext WHERE uuid = $1',
      [integration.uuid],
    );
    expect((await slackPost(integration.events_url, body, { secret: newSecret })).status).toBe(401);
    expect(
      (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token })).body,
    ).toMatchObject({
      status: 'error',
      last_error: expect.stringContaining('cannot decrypt'),
    });

    expect(
      (await t.call('DELETE', `/api/integrations/${integration.uuid}/`, { token: owner.token })).status,
    ).toBe(204);
    expect((await slackPost(integration.events_url, body, { secret: newSecret })).status).toBe(404);
    expect(
      (await t.call('GET', `/api/integrations/${integration.uuid}/`, { token: owner.token })).status,
    ).toBe(404);
  });
});
