import type { TAnalytics } from '@cairn/contracts/analytics';
import type { TMessage } from '@cairn/contracts/chat';
import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import type { TWidgetBoot } from '@cairn/contracts/widget';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, useProviderModel } from '../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { ChatroomRow } from '../chatrooms/serialize-chat.ts';
import { localDate } from '../notifications/owner-time-zone.ts';
import { countConversation } from './record-analytics.ts';

const SHOP = 'https://shop.example.com';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.',
};

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string; user: { id: number; email: string } };
let bob: { token: string };
let app: { uuid: string; items: string[] };

const analytics = async (query = '', token = owner.token, appUuid = app.uuid) => {
  await productEventsSettled(t.app);
  return t.call<TAnalytics>('GET', `/api/applications/${appUuid}/analytics/${query}`, { token });
};
const ownerSays = (chatroom: string, message: string, extra: Record<string, unknown> = {}) =>
  t.call('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
    token: owner.token,
    json: { chatroom_identifier: chatroom, message, sender_identifier: `reg_${owner.user.id}`, ...extra },
  });
const visitor = (token: string) => ({
  call: (method: string, path: string, json?: unknown) =>
    t.call(method, `/api/widget/v1${path}`, {
      ...(json !== undefined && { json }),
      headers: { authorization: `Bearer ${token}` },
    }),
});
async function newVisitorToken() {
  const res = await fetch(`${t.url}/embed/v1/${app.uuid}?origin=${encodeURIComponent(SHOP)}`);
  const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(await res.text())?.[1];
  return (JSON.parse(boot!) as TWidgetBoot).token;
}
/** The answers' rollups are written after their final event: wait until all of them are counted. */
async function settled(answers: number, query = '') {
  await expect
    .poll(async () => (await analytics(query)).body.totals.answers, { timeout: 10_000 })
    .toBe(answers);
  return (await analytics(query)).body;
}
/** PostgreSQL's percentile_cont, rounded as the API rounds it (half up: 4.5 is 5). */
function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const low = sorted[Math.floor(at)]!;
  return Math.round(low + (at - Math.floor(at)) * (sorted[Math.ceil(at)]! - low));
}

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({
    // An answer from the knowledge cites it; the question it does not cover gets none.
    reply: (body) =>
      JSON.stringify(body.messages).includes('swallow')
        ? 'I do not know that.'
        : 'A three-year warranty [1].',
  });
  owner = await t.signUp();
  bob = await t.signUp();
  app = await applicationWith(t, owner.token, [WARRANTY]);
  await useProviderModel(t, owner.token, app.uuid, { baseUrl: fake.url });
  const widget = await t.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(widget.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('analytics', () => {
  it('is every day of the last 30 days in zeros before anything happened', async () => {
    const res = await analytics();
    expect(res.status).toBe(200);
    const today = localDate(new Date(), 'UTC');
    expect(res.body).toMatchObject({ to: today, time_zone: 'UTC', top_questions: [], top_cited: [] });
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days.at(-1)).toMatchObject({ day: today, conversations: 0, first_token_p50_ms: null });
    expect(res.body.totals).toMatchObject({
      conversations: 0,
      messages: 0,
      visitors: 0,
      estimated_cost: null,
    });
  });

  it('counts real conversations, answers, ratings, a handoff and its reply, per day and in total', async () => {
    const tab = await openChatSocket(t.url, owner.token);
    const first = await ownerSays('new_chat', 'What is the warranty of the X200?');
    const room = first.body.chatroom.uuid;
    const a1 = await tab.finalOf(first.body.answer.uuid);
    const second = await ownerSays(room, 'How long is the X200 warranty?');
    const a2 = await tab.finalOf(second.body.answer.uuid);
    const rated = await t.call(
      'PUT',
      `/api/applications/${app.uuid}/chatrooms/${room}/messages/${a1.uuid}/feedback/`,
      { token: owner.token, json: { feedback: 'up' } },
    );
    expect(rated.status).toBe(200);

    // A widget visitor asks what the knowledge does not cover, rates it 👎, asks for a person, who replies.
    const token = await newVisitorToken();
    const asked = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: null,
      message: 'What is the airspeed of a swallow?',
    });
    const visitorRoom = asked.body.conversation.uuid;
    const a3 = await tab.finalOf(asked.body.answer.uuid);
    expect(a3.metadata.not_covered).toBe(true);
    await visitor(token).call('POST', `/messages/${a3.uuid}/feedback/`, { feedback: 'down' });
    const handoff = await visitor(token).call('POST', `/conversations/${visitorRoom}/handoff/`);
    expect(handoff.status).toBe(200);
    const reply = await ownerSays(visitorRoom, 'A person here: about 11 m/s.', { send_to_user: true });
    expect(reply.status).toBe(201);
    tab.close();

    // Prices entered after the fact apply to the tokens spent.
    const [provider] = (await t.call('GET', '/api/model-providers/', { token: owner.token })).body;
    const model = provider.models.find((m: { model_type: string }) => m.model_type === 'text');
    const priced = await t.call('PATCH', `/api/model-providers/${provider.uuid}/models/${model.uuid}/`, {
      token: owner.token,
      json: { input_price_per_million: 2, output_price_per_million: 10 },
    });
    expect(priced.status).toBe(200);

    const body = await settled(3);
    const answers: TMessage[] = [a1, a2, a3];
    // The answer the knowledge does not cover is a set refusal: no model call, no tokens.
    const usage = answers.map(
      (a) => (a.metadata.usage ?? { input_tokens: 0, output_tokens: 0 }) as Record<string, number>,
    );
    const input = usage.reduce((sum, u) => sum + u.input_tokens!, 0);
    const output = usage.reduce((sum, u) => sum + u.output_tokens!, 0);
    expect(input).toBeGreaterThan(0);
    const firstTokens = answers.map((a) => a.metadata.first_token_ms as number);
    const waited = Date.parse(reply.body.message.created_at) - Date.parse(handoff.body.waiting_since);
    const cost = (input * 2 + output * 10) / 1_000_000;
    const expected = {
      conversations: 2,
      // Two questions and their answers, the visitor's question, its answer and the owner's reply.
      messages: 7,
      visitors: 1,
      rated_up: 1,
      rated_down: 1,
      not_covered: 1,
      handoffs_requested: 1,
      handoffs_answered: 1,
      human_reply_median_ms: waited,
      answers: 3,
      first_token_p50_ms: percentile(firstTokens, 0.5),
      first_token_p95_ms: percentile(firstTokens, 0.95),
      models: [
        {
          model_uuid: model.uuid,
          model_name: 'fake-chat',
          answers: 3,
          input_tokens: input,
          output_tokens: output,
          estimated_cost: cost,
        },
      ],
      estimated_cost: cost,
    };
    expect(body.totals).toEqual(expected);
    const today = localDate(new Date(), 'UTC');
    expect(body.days.find((d) => d.day === today)).toEqual({ day: today, ...expected });
    expect(body.days.filter((d) => d.day !== today).every((d) => d.messages === 0)).toBe(true);
    // The owner's reply is no question; the two warranty questions are one group, worded as last asked.
    expect(body.top_questions).toEqual([
      { question: 'How long is the X200 warranty?', count: 2 },
      { question: 'What is the airspeed of a swallow?', count: 1 },
    ]);
    expect(body.top_cited).toEqual([{ item_uuid: app.items[0], title: 'X200 manual', citations: 2 }]);

    // Retention-proof: deleting a conversation leaves what was counted.
    const removed = await t.call('DELETE', `/api/applications/${app.uuid}/chatrooms/${room}/`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect((await analytics()).body.totals).toEqual(expected);
  });

  it('takes a changed rating back and counts a cleared one no more, on the day of the answer', async () => {
    const before = (await analytics()).body.totals;
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ownerSays('new_chat', 'Does the warranty cover labour?');
    const answer = await tab.finalOf(sent.body.answer.uuid);
    tab.close();
    await settled(before.answers + 1);
    const rate = async (feedback: 'up' | 'down' | null) => {
      const res = await t.call(
        'PUT',
        `/api/applications/${app.uuid}/chatrooms/${sent.body.chatroom.uuid}/messages/${answer.uuid}/feedback/`,
        { token: owner.token, json: { feedback } },
      );
      expect(res.status).toBe(200);
      const { rated_up, rated_down } = (await analytics()).body.totals;
      return [rated_up - before.rated_up, rated_down - before.rated_down];
    };
    expect(await rate('up')).toEqual([1, 0]);
    expect(await rate('up')).toEqual([1, 0]);
    expect(await rate('down')).toEqual([0, 1]);
    expect(await rate(null)).toEqual([0, 0]);
  });

  it('rounds a percentile half up, as people do (4.5 ms is 5, not the even 4)', async () => {
    const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
      app.uuid,
    ]);
    // Two answers of 4 and 5 ms on a day of their own: the median is 4.5.
    await t.database.query(
      `INSERT INTO analytics_answers (application_id, day, first_token_ms, model_name)
       VALUES ($1, '2026-01-05', 4, 'm'), ($1, '2026-01-05', 5, 'm')`,
      [rows[0]!.id],
    );
    const day = (await analytics('?from=2026-01-05&to=2026-01-05')).body.days[0];
    expect(day).toMatchObject({ answers: 2, first_token_p50_ms: 5 });
  });

  it("counts an event on the date of the owner's time zone: 23:30 UTC is the next day in Paris", async () => {
    const profile = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: { ...DEFAULT_NOTIFICATION_PROFILE, time_zone: 'Europe/Paris' },
    });
    expect(profile.status).toBe(200);
    const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
      app.uuid,
    ]);
    const chatroom = {
      applicationId: rows[0]!.id,
      createdAt: new Date('2026-03-10T23:30:00Z'),
    } as ChatroomRow;
    await countConversation(t.app, { application: { ownerId: owner.user.id }, chatroom });
    const res = await analytics('?from=2026-03-10&to=2026-03-11');
    expect(res.body.time_zone).toBe('Europe/Paris');
    expect(res.body.days.map((d) => [d.day, d.conversations])).toEqual([
      ['2026-03-10', 0],
      ['2026-03-11', 1],
    ]);
    // Without a range: the 30 days ending today in Paris.
    expect((await analytics()).body.to).toBe(localDate(new Date(), 'Europe/Paris'));
    await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: DEFAULT_NOTIFICATION_PROFILE,
    });
  });

  it('answers 400 for bad dates and ranges, 404 for an application that is not yours', async () => {
    for (const query of [
      '?from=2026-02-30',
      '?from=yesterday',
      '?to=2026-1-01',
      '?from=2026-03-02&to=2026-03-01',
      '?from=2025-01-01&to=2026-01-02',
      '?from=2026-01-01&from=2026-01-02',
      `?from=${'9'.repeat(10_000)}`,
      '?from=2026-01-01%00',
    ]) {
      const res = await analytics(query);
      expect(res.status, query).toBe(400);
      expect((res.body as unknown as { detail: string }).detail, query).toEqual(expect.any(String));
    }
    for (const query of ['?days=0', '?days=367', '?days=1.5', '?days=7&from=2026-01-01']) {
      expect((await analytics(query)).status, query).toBe(400);
    }
    const week = (await analytics('?days=7')).body;
    expect(week.days).toHaveLength(7);
    expect(week.to).toBe(localDate(new Date(), 'UTC'));
    // 366 days is the most: a leap year.
    expect((await analytics('?from=2024-01-01&to=2024-12-31')).body.days).toHaveLength(366);
    expect((await analytics('', bob.token)).status).toBe(404);
    expect((await analytics('', owner.token, crypto.randomUUID())).status).toBe(404);
    expect((await analytics('', owner.token, 'not-an-id')).status).toBe(404);
    expect((await t.call('GET', `/api/applications/${app.uuid}/analytics/`)).status).toBe(401);
  });

  it('counts greetings and thanks as messages, not as questions people ask', async () => {
    const other = await applicationWith(t, owner.token, [WARRANTY]);
    for (const message of ['hi', 'How long is the X200 warranty?', 'thanks!']) {
      const res = await t.call('POST', `/api/applications/${other.uuid}/chatrooms/send-message/`, {
        token: owner.token,
        json: { chatroom_identifier: 'new_chat', message, sender_identifier: `reg_${owner.user.id}` },
      });
      expect(res.status).toBe(201);
    }
    await expect
      .poll(async () => (await analytics('', owner.token, other.uuid)).body.totals.answers, {
        timeout: 10_000,
      })
      .toBe(3);
    const body = (await analytics('', owner.token, other.uuid)).body;
    expect(body.totals.messages).toBe(6);
    expect(body.top_questions).toEqual([{ question: 'How long is the X200 warranty?', count: 1 }]);
  });
});
