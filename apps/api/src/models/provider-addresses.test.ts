import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { postWebhook } from '../modules/webhooks/post-webhook.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { isLocalInstance, parsePrivateHosts } from './provider-url.ts';

/** Every spelling of a loopback, private, link-local, metadata or not-a-host address we know of. */
const REFUSED_SPELLINGS = [
  'http://[::a9fe:a9fe]',
  'http://[64:ff9b::a9fe:a9fe]',
  'http://[64:ff9b:1::a9fe:a9fe]',
  'http://[::ffff:169.254.169.254]',
  'http://[::ffff:a9fe:a9fe]',
  'http://[::ffff:0:a9fe:a9fe]',
  'http://[2002:a9fe:a9fe::]',
  'http://[2001:0:4136:e378:8000:63bf:5601:5601]',
  'http://169.254.169.254',
  'http://2852039166',
  'http://0251.0376.0251.0376',
  'http://0xa9fea9fe',
  'http://0xa9.0xfe.0xa9.0xfe',
  'http://127.1:11434',
  'http://127.0.0.1:11434',
  'http://2130706433:11434',
  'http://[::1]:11434',
  'http://[::ffff:127.0.0.1]:11434',
  'http://localhost:11434',
  'http://0.0.0.0:11434',
  'http://0:11434',
  'http://[::]:11434',
  'http://10.0.0.5:8000',
  'http://172.16.0.1',
  'http://192.168.1.20:11434',
  'http://100.64.0.1',
  'http://100.100.100.200',
  'http://[fc00::1]',
  'http://[fd12:3456::1]:11434',
  'http://[fd00:ec2::254]',
  'http://[fe80::1]',
  'http://224.0.0.1',
  'http://255.255.255.255',
];

let answer: Array<{ address: string; family: number }> | Error;
const resolver = async () => {
  if (answer instanceof Error) throw answer;
  return answer;
};

let fake: FakeOpenAI;
const fakePort = () => new URL(fake.origin).port;
let closedPort: number;
let shared: TestApp;
let listed: TestApp;
let local: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['llama3'] });
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  // An instance others reach (PUBLIC_URL public), with nothing listed…
  shared = await startTestApp({
    publicUrl: 'https://cairn.example.com',
    providerAddresses: { localInstance: false, allowed: [], resolver },
  });
  // …one whose operator listed what its tenants may reach…
  listed = await startTestApp({
    publicUrl: 'https://cairn.example.com',
    providerAddresses: {
      localInstance: false,
      allowed: parsePrivateHosts(
        `127.0.0.1:11434,[::1]:11434, 10.0.0.0/8 169.254.169.254 ollama.internal:11434 127.0.0.1:${fakePort()} 127.0.0.1:${closedPort}`,
      ),
      resolver,
    },
  });
  // …and a local install (the default: PUBLIC_URL on localhost).
  local = await startTestApp();
});
afterAll(async () => {
  await Promise.all([shared.close(), listed.close(), local.close(), fake.close()]);
});

async function createProvider(t: TestApp, token: string, baseUrl: string | undefined) {
  return t.call<{ uuid: string; errors?: Record<string, string[]> }>('POST', '/api/model-providers/', {
    token,
    json: { kind: 'ollama', name: 'Ollama', ...(baseUrl !== undefined && { base_url: baseUrl }) },
  });
}

