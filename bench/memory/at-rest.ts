/**
 * A Cairn server at rest on PGlite, started as `npm start` starts it: resident memory of the whole
 * process tree, start-to-healthy time, and the first start's peak (VmHWM: the server's own when
 * its new data dir is copied from the build's template, PGlite's initdb process when it is not).
 *
 * Each run: build what is missing (not timed, as on a built checkout) → run the start command on a
 * fresh DATA_DIR → healthy → sign up through the outbox → an application with a few knowledge items
 * → one chat question answered → 10 s idle → RSS of every process in the tree. Then the server is
 * stopped and started again on the same data (a restart: no initdb, no migrations).
 *
 *   npx tsx bench/memory/at-rest.ts [--runs 3] [--command "<shell command>"] [--idle-seconds 10]
 *
 * `--command` defaults to the `start` script of package.json, run by `sh -c` as npm runs it (npm's
 * own wrapper process, about 60 MB, is left out). Pass the old script to measure before a change.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, signUpOverHttp } from '../../apps/api/src/testing/server-process.ts';
import { waitFor } from '../../apps/api/src/testing/wait-for.ts';
import { apiCaller, argValue } from '../lib.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_RSS_MB = 300;
const TARGET_START_S = 2;
const runs = Number(argValue('--runs') ?? 3);
const idleSeconds = Number(argValue('--idle-seconds') ?? 10);
const startScript = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts.start as string;
const command = argValue('--command') ?? startScript;

interface Proc {
  pid: number;
  name: string;
  rssKb: number;
  hwmKb: number;
}

function readProc(pid: number): Proc | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const name = cmdline
      .map((a) => path.basename(a))
      .join(' ')
      .slice(0, 60);
    return { pid, name, rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The process and all its descendants (from /proc/<pid>/task/<tid>/children). */
