import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import { notifications } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { deliverNotificationPush } from './deliver-push.ts';
import { notifyIntegrationFailed } from './product-notifications.ts';

/**
 * Web Push to a local push service (a third party we do not run, doubled at the wire): the request
 * must carry a valid VAPID signature for the endpoint's origin and a payload the browser's keys
 * decrypt; a subscription the service says is gone is removed.
 */

interface HttpEce {
  decrypt(
    buffer: Buffer,
    params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string },
  ): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as HttpEce;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp;
let owner: { token: string; user: { id: number } };
let service: http.Server;
let base: string;
const received: Received[] = [];
/** Status per path; 201 otherwise. */
const answers = new Map<string, number>();

/** A browser's subscription: its own P-256 key pair and auth secret, as PushManager makes them. */
function browser(path: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    ecdh,
    auth,
    json: {
      endpoint: `${base}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey('base64url'), auth },
    },
  };
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>`: ES256 over the JWT by the server's public key, for this origin. */
function verifyVapid(header: string, publicKey: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(match, header).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(publicKey);
  const [h, p, s] = jwt!.split('.');
  const raw = Buffer.from(k!, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  expect(
    verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s!, 'base64url'),
    ),
  ).toBe(true);
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  expect(claims.aud).toBe(base);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  expect(claims.sub).toBe('mailto:no-reply@cairn.test');
}

beforeAll(async () => {
  service = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(req.url ?? '') ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  t = await startTestApp();
  owner = await t.signUp();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => service?.close(r));
});

describe('Web Push', () => {
  it('subscribes a browser and pushes an event set to push: VAPID-signed, decryptable; a gone subscription is removed', async () => {
    const config = await t.call('GET', '/api/notifications/push/', { token: owner.token });
    expect(config.body.subscriptions).toBe(0);
    const publicKey = config.body.public_key as string;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    // Generated once into DATA_DIR: the same key on every call.
    expect((await t.call('GET', '/api/notifications/push/', { token: owner.token })).body.public_key).toBe(
      publicKey,
    );

    const laptop = browser('/push/laptop');
    const phone = browser('/push/phone');
    for (const b of [laptop, phone]) {
      const res = await t.call('POST', '/api/notifications/push/subscriptions/', {
        token: owner.token,
        json: b.json,
      });
      expect(res.status).toBe(201);
    }
    answers.set('/push/phone', 410);
    const profile = {
      ...DEFAULT_NOTIFICATION_PROFILE,
      events: { ...DEFAULT_NOTIFICATION_PROFILE.events, knowledge_failed: ['push'] },
    };
    expect(
      (await t.call('PUT', '/api/notification-profile/', { token: owner.token, json: profile })).status,
    ).toBe(200);

    const created = await t.call('POST', '/api/applications/', {
      token: owner.token,
      json: { name: 'Lighthouse' },
    });
    const form = new FormData();
    form.append('items[0].type', 'url');
    form.append('items[0].value', 'http://127.0.0.1:1/closed');
    await t.call('POST', `/api/applications/${created.body.uuid}/knowledge/`, { token: owner.token, form });
    await waitFor(() => received.length === 2, { timeoutMs: 15_000 });
    await waitFor(
      async () =>
        (await t.call('GET', '/api/notifications/push/', { token: owner.token })).body.subscriptions === 1,
    );

    const push = received.find((r) => r.path === '/push/laptop')!;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    verifyVapid(String(push.headers.authorization), publicKey);
    const payload = JSON.parse(
      ece
        .decrypt(push.body, { version: 'aes128gcm', privateKey: laptop.ecdh, authSecret: laptop.auth })
        .toString(),
    );
    expect(payload).toMatchObject({
      title: 'A knowledge item could not be indexed: http://127.0.0.1:1/closed',
      url: `${t.url}/applications/${created.body.uuid}/knowledge-base`,
    });
    // A copy pushed again (a retry after a crash) replaces this one: at the push service (Topic) and
    // on the screen (the service worker's notification tag).
    expect(push.headers.topic).toBe(payload.tag.replaceAll('-', ''));

    // "Send me a test": to the browser that is left.
    const test = await t.call('POST', '/api/notifications/test/', {
      token: owner.token,
      json: { channel: 'push' },
    });
    expect(test.body).toEqual({ channel: 'push', sent_to: '1 browser' });
    // Forgotten: nothing to push to.
    await t.call('POST', '/api/notifications/push/subscriptions/remove/', {
      token: owner.token,
      json: { endpoint: laptop.json.endpoint },
    });
    const none = await t.call('POST', '/api/notifications/test/', {
      token: owner.token,
      json: { channel: 'push' },
    });
    expect(none.status).toBe(400);
  });

  it('holds a push through quiet hours', async () => {
    const quiet = { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' };
    const profile = {
      ...DEFAULT_NOTIFICATION_PROFILE,
      events: { ...DEFAULT_NOTIFICATION_PROFILE.events, integration_failed: ['push'] },
      quiet_hours: quiet,
    };
    expect(
      (await t.call('PUT', '/api/notification-profile/', { token: owner.token, json: profile })).status,
    ).toBe(200);
    t.app.notifications.clock = () => new Date('2026-01-10T23:30:00Z'); // 00:30 in Paris
    await notifyIntegrationFailed(t.app, owner.user.id, {
      title: 'Slack stopped working',
      reason: 'token_revoked',
    });
    const [row] = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.ownerId, owner.user.id))
      .orderBy(desc(notifications.id))
      .limit(1);
    expect(await deliverNotificationPush(t.app, row!.id)).toBe('held');
    t.app.notifications.clock = () => new Date('2026-01-11T06:00:00Z'); // 07:00 in Paris
    expect(await deliverNotificationPush(t.app, row!.id)).toBe('sent');
    t.app.notifications.clock = () => new Date();
  });

  it('refuses a subscription that is not a push endpoint', async () => {
    const res = await t.call('POST', '/api/notifications/push/subscriptions/', {
      token: owner.token,
      json: { endpoint: 'javascript:alert(1)', keys: { p256dh: 'x', auth: 'y' } },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain('endpoint');
  });
});
