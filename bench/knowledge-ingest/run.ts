/**
 * Ingestion throughput through the API of a real server process (the built-in default models):
 *   1. one 200-page text PDF uploaded as a file item → pages/s from upload to `ready`;
 *   2. 5,000 short texts (a full request each: KNOWLEDGE_LIMITS.itemsPerRequest) → items/s from
 *      the first upload until every item is `ready`, and how long each request took to be accepted.
 * Also prints the server's peak resident memory (VmHWM).
 *
 *   npx tsx bench/knowledge-ingest/run.ts                      # embedded PGlite
 *   npx tsx bench/knowledge-ingest/run.ts --database-url postgres://postgres@127.0.0.1:5432/postgres
 *       (a throwaway database is created next to the given one and dropped afterwards)
 *   --pages N --texts N to change the sizes.
 */
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge';
import { argValue } from '../lib.ts';
import { percentile } from '../retrieval-quality/scifact.ts';
import { startServerProcess } from '../server-process.ts';
import { makePdf } from './make-pdf.ts';
import { watchItems } from './watch-items.ts';

const BATCH = KNOWLEDGE_LIMITS.itemsPerRequest;
const PAGES = Number(argValue('--pages') ?? 200);
const TEXTS = Number(argValue('--texts') ?? 5000);

const server = await startServerProcess('ingest', Number(process.env.BENCH_PORT ?? 3310));
const { base, call } = server;
try {
  const token = await server.signUp();

  async function waitAllReady(appUuid: string, count: number) {
    for (;;) {
      const items = await call<Array<{ status: string; error: string | null }>>(
        'GET',
        `/api/applications/${appUuid}/knowledge/`,
        token,
      );
      const failed = items.filter((i) => i.status === 'failed');
      if (failed.length) throw new Error(`${failed.length} items failed: ${failed[0]!.error}`);
      if (items.length === count && items.every((i) => i.status === 'ready')) return;
      // Listing thousands of items is itself work for the server: poll gently.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  console.log(`engine: ${argValue('--database-url') ? 'postgresql' : 'pglite'} (through the API on ${base})`);

  // 1. A 200-page PDF.
  const pdf = makePdf(PAGES);
  const pdfApp = await call<{ uuid: string }>('POST', '/api/applications/', token, { name: 'PDF bench' });
  const form = new FormData();
  form.append('items[0].type', 'file');
  form.append('items[0].file', new Blob([new Uint8Array(pdf)]), 'bench.pdf');
  let started = performance.now();
  await call('POST', `/api/applications/${pdfApp.uuid}/knowledge/`, token, form);
  await waitAllReady(pdfApp.uuid, 1);
  let seconds = (performance.now() - started) / 1000;
  const [pdfItem] = await call<Array<{ chunk_count: number }>>(
    'GET',
    `/api/applications/${pdfApp.uuid}/knowledge/`,
    token,
  );
  console.log(
    `pdf: ${PAGES} pages (${(pdf.length / 1024).toFixed(0)} KB, ${pdfItem!.chunk_count} chunks) in ${seconds.toFixed(2)} s → ${(PAGES / seconds).toFixed(1)} pages/s`,
  );

  // 2. 5,000 short texts, a full request at a time, two requests in flight.
  const textApp = await call<{ uuid: string }>('POST', '/api/applications/', token, { name: 'Text bench' });
  const batches: FormData[] = [];
  for (let b = 0; b < TEXTS; b += BATCH) {
    const f = new FormData();
    for (let i = 0; i < Math.min(BATCH, TEXTS - b); i++) {
      const n = b + i;
      f.append(`items[${i}].type`, 'text');
      f.append(`items[${i}].title`, `Note ${n}`);
      f.append(
        `items[${i}].value`,
        `Note ${n}. The harbour keeper records tide ${n % 97} and lantern ${n % 31} in the ledger. ` +
          `Mooring ${n % 53} is inspected every ${(n % 9) + 1} days; the pilot boat leaves at ${n % 24}:00.`,
      );
    }
    batches.push(f);
  }
  const watcher = await watchItems(base, token);
  const uuids: string[] = [];
  started = performance.now();
  const cpuAtStart = server.cpuSeconds();
  let next = 0;
  const postSeconds: number[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      while (next < batches.length) {
        const body = batches[next++]!;
        const posted = performance.now();
        const items = await call<Array<{ uuid: string }>>(
          'POST',
          `/api/applications/${textApp.uuid}/knowledge/`,
          token,
          body,
        );
        uuids.push(...items.map((item) => item.uuid));
        postSeconds.push((performance.now() - posted) / 1000);
      }
    }),
  );
  postSeconds.sort((a, b) => a - b);
  const uploaded = (performance.now() - started) / 1000;
  await watcher.settled(uuids, (settled) => process.stderr.write(`… ${settled} settled\n`));
  watcher.close();
  seconds = (performance.now() - started) / 1000;
  const cpuSeconds = server.cpuSeconds() - cpuAtStart;
  console.log(
    `texts: ${TEXTS} items (uploads done in ${uploaded.toFixed(1)} s) all ready in ${seconds.toFixed(1)} s → ${(TEXTS / seconds).toFixed(1)} items/s`,
  );
  // Less sensitive to other work on the machine than the wall-clock figures.
  console.log(
    `server CPU time until all were ready: ${cpuSeconds.toFixed(1)} s (${((1000 * cpuSeconds) / TEXTS).toFixed(2)} ms per text)`,
  );
  console.log(
    `POST of ${BATCH} texts accepted in p50 ${percentile(postSeconds, 50).toFixed(3)} s, max ${postSeconds.at(-1)!.toFixed(3)} s`,
  );
  // The events said so; the list must agree (and has no failures).
  await waitAllReady(textApp.uuid, TEXTS);
  console.log(`server peak RSS: ${server.peakRssMb().toFixed(0)} MB`);
} finally {
  await server.stop();
}