describe('model-provider base URLs on an instance others reach', () => {
  it('refuses every spelling of a private, loopback, link-local or metadata address, and says how to allow it', async () => {
    answer = [{ address: '93.184.216.34', family: 4 }];
    const { token } = await shared.signUp();
    for (const url of REFUSED_SPELLINGS) {
      // `localhost` is a name: it resolves to loopback.
      answer = [{ address: '127.0.0.1', family: 4 }];
      const res = await createProvider(shared, token, url);
      expect(res.status, url).toBe(400);
      expect(res.body.errors?.base_url?.[0], url).toMatch(
        /may only use those\. The operator of this server can allow it with PROVIDER_PRIVATE_HOSTS \(for example PROVIDER_PRIVATE_HOSTS=.+:\d+\)\.$/,
      );
    }
    // The default Ollama URL (localhost:11434) too.
    expect((await createProvider(shared, token, undefined)).status).toBe(400);
    // A public address is fine.
    answer = [{ address: '93.184.216.34', family: 4 }];
    expect((await createProvider(shared, token, 'https://models.example.com/v1')).status).toBe(201);
  });

  it('refuses a name that resolves to a private address without telling the address', async () => {
    const { token } = await shared.signUp();
    answer = [
      { address: '93.184.216.34', family: 4 },
      { address: '10.20.30.40', family: 4 },
    ];
    const res = await createProvider(shared, token, 'http://models.internal.example:8000');
    expect(res.status).toBe(400);
    expect(res.body.errors?.base_url?.[0]).toBe(
      'models.internal.example points to an address that is not on the public internet, and model providers on this server may only use those. The operator of this server can allow it with PROVIDER_PRIVATE_HOSTS (for example PROVIDER_PRIVATE_HOSTS=models.internal.example:8000).',
    );
    expect(JSON.stringify(res.body)).not.toContain('10.20.30.40');
  });

  it('answers the same for a closed port, a filtered one, an unknown host and an address that DNS turned private after saving', async () => {
    const { token } = await listed.signUp();
    answer = [{ address: '93.184.216.34', family: 4 }];
    const saved = await createProvider(listed, token, `http://models.example.net:${closedPort}`);
    expect(saved.status).toBe(201);
    const detailWhen = async (dns: typeof answer) => {
      answer = dns;
      const res = await listed.call<{ ok: boolean; detail: string }>(
        'POST',
        `/api/model-providers/${saved.body.uuid}/test-connection/`,
        { token },
      );
      expect(res.status).toBe(200);
      return JSON.stringify(res.body);
    };
    // Refused before connecting: not listed, or listed for other ports only.
    const refusedPrivate = await detailWhen([{ address: '172.20.0.9', family: 4 }]);
    const refusedLoopback = await detailWhen([{ address: '::1', family: 6 }]);
    const unknownHost = await detailWhen(
      Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
    );
    // Listed: connects, and the port is closed (127.0.0.1) or nothing answers (10.255.255.1, filtered).
    const closed = await detailWhen([{ address: '127.0.0.1', family: 4 }]);
    const filtered = await detailWhen([{ address: '10.255.255.1', family: 4 }]);
    const expected = JSON.stringify({
      ok: false,
      detail: `Could not reach the model provider "Ollama" at http://models.example.net:${closedPort}. Check that it is running and that this server can reach it; a provider on a private network must also be allowed by the operator (PROVIDER_PRIVATE_HOSTS).`,
      models: [],
    });
    expect([refusedPrivate, refusedLoopback, unknownHost, closed, filtered]).toEqual(Array(5).fill(expected));
  }, 30_000);

  it('reaches what the operator listed, connecting to the address it checked', async () => {
    const { token } = await listed.signUp();
    answer = [{ address: '93.184.216.34', family: 4 }];
    for (const url of [
      'http://127.0.0.1:11434',
      'http://[::1]:11434',
      'http://10.1.2.3:8000',
      'http://169.254.169.254',
    ]) {
      expect((await createProvider(listed, token, url)).status, url).toBe(201);
    }
    // A listed name may resolve to a private address; an unlisted port of a listed address may not be used.
    answer = [{ address: '172.20.9.9', family: 4 }];
    expect((await createProvider(listed, token, 'http://ollama.internal:11434')).status).toBe(201);
    expect((await createProvider(listed, token, 'http://127.0.0.1:11435')).status).toBe(400);
    expect((await createProvider(listed, token, 'http://ollama.internal:8080')).status).toBe(400);
    // models.test has no DNS of its own: the connection goes to the checked (listed) address.
    answer = [{ address: '93.184.216.34', family: 4 }];
    const saved = await createProvider(listed, token, `http://models.test:${fakePort()}`);
    expect(saved.status).toBe(201);
    answer = [{ address: '127.0.0.1', family: 4 }];
    const ok = await listed.call('POST', `/api/model-providers/${saved.body.uuid}/test-connection/`, {
      token,
    });
    expect(ok.body).toEqual({ ok: true, models: ['llama3'] });
  });
});

describe('a local install (PUBLIC_URL on localhost, the default)', () => {
  it('accepts a local Ollama out of the box, and still refuses metadata addresses', async () => {
    const { token } = await local.signUp();
    expect((await createProvider(local, token, undefined)).status).toBe(201);
    expect((await createProvider(local, token, 'http://127.0.0.1:11434')).status).toBe(201);
    expect((await createProvider(local, token, 'http://192.168.1.20:11434')).status).toBe(201);
    for (const url of [
      'http://[::a9fe:a9fe]',
      'http://[64:ff9b::a9fe:a9fe]',
      'http://0xa9fea9fe',
      'http://[::]:11434',
    ]) {
      expect((await createProvider(local, token, url)).status, url).toBe(400);
    }
  });

  it('is what PUBLIC_URL says', () => {
    expect(
      loadConfig({ DATA_DIR: '/tmp/cairn-config-test', SECRET_KEY: 'x'.repeat(32) }).providerAddresses,
    ).toEqual({
      localInstance: true,
      allowed: [],
    });
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1',
      'http://10.0.0.2:3000',
      'http://cairn.lan',
      'http://box',
    ]) {
      expect(isLocalInstance(url), url).toBe(true);
    }
    for (const url of ['https://cairn.example.com', 'http://203.0.113.7', 'https://chat.acme.io']) {
      expect(isLocalInstance(url), url).toBe(false);
    }
    expect(() => loadConfig({ SECRET_KEY: 'x'.repeat(32), PROVIDER_PRIVATE_HOSTS: '10.0.0.0/99' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ SECRET_KEY: 'x'.repeat(32), PROVIDER_PRIVATE_HOSTS: 'host:99999' })).toThrow(
      ConfigError,
    );
  });
});

describe('webhook errors', () => {
  it('never tell what a name resolves to, and say how to allow a receiver while testing', async () => {
    const error = await postWebhook('http://hooks.internal.example/cairn', '{}', {
      headers: {},
      timeoutMs: 2000,
      allowLoopback: false,
      userAgent: 'test',
      resolver: async () => [{ address: '10.0.0.7', family: 4 }],
    }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'Blocked address: hooks.internal.example points to an address that is not on the public internet. Only public web addresses can be fetched. To reach this machine while testing, start Cairn with ALLOW_PRIVATE_URLS=true.',
    );
  });
});
