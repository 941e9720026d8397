import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HANDED_BACK_NOTICE } from '@cairn/contracts/conversation-notices';
import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import type { TWidgetBoot, TWidgetEvent, TWidgetMessage } from '@cairn/contracts/widget';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { endUnansweredHandoff, HANDOFF_TIMEOUT_QUEUE, requestHandoff } from './handoff.ts';
import { REFUSED_ORIGINS_KEPT } from './refused-origins.ts';
import { authenticateVisitorIn } from './visitor-auth.ts';
import { sweepWidgetUsage } from './visitor-limits.ts';

const SHOP = 'https://shop.example.com';
const OTHER = 'https://evil.example.net';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.',
};

let t: TestApp;
let owner: { token: string; user: { id: number; email: string } };
let bob: { token: string };
let appUuid: string;

const widgetPath = (app = appUuid) => `/api/applications/${app}/widget/`;
const patchWidget = (json: unknown, token = owner.token, app = appUuid) =>
  t.call('PATCH', widgetPath(app), { token, json });
const visitor = (token: string | undefined) => ({
  call: (method: string, path: string, json?: unknown) =>
    t.call(method, `/api/widget/v1${path}`, {
      ...(json !== undefined && { json }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
});

/** Opens the embed page as the iframe would, for a host origin; returns the boot data (or the status). */
async function embed(origin: string, app = appUuid) {
  const res = await fetch(`${t.url}/embed/v1/${app}?origin=${encodeURIComponent(origin)}`);
  const html = await res.text();
  const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  return { res, html, boot: boot ? (JSON.parse(boot) as TWidgetBoot) : null };
}

async function newVisitorToken(origin = SHOP) {
  const { boot } = await embed(origin);
  expect(boot).not.toBeNull();
  return boot!.token;
}

/** Reads the visitor's event stream until `until` holds or the time runs out. */
async function visitorEvents(token: string) {
  const controller = new AbortController();
  const res = await fetch(`${t.url}/api/widget/v1/events/`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: TWidgetEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6);
        if (data) events.push(JSON.parse(data));
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  return {
    events,
    async waitFor(test: (e: TWidgetEvent) => boolean, timeoutMs = 10_000) {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        const found = events.find(test);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`event not seen; got ${JSON.stringify(events.map((e) => e.kind))}`);
    },
    close() {
      controller.abort();
      return pump;
    },
  };
}

async function mailTo(to: string, subject: RegExp) {
  for (let i = 0; i < 50; i++) {
    const mail = t.outbox().find((m) => m.to === to && subject.test(m.subject));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail ${subject} to ${to}`);
}

beforeAll(async () => {
  t = await startTestApp({ logLevel: 'error' }, { logger: true });
  owner = await t.signUp();
  bob = await t.signUp();
  appUuid = (await applicationWith(t, owner.token, [WARRANTY])).uuid;
});
afterAll(() => t.close());

describe('widget settings (owner)', () => {
  it('starts off, allowing no origin, with a one-tag snippet served from PUBLIC_URL', async () => {
    const res = await t.call('GET', widgetPath(), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      enabled: false,
      allowed_origins: [],
      title: 'Support',
      position: 'right',
      show_sources: true,
      limits: { visitor_messages_per_hour: 30 },
      takeover: { enabled: true, wait_minutes: 5 },
      updated_at: null,
      refused_origins: [],
    });
    expect(res.body.embed_snippet).toBe(
      `<script src="${t.url}/widget.js" data-app="${appUuid}" async></script>`,
    );
  });

  it('stores a partial update, normalising origins and merging limits field by field', async () => {
    const res = await patchWidget({
      enabled: true,
      allowed_origins: [`${SHOP}/`, 'HTTP://LOCALHOST:8080', SHOP],
      title: 'Ask X200',
      suggested_questions: ['How long is the warranty?'],
      accent_color: '#AA3300',
      limits: { visitor_messages_per_hour: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      enabled: true,
      allowed_origins: [SHOP, 'http://localhost:8080'],
      title: 'Ask X200',
      accent_color: '#aa3300',
      limits: { visitor_messages_per_hour: 5, visitor_messages_per_day: 100 },
    });
    const again = await t.call('GET', widgetPath(), { token: owner.token });
    expect(again.body).toEqual(res.body);
  });

  it('refuses what is not an exact origin, bad types, control characters and unknown fields (400, nothing stored)', async () => {
    const before = (await t.call('GET', widgetPath(), { token: owner.token })).body;
    for (const origin of [
      'https://*.example.com',
      'https://shop.example.com/path',
      'ftp://shop.example.com',
      'https://user:pw@shop.example.com',
      'https://shop.example.com?x=1',
      'shop.example.com',
      'https://shop\u0000.example.com',
      '',
      'x'.repeat(5000),
    ]) {
      const res = await patchWidget({ enabled: false, allowed_origins: [SHOP, origin] });
      expect(res.status, origin).toBe(400);
      expect(Object.keys(res.body.errors)).toContain('allowed_origins.1');
    }
    for (const body of [
      { allowed_origins: SHOP },
      { allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) },
      { enabled: 'yes' },
      { accent_color: 'red' },
      { position: 'top' },
      { title: '' },
      { title: 'a\u0007b' },
      { suggested_questions: Array(7).fill('Q?') },
      { limits: { visitor_messages_per_hour: 0 } },
      { limits: { visitor_messages_per_hour: 1.5 } },
      { takeover: { wait_minutes: 100_000 } },
      { surprise: true },
      null,
      [],
    ]) {
      const res = await patchWidget(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBeTypeOf('string');
    }
    expect((await t.call('GET', widgetPath(), { token: owner.token })).body).toEqual(before);
  });

  it("is another user's business only for them: 404", async () => {
    expect((await t.call('GET', widgetPath(), { token: bob.token })).status).toBe(404);
    expect((await patchWidget({ enabled: false }, bob.token)).status).toBe(404);
  });
});

describe('the loader, the launcher settings and the embed page', () => {
  it('serves the launcher settings only to an allowed origin of an enabled widget; a refusal says why', async () => {
    const allowed = await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`, { headers: { origin: SHOP } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(await allowed.json()).toEqual({
      title: 'Ask X200',
      accent_color: '#aa3300',
      position: 'right',
      open_on_load: false,
    });
    // The refusal is readable by the page, so the loader can tell the site's developer why.
    const refused = await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`, {
      headers: { origin: OTHER },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe(OTHER);
    expect(await refused.json()).toEqual({
      detail: `${OTHER} is not an allowed site for this assistant. Its owner can add it under "Allowed sites" on the assistant's "API keys & widget" page.`,
      code: 'forbidden',
    });
    const noOrigin = await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`);
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBeNull();
    const unknown = await fetch(`${t.url}/api/widget/v1/launcher/${crypto.randomUUID()}/`, {
      headers: { origin: SHOP },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(
      /^No assistant has the id .*check data-app in the snippet\.$/,
    );

    // The owner sees the refused site and why; the same site again within the minute is one entry.
    await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`, { headers: { origin: OTHER } });
    const settings = await t.call('GET', widgetPath(), { token: owner.token });
    expect(settings.body.refused_origins).toEqual([
      { origin: OTHER, reason: 'origin_not_allowed', last_refused_at: expect.any(String) },
    ]);
    // Allowed now: no longer listed; turned off: every site is refused for that reason.
    const allowedNow = await patchWidget({ allowed_origins: [SHOP, OTHER] });
    expect(allowedNow.body.refused_origins).toEqual([]);
    await patchWidget({ enabled: false });
    const off = await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`, { headers: { origin: SHOP } });
    expect(off.status).toBe(403);
    expect(((await off.json()) as { detail: string }).detail).toBe(
      `The widget of this assistant is turned off, so ${SHOP} cannot show it.`,
    );
    const whenOff = await patchWidget({ enabled: true, allowed_origins: [SHOP, 'http://localhost:8080'] });
    expect(whenOff.body.refused_origins.map((r: { origin: string }) => r.origin)).toEqual([OTHER]);
    // Only the latest few sites are kept, whatever Origin headers anyone sends.
    for (let i = 0; i < REFUSED_ORIGINS_KEPT + 3; i++) {
      await fetch(`${t.url}/api/widget/v1/launcher/${appUuid}/`, {
        headers: { origin: `https://s${i}.example.org` },
      });
    }
    const { rows } = await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM widget_refused_origins r JOIN applications a ON a.id = r.application_id WHERE a.uuid = $1',
      [appUuid],
    );
    expect(rows[0]!.n).toBe(REFUSED_ORIGINS_KEPT);
    expect((await t.call('GET', widgetPath(), { token: owner.token })).body.refused_origins[0].origin).toBe(
      `https://s${REFUSED_ORIGINS_KEPT + 2}.example.org`,
    );
    // Another owner's widget settings stay theirs.
    expect((await t.call('GET', widgetPath(), { token: bob.token })).status).toBe(404);
  });

  it('is framed only by the allowed origin it was opened for, and mints a token bound to it', async () => {
    const { res, html, boot } = await embed(SHOP);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain(`frame-ancestors ${SHOP}`);
    expect(csp).not.toContain('localhost:8080');
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(html).toContain('<script src="/embed/assets/embed.js"');
    expect(boot).toMatchObject({ application_uuid: appUuid, origin: SHOP, preview: false });
    expect(boot!.config).toMatchObject({ title: 'Ask X200', takeover_enabled: true });
    expect(boot!.token).toMatch(/^cwv1\./);

    for (const origin of [OTHER, 'not an origin', `${SHOP}/path`]) {
      const refused = await embed(origin);
      expect(refused.res.status, origin).toBe(403);
      expect(refused.boot).toBeNull();
      expect(refused.res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect((await embed(SHOP, crypto.randomUUID())).res.status).toBe(403);
  });

  it('shows the owner a preview framed by the app itself, and nobody else', async () => {
    const url = `/embed/v1/${appUuid}?preview=1`;
    const mine = await fetch(t.url + url, { headers: { cookie: `auth_token=${owner.token}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const html = await mine.text();
    expect(html).toContain('"preview":true');
    expect(html).toContain('"token":""');
    expect((await fetch(t.url + url, { headers: { cookie: `auth_token=${bob.token}` } })).status).toBe(403);
    expect((await fetch(t.url + url)).status).toBe(403);
  });

  it('escapes the boot data so owner text cannot end the script element', async () => {
    await patchWidget({ greeting: '</script><script>alert(1)</script>' });
    const { html, boot } = await embed(SHOP);
    expect(html).not.toContain('</script><script>alert(1)');
    expect(boot!.config.greeting).toBe('</script><script>alert(1)</script>');
    await patchWidget({ greeting: 'Hi! Ask me about the X200.' });
  });
});

describe('visitor API', () => {
  it('refuses calls without a token, with a forged, tampered or expired one, and with owner or API credentials', async () => {
    const token = await newVisitorToken();
    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, o: OTHER })).toString('base64url')}.${signature}`;
    const expired = t.app.visitorTokens.mint(
      { a: appUuid, v: crypto.randomUUID(), o: SHOP },
      Date.now() - 2 * 60 * 60 * 1000,
    ).token;
    const key = await t.call('POST', `/api/applications/${appUuid}/api-keys/`, {
      token: owner.token,
      json: { name: 'k' },
    });
    const send = { conversation_uuid: null, message: 'Hello?' };
    for (const bad of [undefined, 'cwv1.', `${token}x`, forged, expired, key.body.key, owner.token]) {
      const res = await visitor(bad).call('POST', '/messages/', send);
      expect(res.status, String(bad)).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
    const ownerCall = await t.call('POST', '/api/widget/v1/messages/', { token: owner.token, json: send });
    expect(ownerCall.status).toBe(401);
    // A visitor token is refused on owner endpoints.
    const onOwner = await t.call('GET', '/api/applications/', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(onOwner.status).toBe(401);
  });

  it('answers a visitor with a streamed, cited answer in their own widget conversation', async () => {
    const token = await newVisitorToken();
    const stream = await visitorEvents(token);
    const sent = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: null,
      message: 'How long is the warranty of the X200?',
      // The query and fragment of the host page are not kept (they may hold a token of the site).
      page_url: 'https://shop.example.com/products/x200?session=s3cret&email=a%40b.c#reviews',
    });
    expect(sent.status).toBe(201);
    expect(sent.body.conversation).toMatchObject({ handled_by: 'assistant', waiting_since: null });
    expect(sent.body.message).toMatchObject({
      role: 'visitor',
      text: 'How long is the warranty of the X200?',
    });
    const conversation = sent.body.conversation.uuid;
    const answerUuid = sent.body.answer.uuid;
    const done = await stream.waitFor(
      (e) => e.kind === 'updated' && e.message.uuid === answerUuid && e.message.status === 'complete',
    );
    expect(done.kind === 'updated' && done.message.text).toContain('three-year warranty');
    expect(done.kind === 'updated' && done.message.sources[0]).toMatchObject({
      index: 1,
      item_title: 'X200 manual',
    });
    expect(stream.events.some((e) => e.kind === 'delta' && e.message_uuid === answerUuid)).toBe(true);
    // Nothing internal reaches the visitor.
    expect(JSON.stringify(stream.events)).not.toContain('latency_ms');
    await stream.close();

    const fetched = await visitor(token).call('GET', `/conversations/${conversation}/`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.messages.map((m: { role: string }) => m.role)).toEqual(['visitor', 'assistant']);

    // The owner opens it as a widget chatroom with the page it started on; the sidebar leaves a
    // conversation nobody waits in to the conversation log.
    const rooms = await t.call('GET', `/api/applications/${appUuid}/chatrooms/`, { token: owner.token });
    expect(rooms.body.chatrooms.map((c: { uuid: string }) => c.uuid)).not.toContain(conversation);
    const stored = await t.call('GET', `/api/applications/${appUuid}/chatrooms/${conversation}/messages/`, {
      token: owner.token,
    });
    expect(stored.body.messages[0].sender_identifier).toMatch(/^visitor_[0-9a-f-]{36}$/);
    expect(stored.body).toMatchObject({
      source: 'widget',
      handled_by: 'assistant',
      started_on: 'https://shop.example.com/products/x200',
    });
  });

  it("hands an event to the visitor's connection at once, not after the rest of the tick", async () => {
    const token = await newVisitorToken();
    let response: ServerResponse | undefined;
    const capture = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/api/widget/v1/events/')) response = res;
    };
    t.app.server.prependListener('request', capture);
    const stream = await visitorEvents(token);
    t.app.server.off('request', capture);
    const visitorUuid = (
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { v: string }
    ).v;
    const chatroom = randomUUID();
    const sent = t.app.realtime.publish(owner.user.id, {
      event: 'message',
      data: {
        kind: 'delta',
        application_uuid: appUuid,
        chatroom_uuid: chatroom,
        visitor_uuid: visitorUuid,
        message_uuid: randomUUID(),
        run: 0,
        offset: 0,
        delta: 'Hello',
      },
    });
    // Still in the publishing turn: what follows it in this tick (an answer's remaining text, its
    // final write) must not hold the delta back in a corked socket.
    expect(response?.socket?.writableCorked).toBe(0);
    expect(response?.socket?.writableLength).toBe(0);
    await sent;
    await stream.waitFor((e) => e.kind === 'delta' && e.conversation_uuid === chatroom);
    await stream.close();
  });

  it('keeps each visitor to their own conversations, and refuses bad and oversized input', async () => {
    const alice = await newVisitorToken();
    const mallory = await newVisitorToken();
    const sent = await visitor(alice).call('POST', '/messages/', { conversation_uuid: null, message: 'Hi' });
    const conversation = sent.body.conversation.uuid;
    expect((await visitor(mallory).call('GET', `/conversations/${conversation}/`)).status).toBe(404);
    const into = await visitor(mallory).call('POST', '/messages/', {
      conversation_uuid: conversation,
      message: 'x',
    });
    expect(into.status).toBe(404);
    const answer = sent.body.answer.uuid;
    expect(
      (await visitor(mallory).call('POST', `/messages/${answer}/feedback/`, { feedback: 'down' })).status,
    ).toBe(404);
    expect((await visitor(mallory).call('POST', `/conversations/${conversation}/handoff/`)).status).toBe(404);
    // An owner chatroom of the same application is not a visitor's either.
    const web = await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
      token: owner.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Owner note',
        sender_identifier: `reg_${owner.user.id}`,
      },
    });
    expect((await visitor(alice).call('GET', `/conversations/${web.body.chatroom.uuid}/`)).status).toBe(404);

    for (const body of [
      { conversation_uuid: null, message: 'x'.repeat(8001) },
      { conversation_uuid: null, message: '   ' },
      { conversation_uuid: null, message: 42 },
      { conversation_uuid: 'not-a-uuid', message: 'x' },
      { message: 'x' },
      { conversation_uuid: null, message: 'x', page_url: 'a\u0000b' },
      { conversation_uuid: null, message: 'x', extra: 1 },
    ]) {
      const res = await visitor(alice).call('POST', '/messages/', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const huge = await fetch(`${t.url}/api/widget/v1/messages/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_uuid: null, message: 'x'.repeat(200_000) }),
    });
    expect(huge.status).toBe(413);
    expect(
      (await visitor(alice).call('POST', `/messages/${answer}/feedback/`, { feedback: 'meh' })).status,
    ).toBe(400);
    const rated = await visitor(alice).call('POST', `/messages/${answer}/feedback/`, { feedback: 'up' });
    expect(rated).toMatchObject({ status: 200, body: { uuid: answer, feedback: 'up' } });
  });

  it('renews a token for the same visitor, even shortly after it expired, but not long after', async () => {
    const v = crypto.randomUUID();
    const recent = t.app.visitorTokens.mint(
      { a: appUuid, v, o: SHOP },
      Date.now() - 2 * 60 * 60 * 1000,
    ).token;
    const renewed = await visitor(recent).call('POST', '/session/');
    expect(renewed.status).toBe(200);
    expect(renewed.body.visitor_uuid).toBe(v);
    expect(new Date(renewed.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(
      (
        await visitor(renewed.body.token).call('POST', '/messages/', {
          conversation_uuid: null,
          message: 'Hi',
        })
      ).status,
    ).toBe(201);
    const old = t.app.visitorTokens.mint(
      { a: appUuid, v, o: SHOP },
      Date.now() - 9 * 24 * 60 * 60 * 1000,
    ).token;
    expect((await visitor(old).call('POST', '/session/')).status).toBe(401);
  });

  it('stops every visitor at once when the widget is turned off or their origin removed', async () => {
    const token = await newVisitorToken();
    const send = { conversation_uuid: null, message: 'Hello' };
    await patchWidget({ enabled: false });
    expect((await visitor(token).call('POST', '/messages/', send)).status).toBe(403);
    expect((await visitor(token).call('POST', '/session/')).status).toBe(403);
    expect((await embed(SHOP)).res.status).toBe(403);
    await patchWidget({ enabled: true, allowed_origins: ['http://localhost:8080'] });
    expect((await visitor(token).call('POST', '/messages/', send)).status).toBe(403);
    await patchWidget({ allowed_origins: [SHOP, 'http://localhost:8080'] });
    expect((await visitor(token).call('POST', '/messages/', send)).status).toBe(201);
  });

  it("answers a visitor over the limit with the owner's message (429), counted in the database", async () => {
    await patchWidget({
      limits: { visitor_messages_per_hour: 2, limit_message: 'Easy there! Come back in an hour.' },
    });
    const token = await newVisitorToken();
    const send = { conversation_uuid: null, message: 'Hello' };
    expect((await visitor(token).call('POST', '/messages/', send)).status).toBe(201);
    expect((await visitor(token).call('POST', '/messages/', send)).status).toBe(201);
    const limited = await visitor(token).call('POST', '/messages/', send);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: 'Easy there! Come back in an hour.', code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).toBe('3600');
    // Another visitor is not held back by it.
    expect((await visitor(await newVisitorToken()).call('POST', '/messages/', send)).status).toBe(201);
    const { rows } = await t.database.query<{ n: number }>(
      "SELECT sum(messages)::int AS n FROM widget_usage_hours WHERE key_kind = 'visitor'",
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(await t.database.query('SELECT key FROM widget_usage_hours'))).not.toContain(
      '127.0.0.1',
    );
    // Per address across visitors.
    await patchWidget({ limits: { visitor_messages_per_hour: 30, ip_messages_per_hour: 1 } });
    const limitedByIp = await visitor(await newVisitorToken()).call('POST', '/messages/', send);
    expect(limitedByIp.status).toBe(429);
    await patchWidget({ limits: { ip_messages_per_hour: 120, limit_message: 'Limit reached.' } });
  });

  it('counts by the hour: the last hour and day per visitor and per address, old hours swept', async () => {
    // A message sweeps old hours once in a hundred, at random: never here, so the rows the sweep
    // below must delete are still there when it runs (1 run in about 30 failed otherwise).
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const [{ id: applicationId }] = (
      await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [appUuid])
    ).rows as [{ id: number }];
    /** Adds messages to a key's count for the hour `hoursAgo` before this one. */
    const countedBefore = (kind: 'visitor' | 'ip', key: string, hoursAgo: number, messages: number) =>
      t.database.query(
        `INSERT INTO widget_usage_hours (application_id, key_kind, key, hour, messages)
         VALUES ($1, $2, $3, date_trunc('hour', now(), 'UTC') - make_interval(hours => $4), $5)
         ON CONFLICT (application_id, key_kind, key, hour)
         DO UPDATE SET messages = widget_usage_hours.messages + excluded.messages`,
        [applicationId, kind, key, hoursAgo, messages],
      );
    const send = { conversation_uuid: null, message: 'Hello' };
    const ask = async (token: string) => (await visitor(token).call('POST', '/messages/', send)).status;
    const uuidOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { v: string }).v;
    await patchWidget({
      limits: {
        visitor_messages_per_hour: 1,
        visitor_messages_per_day: 20,
        ip_messages_per_hour: 120,
        ip_messages_per_day: 500,
      },
    });

    // The previous hour's message still counts for the last hour, however late in it it was.
    const late = await newVisitorToken();
    await countedBefore('visitor', uuidOf(late), 1, 1);
    expect(await ask(late)).toBe(429);
    // Two hours ago counts for the day only.
    const daily = await newVisitorToken();
    await countedBefore('visitor', uuidOf(daily), 2, 19);
    expect(await ask(daily)).toBe(201);
    await patchWidget({ limits: { visitor_messages_per_hour: 30 } });
    expect(await ask(daily)).toBe(429);
    // More than a day ago counts for nothing.
    const yesterday = await newVisitorToken();
    await countedBefore('visitor', uuidOf(yesterday), 25, 100);
    expect(await ask(yesterday)).toBe(201);

    // The address, across visitors: 500 a day, whoever sent them.
    const { rows } = await t.database.query<{ key: string }>(
      "SELECT key FROM widget_usage_hours WHERE key_kind = 'ip' AND application_id = $1 LIMIT 1",
      [applicationId],
    );
    const address = rows[0]!.key;
    await countedBefore('ip', address, 23, 500);
    expect(await ask(await newVisitorToken())).toBe(429);
    await t.database.query(
      "UPDATE widget_usage_hours SET hour = hour - interval '2 hours' WHERE messages = 500",
    );
    expect(await ask(await newVisitorToken())).toBe(201);

    // The sweep deletes the hours no window reads, and only those.
    const hours = () =>
      t.database.query<{ messages: number }>(
        'SELECT messages FROM widget_usage_hours WHERE application_id = $1 ORDER BY messages',
        [applicationId],
      );
    const before = (await hours()).rows.map((r) => r.messages);
    await sweepWidgetUsage(t.app, applicationId);
    const after = (await hours()).rows.map((r) => r.messages);
    expect(before).toEqual(expect.arrayContaining([100, 500]));
    expect(after).toEqual(before.filter((n) => n !== 100 && n !== 500));
    await patchWidget({ limits: { visitor_messages_per_hour: 30, visitor_messages_per_day: 100 } });
    random.mockRestore();
  });
});

describe('human takeover', () => {
  it('the owner replies to the visitor live, the assistant stays silent, and answers again after hand-back', async () => {
    await t.call('PATCH', '/api/me/', {
      token: owner.token,
      json: { first_name: 'Dana', last_name: 'Owner' },
    });
    const token = await newVisitorToken();
    const stream = await visitorEvents(token);
    const first = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: null,
      message: 'Warranty?',
    });
    const room = first.body.conversation.uuid;
    const ownerSend = (message: string, sendToUser = true) =>
      t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
        token: owner.token,
        json: {
          chatroom_identifier: room,
          message,
          sender_identifier: `reg_${owner.user.id}`,
          send_to_user: sendToUser,
        },
      });
    // In a visitor's conversation the owner writes to the visitor, not to the assistant.
    expect((await ownerSend('note to self', false)).status).toBe(400);
    const reply = await ownerSend('Hi, Dana here. It is three years.');
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ chatroom: { handled_by: 'human' }, answer: null });
    const human = await stream.waitFor((e) => e.kind === 'created' && e.message.role === 'human');
    expect(human.kind === 'created' && human.message).toMatchObject({
      author_name: 'Dana',
      text: 'Hi, Dana here. It is three years.',
    });
    await stream.waitFor((e) => e.kind === 'conversation' && e.conversation.handled_by === 'human');
    const ownerView = () =>
      t.call('GET', `/api/applications/${appUuid}/chatrooms/${room}/messages/`, { token: owner.token });
    // The owner's view of the conversation says who handles it, not only the list.
    expect((await ownerView()).body).toMatchObject({
      source: 'widget',
      handled_by: 'human',
      waiting_since: null,
    });

    const silent = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: room,
      message: 'Thanks!',
    });
    expect(silent.body.answer).toBeNull();

    const left = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: room,
      message: 'How long is the warranty of the X200?',
    });
    expect(left.body.answer).toBeNull();

    const back = await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
      token: owner.token,
      json: { handled_by: 'assistant' },
    });
    expect(back).toMatchObject({ status: 200, body: { handled_by: 'assistant', waiting_since: null } });
    // The visitor is told the assistant is back, and what the person left unanswered is answered,
    // each question on its own, in order.
    const notice = await stream.waitFor((e) => e.kind === 'created' && e.message.notice);
    expect(notice.kind === 'created' && notice.message).toMatchObject({
      role: 'assistant',
      text: HANDED_BACK_NOTICE,
      status: 'complete',
    });
    const byUuid = async () => {
      const read = await visitor(token).call('GET', `/conversations/${room}/`);
      return read.body.messages as TWidgetMessage[];
    };
    await waitFor(
      async () =>
        (await byUuid()).filter((m) => m.role === 'assistant' && m.status === 'complete').length >= 4,
      { timeoutMs: 15_000 },
    );
    const afterBack = await byUuid();
    const noticeAt = afterBack.findIndex((m) => m.notice);
    expect(afterBack.slice(noticeAt).map((m) => [m.role, m.notice])).toEqual([
      ['assistant', true],
      ['assistant', false],
      ['assistant', false],
    ]);
    const [thanks, warranty] = afterBack.slice(noticeAt + 1);
    expect(thanks!.status).toBe('complete');
    expect(warranty!.text).toContain('three-year warranty');
    const { rows: replies } = await t.database.query<{ reply_to: string }>(
      `SELECT metadata->>'reply_to' AS reply_to FROM messages WHERE uuid = ANY($1) ORDER BY id`,
      [[thanks!.uuid, warranty!.uuid]],
    );
    expect(replies.map((r) => r.reply_to)).toEqual([silent.body.message.uuid, left.body.message.uuid]);
    expect((await ownerView()).body).toMatchObject({ handled_by: 'assistant', waiting_since: null });
    const taken = await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
      token: owner.token,
      json: { handled_by: 'human' },
    });
    expect(taken.body.handled_by).toBe('human');
    expect((await ownerView()).body.handled_by).toBe('human');
    const countBefore = (await byUuid()).length;
    await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
      token: owner.token,
      json: { handled_by: 'assistant' },
    });
    // Nothing was asked meanwhile: the notice only.
    expect((await byUuid()).slice(countBefore).map((m) => m.notice)).toEqual([true]);
    // Handing back a conversation the assistant already handles changes nothing.
    await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
      token: owner.token,
      json: { handled_by: 'assistant' },
    });
    expect((await byUuid()).length).toBe(countBefore + 1);
    expect(
      (
        await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
          token: owner.token,
          json: {},
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.call('PATCH', `/api/applications/${appUuid}/chatrooms/${room}/`, {
          token: bob.token,
          json: { handled_by: 'human' },
        })
      ).status,
    ).toBe(404);
    const answered = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: room,
      message: 'And the warranty of the X200 again?',
    });
    expect(answered.body.answer).toMatchObject({ role: 'assistant' });
    await stream.close();
  });

  it('a visitor asks for a person: the owner sees it live and by e-mail; unanswered, the assistant takes over again', async () => {
    // The handoff e-mail follows the owner's notification profile: sent at once with no delay.
    const profile = await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: { ...DEFAULT_NOTIFICATION_PROFILE, email_delay_minutes: 0 },
    });
    expect(profile.status).toBe(200);
    const token = await newVisitorToken();
    const stream = await visitorEvents(token);
    const first = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: null,
      message: 'What is the airspeed of a swallow?',
    });
    const room = first.body.conversation.uuid;
    const finished = await stream.waitFor(
      (e) => e.kind === 'updated' && e.message.role === 'assistant' && e.message.status === 'complete',
    );
    expect(finished.kind === 'updated' && finished.message.not_covered).toBe(true);

    const sidebar = async () =>
      (await t.call('GET', `/api/applications/${appUuid}/chatrooms/`, { token: owner.token })).body.chatrooms;
    // A visitor's conversation is in the log, not the sidebar, until they wait for a person.
    expect((await sidebar()).map((c: { uuid: string }) => c.uuid)).not.toContain(room);
    const asked = await visitor(token).call('POST', `/conversations/${room}/handoff/`);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ handled_by: 'human', waiting_since: expect.any(String) });
    const rooms = await t.call('GET', `/api/applications/${appUuid}/chatrooms/`, { token: owner.token });
    expect(rooms.body.chatrooms.find((c: { uuid: string }) => c.uuid === room).waiting_since).toBe(
      asked.body.waiting_since,
    );
    const mail = await mailTo(owner.user.email, /waiting for a person/);
    expect(mail.text.replace(/=\n/g, '')).toContain('Reply within 5 minutes');
    // The link is longer than a mail line: quoted-printable soft breaks (=\n) join it again.
    expect(mail.text.replace(/=\n/g, '')).toContain(`${t.url}/applications/${appUuid}/messages/${room}`);
    const { rows: jobs } = await t.database.query<{
      data: { chatroomId: number; waitingSince: string };
      delay: number;
    }>(
      `SELECT data, extract(epoch from start_after - created_on)::int AS delay FROM pgboss.job WHERE name = $1`,
      [HANDOFF_TIMEOUT_QUEUE],
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.delay).toBeGreaterThanOrEqual(5 * 60 - 2);

    // The visitor asks meanwhile; nobody answers.
    const meanwhile = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: room,
      message: 'What does the X200 warranty cover?',
    });
    expect(meanwhile.body.answer).toBeNull();

    // The wait runs out (the job's work, run now): the assistant says so, a notice, not an answer,
    // and answers what the visitor asked while waiting.
    await endUnansweredHandoff(t.app, jobs[0]!.data);
    const notice = await stream.waitFor((e) => e.kind === 'created' && e.message.notice);
    expect(notice.kind === 'created' && notice.message.text).toBe(
      'Nobody is available right now, so I will keep helping you here.',
    );
    await stream.waitFor((e) => e.kind === 'conversation' && e.conversation.handled_by === 'assistant');
    const answer = await stream.waitFor(
      (e) =>
        e.kind === 'updated' &&
        e.message.role === 'assistant' &&
        !e.message.notice &&
        e.message.status === 'complete' &&
        e.message.text.includes('parts and labour'),
      15_000,
    );
    expect(answer.kind === 'updated' && answer.message.not_covered).toBe(false);
    // Run twice (at least once delivery): nothing more happens.
    await endUnansweredHandoff(t.app, jobs[0]!.data);
    const messages = await visitor(token).call('GET', `/conversations/${room}/`);
    expect(messages.body.messages).toHaveLength(5);
    await stream.close();
  });

  it('a handoff the owner answered in time is not ended by the timeout; takeover off refuses it', async () => {
    const token = await newVisitorToken();
    const first = await visitor(token).call('POST', '/messages/', {
      conversation_uuid: null,
      message: 'Hello',
    });
    const room = first.body.conversation.uuid;
    const asked = await visitor(token).call('POST', `/conversations/${room}/handoff/`);
    const { rows } = await t.database.query<{ id: number }>('SELECT id FROM chatrooms WHERE uuid = $1', [
      room,
    ]);
    await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
      token: owner.token,
      json: {
        chatroom_identifier: room,
        message: 'Here!',
        sender_identifier: `reg_${owner.user.id}`,
        send_to_user: true,
      },
    });
    await endUnansweredHandoff(t.app, { chatroomId: rows[0]!.id, waitingSince: asked.body.waiting_since });
    const after = await visitor(token).call('GET', `/conversations/${room}/`);
    expect(after.body.conversation).toMatchObject({ handled_by: 'human', waiting_since: null });
    expect(after.body.messages.map((m: { role: string }) => m.role)).toEqual([
      'visitor',
      'assistant',
      'human',
    ]);

    await patchWidget({ takeover: { enabled: false } });
    const refused = await visitor(token).call('POST', `/conversations/${room}/handoff/`);
    expect(refused.status).toBe(403);
    await patchWidget({ takeover: { enabled: true } });
  });

  it('two requests for a person at once start one wait: one timeout job, one e-mail', async () => {
    await t.call('PUT', '/api/notification-profile/', {
      token: owner.token,
      json: { ...DEFAULT_NOTIFICATION_PROFILE, email_delay_minutes: 0 },
    });
    const token = await newVisitorToken();
    const first = await visitor(token).call('POST', '/messages/', { conversation_uuid: null, message: 'Hi' });
    const room = first.body.conversation.uuid;
    // Both in one tick, straight to the handler, with the conversation as it was read before either
    // changes it (over HTTP the test database runs them one after the other).
    const { visitor: context, chatroom } = await authenticateVisitorIn(
      t.app,
      { headers: { authorization: `Bearer ${token}` } } as FastifyRequest,
      room,
    );
    const [a, b] = await Promise.all([
      requestHandoff(t.app, context, chatroom),
      requestHandoff(t.app, context, chatroom),
    ]);
    // The one that did not change the conversation answers with it as the other left it.
    expect(a).toMatchObject({ handled_by: 'human', waiting_since: expect.any(String) });
    expect(b).toEqual(a);
    const again = await visitor(token).call('POST', `/conversations/${room}/handoff/`);
    expect(again).toMatchObject({ status: 200, body: a });
    const { rows: jobs } = await t.database.query(
      `SELECT 1 FROM pgboss.job j JOIN chatrooms c ON c.id = (j.data->>'chatroomId')::int
       WHERE j.name = $1 AND c.uuid = $2`,
      [HANDOFF_TIMEOUT_QUEUE, room],
    );
    expect(jobs).toHaveLength(1);
    const link = `/applications/${appUuid}/messages/${room}`;
    const mailsAboutRoom = () =>
      t.outbox().filter((m) => m.to === owner.user.email && m.text.replace(/=\n/g, '').includes(link));
    for (let i = 0; i < 50 && mailsAboutRoom().length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    // A second e-mail, had one been sent, would follow close behind.
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsAboutRoom()).toHaveLength(1);
    const ownerView = await t.call('GET', `/api/applications/${appUuid}/chatrooms/${room}/messages/`, {
      token: owner.token,
    });
    expect(ownerView.body).toMatchObject({ handled_by: 'human', waiting_since: a.waiting_since });
  });
});

describe('shutdown', () => {
  it('ends open visitor streams, so a server with visitors connected still stops', async () => {
    const other = await startTestApp();
    const o = await other.signUp();
    const created = await other.call('POST', '/api/applications/', { token: o.token, json: { name: 'S' } });
    const app = created.body.uuid;
    await other.call('PATCH', `/api/applications/${app}/widget/`, {
      token: o.token,
      json: { enabled: true, allowed_origins: [SHOP] },
    });
    const html = await (
      await fetch(`${other.url}/embed/v1/${app}?origin=${encodeURIComponent(SHOP)}`)
    ).text();
    const boot = JSON.parse(
      /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(html)![1]!,
    );
    const res = await fetch(`${other.url}/api/widget/v1/events/`, {
      headers: { authorization: `Bearer ${boot.token}` },
    });
    expect(res.status).toBe(200);
    await other.close();
    // The stream was ended by the server, not left hanging.
    expect(await res.text()).toContain(': connected');
  });
});
