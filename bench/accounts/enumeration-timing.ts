/**
 * Does an account endpoint take longer for an address that has an account? Times POST
 * /api/forgot-password/ and POST /api/register/ for existing and unknown addresses, interleaved,
 * against a real server process (PGlite), and prints the median and p90 of each (ms, client side).
 *
 *   npx tsx bench/accounts/enumeration-timing.ts [--samples 20] [--database-url postgres://…]
 *
 * Each request names its own client address (X-Forwarded-For through TRUST_PROXY=127.0.0.1) so the
 * per-address limits do not interfere; each existing address is asked once (per-account limits).
 */
import { argValue } from '../lib.ts';
import { startServerProcess } from '../server-process.ts';

const samples = Number(argValue('--samples') ?? 20);
const warmup = 3;
const port = 3900 + Math.floor(Math.random() * 90);
const server = await startServerProcess('enum', port, { env: { TRUST_PROXY: '127.0.0.1' } });
let addressCounter = 0;
const nextAddress = () => {
  addressCounter++;
  return `10.${Math.floor(addressCounter / 250) + 1}.${addressCounter % 250}.7`;
};

async function timed(path: string, body: unknown): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify(body),
  });
  await res.text();
  const ms = performance.now() - start;
  if (res.status >= 300) throw new Error(`${path} → ${res.status}`);
  return ms;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms`;
};

try {
  const password = 'granite-lantern-49';
  const existing = Array.from(
    { length: 2 * (samples + warmup) },
    (_, i) => `owner-${i}-${process.pid}@example.com`,
  );
  for (const email of existing) await timed('/api/register/', { email, username: email, password });

  const forgot = { existing: [] as number[], unknown: [] as number[] };
  const register = { existing: [] as number[], unknown: [] as number[] };
  // Each round asks the four kinds in a random order, with a pause after each so that one
  // request's after-response mail does not land on the next one's clock.
  for (let i = 0; i < samples + warmup; i++) {
    const taken = existing[samples + warmup + i]!;
    const fresh = `new-${i}-${process.pid}@example.com`;
    const kinds: Array<[number[], string, unknown]> = [
      [forgot.existing, '/api/forgot-password/', { email: existing[i] }],
      [forgot.unknown, '/api/forgot-password/', { email: `ghost-${i}-${process.pid}@example.com` }],
      [register.existing, '/api/register/', { email: taken, username: taken, password }],
      [register.unknown, '/api/register/', { email: fresh, username: fresh, password }],
    ];
    kinds.sort(() => Math.random() - 0.5);
    for (const [into, path, body] of kinds) {
      const ms = await timed(path, body);
      if (i >= warmup) into.push(ms);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  console.log(`forgot-password, address with an account:  ${stats(forgot.existing)}`);
  console.log(`forgot-password, address without one:      ${stats(forgot.unknown)}`);
  console.log(`register, address with an account:         ${stats(register.existing)}`);
  console.log(`register, new address:                     ${stats(register.unknown)}`);
  console.log(`(${samples} samples each after ${warmup} warm-up rounds, shuffled, 100 ms apart)`);
} finally {
  await server.stop();
}
