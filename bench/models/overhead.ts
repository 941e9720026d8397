/**
 * What the model layer itself costs, against a local OpenAI-compatible server that answers at once:
 * - secret box: seal and open of an API key (µs per operation);
 * - resolveTextModel: database lookup + key decryption + SDK model (ms);
 * - a streamed answer of 200 words through `TextModel.generate`: time to first text and to the end,
 *   and this process's CPU per answer, compared with reading the same SSE stream with plain fetch
 *   (the wrapper's overhead). The model server runs in a process of its own.
 *
 * With `--rtt MS` the model server is reached through a proxy that holds every chunk MS/2 in each
 * direction, as a provider MS away would be: a new connection per call costs one more round trip
 * (two or three with TLS), which a kept-alive connection saves.
 *
 *   npx tsx bench/models/overhead.ts [--rounds 200] [--rtt 20]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { openDatabase } from '@cairn/db/client';
import { modelProviders, providerModels, users } from '@cairn/db/schema';
import { createSecretBox } from '../../apps/api/src/lib/secret-box.ts';
import { keyContext } from '../../apps/api/src/models/provider-secrets.ts';
import { resolveTextModel } from '../../apps/api/src/models/resolve-text-model.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const ROUNDS = Number(arg('--rounds') ?? 200);
const RTT = Number(arg('--rtt') ?? 0);
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const fmt = (values: number[], unit = 'ms', digits = 2) =>
  `p50 ${pct(values, 50).toFixed(digits)} ${unit}, p95 ${pct(values, 95).toFixed(digits)} ${unit}`;

const box = createSecretBox(randomBytes(32).toString('base64url'));
const key = `sk-${randomBytes(24).toString('hex')}`;
{
  const n = 20_000;
  let sealed = '';
  let t = performance.now();
  for (let i = 0; i < n; i++) sealed = box.seal(key, keyContext('x'));
  const sealUs = ((performance.now() - t) * 1000) / n;
  t = performance.now();
  for (let i = 0; i < n; i++) box.open(sealed, keyContext('x'));
  const openUs = ((performance.now() - t) * 1000) / n;
  console.log(`secret box: seal ${sealUs.toFixed(1)} µs, open ${openUs.toFixed(1)} µs (${n} each)`);
}

const reply = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
const fake = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(import.meta.dirname, '../chat/model-server.ts'), 'bench-chat', reply],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const fakeUrl = await new Promise<string>((resolve, reject) => {
  fake.stdout.once('data', (line: Buffer) => resolve(String(line).trim().split('\n')[0]!));
  fake.once('exit', (code) => reject(new Error(`model server exited (${code})`)));
});

/** A TCP proxy to the model server that delays each chunk by half the round trip in each direction. */
async function distant(target: URL, rttMs: number): Promise<{ url: string; close(): void }> {
  const relay = (from: net.Socket, to: net.Socket, heldUntil: number) => {
    const later = (fn: () => void) => setTimeout(fn, Math.max(rttMs / 2, heldUntil - performance.now()));
    from.on('data', (chunk) => later(() => to.write(chunk)));
    from.on('end', () => later(() => to.end()));
    from.on('error', () => to.destroy());
  };
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    // A local connect is instant; a distant one takes a round trip before the first byte can go.
    relay(client, upstream, performance.now() + rttMs * 1.5);
    relay(upstream, client, 0);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}${target.pathname}`, close: () => proxy.close() };
}
const modelServer = RTT ? await distant(new URL(fakeUrl), RTT) : { url: fakeUrl, close() {} };
const database = await openDatabase({});
await database.migrate();
const ctx = { database, secrets: box, config: { providerAddresses: { localInstance: true, allowed: [] } } };
const [user] = await database.db
  .insert(users)
  .values({ email: 'bench@example.com', username: 'bench@example.com', passwordHash: 'x' })
  .returning();
const uuid = crypto.randomUUID();
const [provider] = await database.db
  .insert(modelProviders)
  .values({
    uuid,
    ownerId: user!.id,
    kind: 'openai_compatible',
    name: 'bench',
    baseUrl: modelServer.url,
    keyCiphertext: box.seal(key, keyContext(uuid)),
    keyLast4: key.slice(-4),
  })
  .returning();
const [model] = await database.db
  .insert(providerModels)
  .values({ providerId: provider!.id, name: 'bench-chat', modelType: 'text' })
  .returning();
const ref = {
  uuid: model!.uuid,
  name: 'bench-chat',
  provider: 'openai_compatible',
  model_type: 'text' as const,
};

const resolveMs: number[] = [];
const firstMs: number[] = [];
const totalMs: number[] = [];
const rawFirstMs: number[] = [];
const rawTotalMs: number[] = [];
/** This process's CPU (µs) in the measured rounds: the wrapper's calls and the plain fetches. */
let generateCpu = 0;
let rawCpu = 0;
const cpuOf = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};
for (let round = 0; round < ROUNDS + 10; round++) {
  const warm = round >= 10;
  let cpu = process.cpuUsage();
  let t = performance.now();
  const textModel = await resolveTextModel(ctx, user!.id, ref);
  const resolved = performance.now() - t;
  t = performance.now();
  const generation = textModel.generate({
    system: 'bench',
    messages: [{ role: 'user', content: 'go' }],
    temperature: 0,
  });
  let first = 0;
  let text = '';
  for await (const piece of generation.textStream) {
    if (!first) first = performance.now() - t;
    text += piece;
  }
  const total = performance.now() - t;
  if (warm) generateCpu += cpuOf(cpu);
  if (text !== reply) throw new Error('unexpected answer');

  cpu = process.cpuUsage();
  t = performance.now();
  const res = await fetch(`${modelServer.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-chat', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  let rawFirst = 0;
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    if (!rawFirst && decoder.decode(chunk).includes('"content":"word0')) rawFirst = performance.now() - t;
  }
  const rawTotal = performance.now() - t;
  if (warm) rawCpu += cpuOf(cpu);
  if (!warm) continue;
  resolveMs.push(resolved);
  firstMs.push(first);
  totalMs.push(total);
  rawFirstMs.push(rawFirst);
  rawTotalMs.push(rawTotal);
}
console.log(
  `rounds: ${ROUNDS} (after 10 warm-up), database: PGlite in memory, answer: 200 words in 201 SSE chunks, round trip to the model server: ${RTT} ms`,
);
console.log(`resolveTextModel (lookup + decrypt + SDK model): ${fmt(resolveMs)}`);
console.log(`TextModel.generate first text: ${fmt(firstMs)}; whole answer: ${fmt(totalMs)}`);
console.log(`plain fetch of the same stream, first chunk: ${fmt(rawFirstMs)}; whole: ${fmt(rawTotalMs)}`);
console.log(
  `this process's CPU per answer: resolve + generate ${(generateCpu / ROUNDS / 1000).toFixed(2)} ms, plain fetch ${(rawCpu / ROUNDS / 1000).toFixed(2)} ms`,
);
modelServer.close();
fake.kill();
await database.close();
