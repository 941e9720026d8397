/**
 * A real Cairn server process for the benches that measure through the API, as `npm start` runs
 * it: its own data dir (removed afterwards), PGlite or a throwaway PostgreSQL database created next
 * to `--database-url` (dropped afterwards), and its peak resident memory (VmHWM) sampled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signUpOverHttp, startServer, waitHealthy } from '../apps/api/src/testing/server-process.ts';
import { adminQuery, apiCaller, argValue } from './lib.ts';

/**
 * `built`: run apps/api/dist/server.js as `npm start` does (build it first: `node scripts/ensure-build.mjs`).
 * `env`: extra environment for the server.
 * `storage`: the caller's data dir and database (its PostgreSQL URL, or none for PGlite in the data
 * dir), kept on stop: a bench that fills the database itself between two runs of the server.
 */
export async function startServerProcess(
  label: string,
  port: number,
  options: {
    built?: boolean;
    env?: Record<string, string>;
    storage?: { dataDir: string; databaseUrl: string | undefined };
  } = {},
) {
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(() => base);
  const adminUrl = options.storage ? undefined : argValue('--database-url');
  const throwaway = `cairn_bench_${label}_${process.pid}`;
  let databaseUrl = options.storage?.databaseUrl;
  if (adminUrl) {
    await adminQuery(adminUrl, `CREATE DATABASE ${throwaway}`);
    const u = new URL(adminUrl);
    u.pathname = `/${throwaway}`;
    databaseUrl = u.toString();
  }
  const dataDir = options.storage?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `cairn-bench-${label}-`));
  const server = startServer(
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl ?? '',
      ...options.env,
    },
    [],
    { built: options.built, inherit: true },
  );
  const { pid } = server.child;
  let peakRssKb = 0;
  const sampler = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      peakRssKb = Math.max(peakRssKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Not on Linux, or the process is gone.
    }
  }, 200);

  async function stop() {
    clearInterval(sampler);
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (!options.storage) fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${throwaway} WITH (FORCE)`);
  }

  /** Register → e-mailed verification link (from the outbox files) → login, as a person would. */
  async function signUp(): Promise<string> {
    return (await signUpOverHttp(base, dataDir, `bench-${Date.now()}@example.com`)).token;
  }

  /** CPU time (user + system, all threads) the server process has used so far, in seconds (Linux; 0 elsewhere). */
  function cpuSeconds(): number {
    try {
      // The fields after the command's name: utime and stime are the 12th and 13th, in clock ticks (100/s).
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return 0;
    }
  }

  try {
    await waitHealthy(port, server.exited);
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
    pid: pid!,
    peakRssMb: () => peakRssKb / 1024,
  };
}
