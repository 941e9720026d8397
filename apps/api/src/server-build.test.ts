import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildApi } from '../scripts/build.mjs';
import { makePdf } from './testing/make-pdf.ts';
import { freePort } from './testing/server-process.ts';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside apps/api, so the bundle's node_modules imports resolve as they do from apps/api/dist.
const outDir = path.join(apiRoot, 'dist', `.test-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-built-'));
let child: ChildProcess | undefined;
let port = 0;
afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the built server (what npm start runs)', () => {
  it('keeps every path computed from a source file right, starts with plain node on a new data dir, and answers health', async () => {
    await buildApi(outDir);
    const bundle = path.join(outDir, 'server.js');

    // Each source's import.meta.url is its file, found relative to the bundle: each must exist.
    const sources = [
      ...fs.readFileSync(bundle, 'utf8').matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g),
    ].map((m) => fileURLToPath(new URL(m[1] as string, pathToFileURL(bundle))));
    expect(sources.map((s) => path.relative(path.resolve(apiRoot, '../..'), s)).sort()).toEqual([
      'apps/api/src/modules/chatrooms/answer/lexicon.ts',
      'apps/api/src/modules/widget/embed-routes.ts',
      'apps/api/src/plugins/web.ts',
      'packages/db/src/client.ts',
      'packages/db/src/client.ts',
    ]);
    for (const source of sources) expect(fs.existsSync(source)).toBe(true);

    port = await freePort();
    child = spawn(process.execPath, [bundle], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    let health: Response | undefined;
    for (let i = 0; i < 600 && child.exitCode === null && !health?.ok; i++) {
      health = await fetch(`http://127.0.0.1:${port}/api/health/`).catch(() => undefined);
      if (!health?.ok) await new Promise((r) => setTimeout(r, 100));
    }
    expect(stderr).toBe('');
    expect(health?.status).toBe(200);
    expect(await health!.json()).toEqual({ status: 'ok' });
    // Migrations ran from packages/db/migrations: the tables exist.
    expect((await fetch(`http://127.0.0.1:${port}/api/applications/`)).status).toBe(401);
    // No TypeScript loader and no esbuild service: the server is this one process.
    expect(fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()).toBe('');
  }, 120_000);

  it("answers the README's commands as a new user would paste them: first session, knowledge, chat, public API", async () => {
    const readme = fs.readFileSync(path.resolve(apiRoot, '../../README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const block = (marker: string) => blocks.find((b) => b.includes(marker)) ?? '';
    const session = [
      block('/api/register/'),
      block("-F name='Handbook'"),
      // What a person does next: look at the items' status until they are read.
      `while curl -s localhost:3000/api/applications/$APP/knowledge/ -H "Authorization: Token $TOKEN" | grep -qE '"status":"(queued|processing)"'; do sleep 0.2; done`,
      block('/chatrooms/send-message/'),
      block('/api/v1/chat/completions'),
      // What the blocks left behind, on lines of their own.
      'echo; echo "APP=$APP"; curl -s localhost:3000/api/applications/$APP/knowledge/ -H "Authorization: Token $TOKEN"',
    ].join('\n');
    const script = session
      .replaceAll('localhost:3000', `127.0.0.1:${port}`)
      .replaceAll('data/outbox/', `${path.join(dataDir, 'outbox')}/`);
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-readme-'));
    fs.writeFileSync(
      path.join(cwd, 'handbook.pdf'),
      makePdf({ pages: [[{ text: 'Staff may work from home on Fridays.' }]], title: 'Handbook' }),
    );
    const printed = execFileSync('bash', ['-e', '-c', script], { cwd, encoding: 'utf8', timeout: 60_000 });
    fs.rmSync(cwd, { recursive: true, force: true });
    const app = /^APP=(.*)$/m.exec(printed)?.[1];
    expect(app).toMatch(/^[0-9a-f-]{36}$/);
    // The public API streamed the answer from the text item, cited.
    const streamed = [...printed.matchAll(/data: (\{.*\})$/gm)]
      .map((m) => JSON.parse(m[1]!).choices[0]?.delta?.content ?? '')
      .join('');
    expect(streamed).toBe('We open at 9. [1]');
    const items = JSON.parse(printed.slice(printed.lastIndexOf('\n') + 1)) as Array<{ title: string }>;
    expect(items.map((i) => i.title).sort()).toEqual(expect.arrayContaining(['Handbook', 'Opening hours']));
  }, 90_000);
});
