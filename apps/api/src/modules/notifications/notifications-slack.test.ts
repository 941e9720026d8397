import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../testing/fake-slack-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { deliverNotificationSlack, SlackPostError } from './deliver-slack.ts';

/** The Slack channel: a notification posted through the owner's Slack integration, to a real (fake) Slack. */

const BOT_TOKEN = 'xoxb-notify-1';
let t: TestApp;
let slack: FakeSlack;
let owner: { token: string; user: { id: number } };
let other: { token: string; user: { id: number } };
let appUuid: string;
let integrationUuid: string;
let othersIntegration: string;

async function connectSlack(token: string, botToken: string) {
  const created = await t.call('POST', '/api/applications/', { token, json: { name: 'Helpdesk' } });
  const res = await t.call('POST', '/api/integrations/', {
    token,
    json: {
      kind: 'slack',
      application_uuid: created.body.uuid,
      bot_token: botToken,
      signing_secret: 's'.repeat(32),
    },
  });
  expect(res.status).toBe(201);
  return { app: created.body.uuid as string, integration: res.body.uuid as string };
}

beforeAll(async () => {
  slack = await startFakeSlack();
  slack.tokens.set(BOT_TOKEN, { user_id: 'UBOT', user: 'cairn', team: 'Acme' });
  slack.tokens.set('xoxb-other', { user_id: 'UBOT2', user: 'other', team: 'Other' });
  t = await startTestApp({ slackApiUrl: slack.url });
  owner = await t.signUp();
  other = await t.signUp();
  ({ app: appUuid, integration: integrationUuid } = await connectSlack(owner.token, BOT_TOKEN));
  othersIntegration = (await connectSlack(other.token, 'xoxb-other')).integration;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await slack?.close();
});

