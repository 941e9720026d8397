/**
 * What a hostile or huge file costs the server (issue 26, docs/decisions/055-bounded-parsing.md):
 * a real server process as `npm start` runs it (the built bundle, PGlite, a fresh data dir) is
 * given, one at a time, as a file item of a new application:
 *
 * - `docx-bomb`: a ~1.4 MB .docx whose document.xml inflates to 400 MB (made here);
 * - `pdf-bomb`: a ~0.4 MB PDF whose page stream inflates to 400 MB (made here);
 * - `pdf-1000`: a 1,000-page text PDF (bench/knowledge-ingest/make-pdf.ts, ~4 MB).
 *
 * For each: seconds from the upload until the item is `ready` or `failed` (and its reason), the
 * server process's resident memory at rest before it, its peak while the file is handled
 * (sampled every 50 ms; the parse worker's own peak beside it), and its resident memory 8 s after
 * (the idle parse worker has stopped by then).
 *
 *   npx tsx bench/parsing/run.ts [--runs 3]      (builds what is missing first, as `npm start` does)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { docxBomb, pdfFlateBomb } from '../../apps/api/src/testing/hostile-files.ts';
import { freePort } from '../../apps/api/src/testing/server-process.ts';
import { makePdf } from '../knowledge-ingest/make-pdf.ts';
import { argValue } from '../lib.ts';
import { startServerProcess } from '../server-process.ts';

const MB = 1024 * 1024;
const runs = Number(argValue('--runs') ?? 3);

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

execFileSync(process.execPath, ['scripts/ensure-build.mjs'], {
  cwd: path.resolve(import.meta.dirname, '../..'),
  stdio: 'inherit',
});
console.log('making the files …');
const files: Record<string, [string, Buffer]> = {
  'docx-bomb': ['report.docx', await docxBomb(400 * MB)],
  'pdf-bomb': ['scan.pdf', await pdfFlateBomb(400 * MB)],
  'pdf-1000': ['almanac.pdf', makePdf(1000)],
};
for (const [name, [, data]] of Object.entries(files))
  console.log(`${name}: ${(data.length / MB).toFixed(2)} MB`);

interface Row {
  seconds: number;
  status: string;
  error: string;
  restMb: number;
  peakMb: number;
  workerPeakMb: number;
  afterMb: number;
}
const results: Record<string, Row[]> = {};

for (let run = 1; run <= runs; run++) {
  const server = await startServerProcess('parsing', await freePort(), { built: true });
  try {
    const token = await server.signUp();
    for (const [name, [filename, data]] of Object.entries(files)) {
      await sleep(8000);
      const restMb = rssMb(server.pid);
      let peakMb = restMb;
      let workerPeakMb = 0;
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, rssMb(server.pid));
        for (const child of childrenOf(server.pid)) workerPeakMb = Math.max(workerPeakMb, rssMb(child));
      }, 50);
      const form = new FormData();
      form.append('name', name);
      form.append('items[0].type', 'file');
      form.append('items[0].file', new Blob([new Uint8Array(data)]), filename);
      const started = performance.now();
      const app = await server.call<{ uuid: string }>('POST', '/api/applications/', token, form);
      let item: { status: string; error: string | null } = { status: 'queued', error: null };
      while (item.status !== 'ready' && item.status !== 'failed') {
        await sleep(50);
        const [now] = await server.call<Array<typeof item>>(
          'GET',
          `/api/applications/${app.uuid}/knowledge/`,
          token,
        );
        item = now ?? item;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      await sleep(8000);
      const row = {
        seconds,
        status: item.status,
        error: item.error ?? '',
        restMb,
        peakMb,
        workerPeakMb,
        afterMb: rssMb(server.pid),
      };
      results[name] = [...(results[name] ?? []), row];
      console.log(
        `run ${run} ${name}: ${row.status} in ${seconds.toFixed(2)} s; server RSS ${restMb.toFixed(0)} MB at rest, ${peakMb.toFixed(0)} MB peak, ${row.afterMb.toFixed(0)} MB after; worker peak ${workerPeakMb.toFixed(0)} MB${row.error ? ` — ${row.error}` : ''}`,
      );
    }
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  `\nmedian of ${runs} run(s) | status | seconds to ready/failed | server RSS at rest | peak | after | worker peak`,
);
for (const [name, rows] of Object.entries(results)) {
  console.log(
    `${name} | ${rows[0]!.status} | ${median(rows.map((r) => r.seconds)).toFixed(2)} s | ${median(rows.map((r) => r.restMb)).toFixed(0)} MB | ${median(rows.map((r) => r.peakMb)).toFixed(0)} MB | ${median(rows.map((r) => r.afterMb)).toFixed(0)} MB | ${median(rows.map((r) => r.workerPeakMb)).toFixed(0)} MB`,
  );
}
