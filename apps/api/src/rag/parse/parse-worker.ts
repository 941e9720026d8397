import { ParseError } from './parse-error.ts';
import { parseWithinLimits } from './parse-within-limits.ts';
import type { ParseProgress, ParseRequest, ParseResponse, WorkerReady } from './parse-workers.ts';

/** A parse worker process (parse-workers.ts): one request at a time, over IPC. */
process.on('message', async ({ input, data, limits }: ParseRequest) => {
  let response: ParseResponse;
  try {
    // OCR has a deadline of its own, longer than a text file's: the parent is told when it starts.
    const ocrStarted = () => process.send!({ ocr: true } satisfies ParseProgress);
    const result = await parseWithinLimits({ ...input, data: Buffer.from(data) }, limits, ocrStarted);
    response = { ok: true, result };
  } catch (error) {
    response =
      error instanceof ParseError
        ? { ok: false, reason: error.reason, message: error.message }
        : { ok: false, message: String((error as Error)?.stack ?? error) };
  }
  process.send!(response);
});
// Started: a file's deadline counts from here, not from starting a process (parse-workers.ts).
process.send!({ ready: true } satisfies WorkerReady);
// The server is gone: so is its worker.
process.on('disconnect', () => process.exit(0));
