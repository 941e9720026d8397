/**
 * Answers in flight when a server process stops (decision 052): for `--answers` (50) answers
 * streaming from a slow model server, stop the process with SIGKILL or SIGTERM, start it again, and
 * print how many answers completed and the longest extra wait (the slowest answer's time to complete
 * minus that of the slowest of the same batch undisturbed). With `--database-url`, on PostgreSQL, also two processes: one is
 * killed (or stopped with a 1 s drain) while the other runs, and answers move to the survivor.
 *
 *   npx tsx bench/drain/run.ts [--database-url postgres://…] [--answers 50] [--runs 3]
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type AskedAnswer,
  ask,
  providerApplication,
  watchAnswers,
} from '../../apps/api/src/testing/answer-fleet.ts';
import { startFakeOpenAI } from '../../apps/api/src/testing/fake-openai-server.ts';
import {
  freePort,
  type ServerProcess,
  signUpOverHttp,
  startServer,
  waitHealthy,
} from '../../apps/api/src/testing/server-process.ts';
import { adminQuery, argValue } from '../lib.ts';

const adminUrl = argValue('--database-url');
const ANSWERS = Number(argValue('--answers') ?? 50);
const RUNS = Number(argValue('--runs') ?? 3);
/** 30 words, 200 ms apart: an undisturbed answer streams for about six seconds. */
const REPLY = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

type Scenario = 'kill' | 'sigterm' | 'two-kill' | 'two-sigterm';
interface Result {
  completed: number;
  /** Longest extra wait of an answer, seconds. */
  longestExtra: number;
  /** The slowest answer of the undisturbed batch, seconds. */
  undisturbed: number;
  /** Signal → the process that finishes the answers serves again (restart, or 0 for a survivor). */
  downSeconds: number;
}

const children: ServerProcess['child'][] = [];
/** Not ended yet: a process ended by a signal (the SIGKILL here) keeps a null `exitCode`. */
const running = (child: ServerProcess['child']) => child.exitCode === null && child.signalCode === null;
process.on('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL');
});

async function environment() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-drain-'));
  let databaseUrl = '';
  let name = '';
  if (adminUrl) {
    name = `cairn_bench_drain_${randomBytes(4).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  return {
    dataDir,
    databaseUrl,
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (name) await adminQuery(adminUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function run(scenario: Scenario, modelUrl: string): Promise<Result> {
  const env = await environment();
  try {
    const two = scenario.startsWith('two');
    // Two processes: the stopped one hands its answers to the survivor after one second. Alone, the
    // default drain (30 s) lets them finish.
    const drainSeconds = scenario === 'two-sigterm' ? 1 : 30;
    const firstPort = await freePort();
    const first = startServer(serverEnv(env, firstPort, drainSeconds), children);
    await waitHealthy(firstPort, first.exited, 300_000);
    const survivorPort = two ? await freePort() : firstPort;
    const survivor = two ? startServer(serverEnv(env, survivorPort, drainSeconds), children) : null;
    if (survivor) await waitHealthy(survivorPort, survivor.exited, 300_000);
    const firstBase = `http://127.0.0.1:${firstPort}`;
    const finishingBase = `http://127.0.0.1:${survivorPort}`;

    progress(`${scenario}: up`);
    const user = await signUpOverHttp(firstBase, env.dataDir, `drain-${Date.now()}@example.com`);
    const app = await providerApplication(firstBase, user.token, modelUrl);
    // The same batch undisturbed, for the extra wait: `ANSWERS` answers at once take longer than one.
    const baseline: AskedAnswer[] = [];
    const baselineWatch = watchAnswers(() => firstBase, user.token, app, baseline);
    baseline.push(...(await askBatch(firstBase, user, app, 'Undisturbed question')));
    await baselineWatch.allFinal(300_000);
    baselineWatch.close();
    const undisturbedMs = Math.max(...baseline.map((a) => a.finishedAt! - a.sentAt));

    let base = firstBase;
    const answers: AskedAnswer[] = [];
    const watch = watchAnswers(() => base, user.token, app, answers);
    answers.push(...(await askBatch(firstBase, user, app, 'Question')));
    // Stop mid-stream: once every answer has streamed part of its text.
    for (let i = 0; i < 600 && !answers.every((a) => watch.runsSeen.get(a.uuid)?.has(0)); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    progress(
      `${scenario}: ${answers.filter((a) => watch.runsSeen.get(a.uuid)?.has(0)).length} streaming, stopping`,
    );
    const stoppedAt = Date.now();
    first.child.kill(scenario.endsWith('kill') ? 'SIGKILL' : 'SIGTERM');
    let downMs = 0;
    let settled = false;
    if (two) {
      base = finishingBase;
    } else {
      await first.exited;
      const again = startServer(serverEnv(env, firstPort, drainSeconds), children);
      // Ended before the answers did (a crash, or a signal from elsewhere): say so, with its output.
      void again.exited.then((how) => {
        if (!settled) console.error(`restarted server ended early (${how}):\n${again.output().slice(-3000)}`);
      });
      await waitHealthy(firstPort, again.exited, 300_000);
      downMs = Date.now() - stoppedAt;
    }
    progress(`${scenario}: finishing`);
    await watch.allFinal(300_000).catch(() => {});
    settled = true;
    watch.close();
    const completed = answers.filter((a) => a.final?.status === 'complete' && a.final.message === REPLY);
    const longestExtra = Math.max(
      0,
      ...answers.map((a) => (a.finishedAt ?? Number.POSITIVE_INFINITY) - a.sentAt - undisturbedMs),
    );
    const left = children.filter(running);
    for (const child of left) child.kill('SIGTERM');
    await Promise.all(left.map((c) => new Promise((r) => c.once('exit', r))));
    children.length = 0;
    return {
      completed: completed.length,
      longestExtra: longestExtra / 1000,
      undisturbed: undisturbedMs / 1000,
      downSeconds: downMs / 1000,
    };
  } finally {
    await env.remove();
  }
}

