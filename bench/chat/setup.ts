/**
 * Shared set-up of the chat benchmarks: the real app (one process, workers included) on PGlite in
 * a kept data dir (or DATABASE_URL), a local OpenAI-compatible server that streams at once, users
 * with session tokens, and an application whose knowledge holds ≥10k chunks of SciFact abstracts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Database, openDatabase } from '@cairn/db/client';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { hashToken, newToken } from '../../apps/api/src/lib/tokens.ts';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { loadSciFact } from '../retrieval-quality/scifact.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCIFACT_DIR = path.resolve(here, '../../../shared/datasets/scifact');

export function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

export interface Bench {
  app: FastifyInstance;
  database: Database;
  url: string;
  /** The local model server (its own process, as a real one would be). */
  fake: { url: string; kill(): void };
  close(): Promise<void>;
}

async function startModelServer(): Promise<Bench['fake']> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'model-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGTERM'));
  const [line] = (await once(readline.createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: line.trim(), kill: () => child.kill('SIGTERM') };
}

/** Starts the app in this process; `dataDir` (kept) and `databaseUrl` default to the command's flags. */
export async function startBench(
  options: {
    dataDir?: string | undefined;
    databaseUrl?: string | undefined;
    /** ROLE: `api` runs no workers (answers are written by a `worker` process). */
    role?: 'all' | 'api' | 'worker' | undefined;
  } = {},
): Promise<Bench> {
  const keptDataDir = options.dataDir ?? flag('--data-dir');
  const dataDir = keptDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-chat-'));
  const databaseUrl = options.databaseUrl ?? flag('--database-url') ?? process.env.DATABASE_URL;
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ALLOW_PRIVATE_URLS: 'true',
      ROLE: options.role ?? 'all',
    }),
    databaseUrl,
  };
  const database = await openDatabase({ databaseUrl, dataDir });
  await database.migrate();
  const fake = await startModelServer();
  const app = await buildApp({
    config,
    database,
    runWorkers: config.role !== 'api',
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    database,
    url,
    fake,
    async close() {
      await app.close();
      await database.close();
      fake.kill();
      if (!keptDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A verified user with a session token (seeded directly: login speed is not what is measured). */
export async function seedUser(database: Database, label: string): Promise<{ id: number; token: string }> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@bench.test`;
  const { rows } = await database.query<{ id: number }>(
    `INSERT INTO users (email, username, password_hash, email_verified_at) VALUES ($1, $1, 'x', now()) RETURNING id`,
    [email],
  );
  const token = newToken();
  await database.query('INSERT INTO auth_tokens (user_id, token_hash) VALUES ($1, $2)', [
    rows[0]!.id,
    hashToken(token),
  ]);
  return { id: rows[0]!.id, token };
}

export async function call<T = any>(
  bench: Bench,
  token: string,
  method: string,
  pathname: string,
  json?: unknown,
) {
  const res = await fetch(bench.url + pathname, {
    method,
    headers: {
      authorization: `Token ${token}`,
      ...(json !== undefined && { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = (await res.json().catch(() => null)) as T;
  if (res.status >= 400) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Selects, for the application, a text model served by this run's local OpenAI-compatible server. */
async function useLocalModel(bench: Bench, token: string, appUuid: string) {
  const provider = await call(bench, token, 'POST', '/api/model-providers/', {
    kind: 'openai_compatible',
    name: 'Local bench server',
    base_url: bench.fake.url,
  });
  const model = await call(bench, token, 'POST', `/api/model-providers/${provider.uuid}/models/`, {
    name: 'bench-chat',
    model_type: 'text',
  });
  await call(bench, token, 'PATCH', `/api/applications/${appUuid}/`, {
    llm_models: [model.uuid, 'builtin-embedding'],
  });
}

/** An application of the user answering with the local OpenAI-compatible server. */
export async function seedApplication(bench: Bench, token: string, name: string) {
  const app = await call(bench, token, 'POST', '/api/applications/', { name });
  await useLocalModel(bench, token, app.uuid);
  const { rows } = await bench.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
    app.uuid,
  ]);
  return { uuid: app.uuid as string, id: rows[0]!.id };
}

/**
 * Fills the application's knowledge with SciFact abstracts until it holds `minChunks` chunks
 * (indexed as the ingestion job does). Returns the chunk count and SciFact claims to ask.
 */
export async function seedKnowledge(bench: Bench, applicationId: number, minChunks: number) {
  const data = loadSciFact(SCIFACT_DIR);
  const claims = data.queries.map((q) => q.text);
  const count = async () =>
    Number(
      (
        await bench.database.query<{ n: string }>(
          'SELECT count(*) AS n FROM knowledge_chunks WHERE application_id = $1',
          [applicationId],
        )
      ).rows[0]!.n,
    );
  let chunks = await count();
  const started = performance.now();
  // Twenty abstracts per item, each under its title as a heading: fewer, larger items index faster.
  const GROUP = 20;
  for (let round = 0; chunks < minChunks; round++) {
    for (let i = 0; i < data.corpus.length && chunks < minChunks; i += GROUP) {
      const group = data.corpus.slice(i, i + GROUP);
      const title = `SciFact ${round}-${i / GROUP}`;
      const { rows } = await bench.database.query<{ id: number }>(
        `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'processing') RETURNING id`,
        [applicationId, title],
      );
      const text = group
        .map((doc) => `# ${doc.title}${round ? ` (${round})` : ''}\n\n${doc.text}`)
        .join('\n\n');
      const result = await indexItem(bench.app, {
        applicationId,
        itemId: rows[0]!.id,
        document: { title, language: 'en', sections: [{ text }] },
        llmModels: [],
      });
      await bench.database.query(`UPDATE knowledge_items SET status = 'ready' WHERE id = $1`, [rows[0]!.id]);
      chunks += result.chunkCount;
      if (Math.floor(chunks / 1000) !== Math.floor((chunks - result.chunkCount) / 1000)) {
        console.log(`  … ${chunks} chunks (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
  }
  console.log(
    `knowledge: ${chunks} chunks (indexing took ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return { chunks, claims };
}

/** Keeps the seeded owner and application in a kept data dir, so a second run skips indexing. */
export async function seedOnce(bench: Bench, dataDir: string | undefined, label: string) {
  const file = dataDir ? path.join(dataDir, `bench-${label}.json`) : undefined;
  if (file && fs.existsSync(file)) {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      owner: { id: number; token: string };
      app: { uuid: string; id: number };
    };
    // This run's local model server listens on a new port: point the application at it anew.
    await useLocalModel(bench, kept.owner.token, kept.app.uuid);
    return kept;
  }
  const owner = await seedUser(bench.database, label);
  const app = await seedApplication(bench, owner.token, label);
  const state = { owner, app };
  if (file) fs.writeFileSync(file, JSON.stringify(state));
  return state;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