function tree(pid: number): Proc[] {
  const found: Proc[] = [];
  const visit = (p: number) => {
    const proc = readProc(p);
    if (!proc) return;
    found.push(proc);
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let children = '';
      try {
        children = fs.readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean)) visit(Number(child));
    }
  };
  visit(pid);
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the command; resolves when /api/health/ answers 200, with the time it took and the tree's peak. */
async function start(dataDir: string, port: number) {
  const started = performance.now();
  const child = spawn('sh', ['-c', command], {
    cwd: root,
    env: {
      ...process.env,
      // As npm run-script does: the workspace's binaries (tsx, react-router) come first.
      PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // As a user's shell has it: the start command decides (npm start sets production).
      NODE_ENV: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // VmHWM is per process and gone with it, so it is sampled (initdb's child, when there is one, is short-lived).
  let peakKb = 0;
  const sample = () => {
    for (const p of tree(child.pid!)) peakKb = Math.max(peakKb, p.hwmKb);
  };
  const sampler = setInterval(sample, 50);
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/health/`)).ok;
        } catch {
          return false; // not listening yet
        }
      },
      { what: 'the server to answer its health check', timeoutMs: 120_000, intervalMs: 20 },
    );
  } catch (error) {
    clearInterval(sampler);
    stop(child.pid!);
    throw error;
  }
  const healthyMs = performance.now() - started;
  sample();
  clearInterval(sampler);
  return { pid: child.pid!, healthyMs, peakKb, exited: new Promise((r) => child.once('exit', r)) };
}

function stop(pid: number) {
  try {
    // The whole group: tsx and its child, or the one server process.
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** Register → e-mailed verification link (outbox) → login; an application with knowledge; one answer. */
async function exercise(base: string, dataDir: string) {
  const call = apiCaller(() => base);
  const { token } = await signUpOverHttp(base, dataDir, `memory-${Date.now()}@example.com`);
  const me = await call<{ sender_identifier: string }>('GET', '/api/me/', token);

  const form = new FormData();
  form.set('name', 'Memory bench');
  const texts = [
    ['Opening hours', 'We open at 9 in the morning and close at 6 in the evening, Monday to Saturday.'],
    ['Returns', 'Items can be returned within 30 days with the receipt. Refunds take five working days.'],
    ['Delivery', 'Orders above 50 euros ship free. Standard delivery takes two to four days.'],
    ['Contact', 'Write to help@example.com or call the shop; we answer within one working day.'],
  ];
  texts.forEach(([title, value], i) => {
    form.set(`items[${i}].type`, 'text');
    form.set(`items[${i}].title`, title as string);
    form.set(`items[${i}].value`, value as string);
  });
  const app = await call<{ uuid: string }>('POST', '/api/applications/', token, form);
  for (let i = 0; ; i++) {
    const items = await call<Array<{ status: string }>>(
      'GET',
      `/api/applications/${app.uuid}/knowledge/`,
      token,
    );
    if (items.length === texts.length && items.every((item) => item.status === 'ready')) break;
    if (items.some((item) => item.status === 'failed') || i > 300)
      throw new Error('knowledge did not become ready');
    await sleep(100);
  }

  const sent = await call<{ chatroom: { uuid: string }; answer: { uuid: string } }>(
    'POST',
    `/api/applications/${app.uuid}/chatrooms/send-message/`,
    token,
    {
      chatroom_identifier: 'new_chat',
      message: 'When do you open?',
      sender_identifier: me.sender_identifier,
    },
  );
  for (let i = 0; ; i++) {
    const { messages } = await call<{ messages: Array<{ uuid: string; status: string }> }>(
      'GET',
      `/api/applications/${app.uuid}/chatrooms/${sent.chatroom.uuid}/messages/`,
      token,
    );
    const status = messages.find((m) => m.uuid === sent.answer.uuid)?.status;
    if (status === 'complete') break;
    if (status === 'failed' || i > 300) throw new Error(`the answer did not complete (${status})`);
    await sleep(100);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const mb = (kb: number) => kb / 1024;

console.log(`command: ${command}`);
// A built checkout: whatever the start command builds on a first start is built now, untimed.
if (command === startScript) {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'inherit' });
}

const results: Array<{
  firstMs: number;
  firstPeakMb: number;
  healthyRssMb: number;
  rssMb: number;
  procs: number;
  restartMs: number;
}> = [];
for (let run = 1; run <= runs; run++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-memory-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  try {
    const first = await start(dataDir, port);
    const healthyKb = tree(first.pid).reduce((sum, p) => sum + p.rssKb, 0);
    await exercise(base, dataDir);
    await sleep(idleSeconds * 1000);
    const procs = tree(first.pid);
    const rssKb = procs.reduce((sum, p) => sum + p.rssKb, 0);
    stop(first.pid);
    await first.exited;
    const again = await start(dataDir, port);
    stop(again.pid);
    await again.exited;
    results.push({
      firstMs: first.healthyMs,
      firstPeakMb: mb(first.peakKb),
      rssMb: mb(rssKb),
      healthyRssMb: mb(healthyKb),
      procs: procs.length,
      restartMs: again.healthyMs,
    });
    console.log(
      `run ${run}: at rest ${mb(rssKb).toFixed(0)} MB RSS in ${procs.length} process(es) ` +
        `[${procs.map((p) => `${p.name}: ${mb(p.rssKb).toFixed(0)} MB`).join('; ')}]; ` +
        `${mb(healthyKb).toFixed(0)} MB when first healthy; first start healthy in ${(first.healthyMs / 1000).toFixed(2)} s (peak ${mb(first.peakKb).toFixed(0)} MB); ` +
        `restart healthy in ${(again.healthyMs / 1000).toFixed(2)} s`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const m = (key: keyof (typeof results)[number]) => median(results.map((r) => r[key]));
console.log(`\nmedian of ${results.length} run(s)                       measured   target`);
console.log(
  `RSS at rest (${idleSeconds} s after one answer), all processes  ${m('rssMb').toFixed(0).padStart(6)} MB   ≤ ${TARGET_RSS_MB} MB`,
);
console.log(
  `RSS when first healthy (before any request)          ${m('healthyRssMb').toFixed(0).padStart(6)} MB`,
);
console.log(`processes                                            ${String(m('procs')).padStart(6)}      1`);
console.log(
  `start to healthy, restart (built checkout)           ${(m('restartMs') / 1000).toFixed(2).padStart(6)} s    ≤ ${TARGET_START_S} s`,
);
console.log(
  `start to healthy, first start (fresh DATA_DIR)       ${(m('firstMs') / 1000).toFixed(2).padStart(6)} s    ≤ ${TARGET_START_S} s`,
);
console.log(
  `first-start peak (largest VmHWM of the tree)         ${m('firstPeakMb').toFixed(0).padStart(6)} MB   (initdb's: ~730 MB)`,
);