/** `ANSWERS` questions at once, each in a new conversation. */
const askBatch = (base: string, user: { token: string; sender: string }, app: string, question: string) =>
  Promise.all(Array.from({ length: ANSWERS }, (_, i) => ask(base, user, app, `${question} ${i}`)));

function serverEnv(
  env: { dataDir: string; databaseUrl: string },
  port: number,
  drainSeconds: number,
): Record<string, string> {
  return {
    DATA_DIR: env.dataDir,
    DATABASE_URL: env.databaseUrl,
    PORT: String(port),
    ALLOW_PRIVATE_URLS: 'true',
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-drain-secret-key-0123456789abcdef',
    DRAIN_TIMEOUT_SECONDS: String(drainSeconds),
  };
}

/** Where a run is, on stderr: a run takes minutes on a loaded machine. */
const progress = (what: string) => console.error(`  … ${new Date().toISOString().slice(11, 19)} ${what}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const model = await startFakeOpenAI({ models: ['slow-chat'], reply: REPLY, chunkDelayMs: 200 });
  const scenarios: Scenario[] = adminUrl
    ? ['kill', 'sigterm', 'two-kill', 'two-sigterm']
    : ['kill', 'sigterm'];
  console.log(
    `${ANSWERS} answers of ~6 s in flight; ${adminUrl ? 'PostgreSQL' : 'PGlite'}; median of ${RUNS} runs; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const scenario of scenarios) {
    const results: Result[] = [];
    for (let i = 0; i < RUNS; i++) {
      results.push(await run(scenario, model.url));
      const r = results.at(-1)!;
      console.log(
        `  ${scenario} run ${i + 1}: ${r.completed}/${ANSWERS} complete, longest extra wait ${r.longestExtra.toFixed(1)} s (undisturbed batch ${r.undisturbed.toFixed(1)} s), down ${r.downSeconds.toFixed(1)} s`,
      );
    }
    console.log(
      `${scenario.padEnd(12)} completed ${median(results.map((r) => r.completed))}/${ANSWERS}  longest extra wait ${median(results.map((r) => r.longestExtra)).toFixed(1)} s  (undisturbed batch ${median(results.map((r) => r.undisturbed)).toFixed(1)} s; restart to healthy ${median(results.map((r) => r.downSeconds)).toFixed(1)} s)`,
    );
  }
  await model.close();
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
