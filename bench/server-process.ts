/**
 * A real Cairn server process for the benches that measure through the API, as `npm start` runs
 * it: its own data dir (removed afterwards), PGlite or a throwaway PostgreSQL database created next
 * to `--database-url` (dropped afterwards), and its peak resident memory (VmHWM) sampled.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery, apiCaller, argValue } from './lib.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `built`: run apps/api/dist/server.js as `npm start` does (build it first: `node scripts/ensure-build.mjs`).
 * `env`: extra environment for the server.
 * `dataDir` / `databaseUrl`: data the bench prepared and keeps (neither is removed at `stop`), so a
 * bench can stop the server, write into its database and start it again on the same data.
 */
export async function startServerProcess(
  label: string,
  port: number,
  options: { built?: boolean; env?: Record<string, string>; dataDir?: string; databaseUrl?: string } = {},
) {
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(() => base);
  const adminUrl = options.databaseUrl ? undefined : argValue('--database-url');
  const throwaway = `cairn_bench_${label}_${process.pid}`;
  let databaseUrl = options.databaseUrl;
  if (adminUrl) {
    await adminQuery(adminUrl, `CREATE DATABASE ${throwaway}`);
    const u = new URL(adminUrl);
    u.pathname = `/${throwaway}`;
    databaseUrl = u.toString();
  }
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `cairn-bench-${label}-`));
  const args = options.built
    ? ['--max-semi-space-size=4', 'apps/api/dist/server.js']
    : ['--import', 'tsx', 'apps/api/src/server.ts'];
  const server = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      ...(options.built && { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl ?? '',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let peakRssKb = 0;
  const sampler = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
      peakRssKb = Math.max(peakRssKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Not on Linux, or the process is gone.
    }
  }, 200);

  async function stop() {
    clearInterval(sampler);
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${throwaway} WITH (FORCE)`);
  }

  /** Register → e-mailed verification link (from the outbox files) → login, as a person would. */
  async function signUp(): Promise<string> {
    const email = `bench-${Date.now()}@example.com`;
    const password = 'granite-lantern-49';
    await call('POST', '/api/register/', undefined, { email, username: email, password });
    const outbox = path.join(dataDir, 'outbox');
    for (let i = 0; i < 100; i++) {
      for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
        const raw = fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
        const token = /verify-email\?token=([\w-]+)/.exec(raw)?.[1];
        if (raw.includes(email) && token) {
          await call('POST', '/api/verify-email/', undefined, { token });
          return (await call<{ token: string }>('POST', '/api/login/', undefined, { email, password })).token;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no verification e-mail');
  }

  /** CPU time (user + system, all threads) the server process has used so far, in seconds (Linux; 0 elsewhere). */
  function cpuSeconds(): number {
    try {
      // The fields after the command's name: utime and stime are the 12th and 13th, in clock ticks (100/s).
      const fields = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return 0;
    }
  }

  try {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error('the server exited');
      if (i > 600) throw new Error('the server did not start');
      try {
        if ((await fetch(`${base}/api/health/`)).ok) break;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    base,
    call,
    dataDir,
    signUp,
    stop,
    cpuSeconds,
    pid: server.pid!,
    peakRssMb: () => peakRssKb / 1024,
  };
}