describe('Slack notifications', () => {
  const withSlack = (slackTarget: unknown) => ({
    ...DEFAULT_NOTIFICATION_PROFILE,
    events: { ...DEFAULT_NOTIFICATION_PROFILE.events, knowledge_failed: ['slack'] },
    slack: slackTarget,
  });

  it('refuses another owner’s integration and a malformed channel', async () => {
    const theirs = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack({ integration_uuid: othersIntegration, channel: 'C0123' }),
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body.errors).toEqual({
      'slack.integration_uuid': ['Must be the uuid of one of your Slack integrations'],
    });
    const channel = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack({ integration_uuid: integrationUuid, channel: 'not a channel' }),
    });
    expect(channel.status).toBe(400);
    expect(Object.keys(channel.body.errors)).toEqual(['slack.channel']);
  });

  it('posts an event set to Slack in the chosen channel, with its link', async () => {
    const saved = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack({ integration_uuid: integrationUuid, channel: '#support' }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.slack).toEqual({ integration_uuid: integrationUuid, channel: '#support' });
    expect(saved.body.events.knowledge_failed).toEqual(['slack']);

    const since = slack.calls.length;
    const form = new FormData();
    form.append('items[0].type', 'url');
    form.append('items[0].value', 'http://127.0.0.1:1/closed');
    expect(
      (await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token: owner.token, form })).status,
    ).toBe(201);
    const posted = await slack.waitFor('chat.postMessage', since, 15_000);
    expect(posted.token).toBe(BOT_TOKEN);
    expect(posted.args.channel).toBe('support');
    expect(posted.args.text).toMatch(
      /^\*A knowledge item could not be indexed: http:\/\/127\.0\.0\.1:1\/closed\*\nUnreachable/,
    );
    expect(posted.args.text).toContain(`<${t.url}/applications/${appUuid}/knowledge-base|Open in Cairn>`);
    // Only the channels asked for: no e-mail for it now, and not in the bell.
    expect(t.outbox().filter((m) => m.subject.startsWith('A knowledge item'))).toEqual([]);
    const bell = await t.call('GET', '/api/notifications/', { token: owner.token });
    expect(bell.body).toEqual({ unread_count: 0, results: [] });
  });

  it('a job run again after Slack took its post finds it in the named channel and posts nothing more', async () => {
    await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack({ integration_uuid: integrationUuid, channel: '#alerts' }),
    });
    const { rows } = await t.database.query<{ id: number; uuid: string }>(
      `INSERT INTO notifications (owner_id, event, title, body)
       VALUES ($1, 'knowledge_failed', 'A knowledge item could not be indexed: x.pdf', 'Unreadable')
       RETURNING id, uuid`,
      [owner.user.id],
    );
    const notification = rows[0]!;
    const posts = () => slack.messages.filter((m) => m.metadata?.event_payload.id === notification.uuid);
    // Slack takes the post, and the answer is lost (the process died before it marked the job done).
    slack.loseNextAnswer('chat.postMessage');
    await expect(deliverNotificationSlack(t.app, notification.id, false)).rejects.toThrow(SlackPostError);
    expect(posts()).toHaveLength(1);

    // Read page by page: the channel's ID from the bot's channels (#support is there too), then its history.
    slack.pageSize = 1;
    const since = slack.calls.length;
    try {
      expect(await deliverNotificationSlack(t.app, notification.id, true)).toBe(true);
    } finally {
      slack.pageSize = 1000;
    }
    const calls = slack.calls.slice(since);
    expect(calls.map((c) => c.method)).not.toContain('chat.postMessage');
    const names = calls.filter((c) => c.method === 'users.conversations');
    expect(names.map((c) => c.args.cursor)).toEqual([undefined, '1']);
    const history = calls.filter((c) => c.method === 'conversations.history');
    expect(history[0]!.args).toMatchObject({ channel: posts()[0]!.channel, include_all_metadata: 'true' });
    // Only since the notification was recorded (less Slack's clock margin), not the channel's whole past.
    expect(Number(history[0]!.args.oldest)).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.metadata!.event_type).toBe('cairn_notification');

    // An app installed without the history scopes: a first run posts once and reads nothing; a
    // re-run cannot look, and posts rather than fails.
    slack.withoutHistory.add(BOT_TOKEN);
    try {
      const { rows: more } = await t.database.query<{ id: number; uuid: string }>(
        `INSERT INTO notifications (owner_id, event, title) VALUES ($1, 'knowledge_failed', 'Another') RETURNING id, uuid`,
        [owner.user.id],
      );
      const first = slack.calls.length;
      expect(await deliverNotificationSlack(t.app, more[0]!.id, false)).toBe(true);
      expect(slack.calls.slice(first).map((c) => c.method)).toEqual(['chat.postMessage']);
      expect(await deliverNotificationSlack(t.app, more[0]!.id, true)).toBe(true);
      expect(slack.calls.slice(first).map((c) => c.method)).toEqual([
        'chat.postMessage',
        'users.conversations',
        'chat.postMessage',
      ]);
    } finally {
      slack.withoutHistory.delete(BOT_TOKEN);
    }
  });

  it('"send a test to Slack" posts at once to the chosen channel; without one it says what to do', async () => {
    const none = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack(null),
    });
    expect(none.status).toBe(200);
    const refused = await t.call('POST', '/api/notifications/test/', {
      token: owner.token,
      json: { channel: 'slack' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe('Choose a Slack bot and a channel, and save, first.');

    await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: withSlack({ integration_uuid: integrationUuid, channel: 'C0TEST' }),
    });
    const since = slack.calls.length;
    const sent = await t.call('POST', '/api/notifications/test/', {
      token: owner.token,
      json: { channel: 'slack' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ channel: 'slack', sent_to: 'slack' });
    const posted = await slack.waitFor('chat.postMessage', since, 5_000);
    expect(posted.args.channel).toBe('C0TEST');
    expect(posted.args.text).toMatch(/^\*Test message from Cairn\*/);

    // Slack refusing the post is a clear 503, not a crash.
    slack.failNext('chat.postMessage', 'channel_not_found');
    const failed = await t.call('POST', '/api/notifications/test/', {
      token: owner.token,
      json: { channel: 'slack' },
    });
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toContain('channel_not_found');
  });
});
