import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ParseInput, ParseResult } from './parse-document.ts';
import { ParseError, type ParseFailureReason } from './parse-error.ts';
import type { ParseLimits } from './parse-limits.ts';

export interface ParseRequest {
  input: Omit<ParseInput, 'data'>;
  data: Uint8Array;
  limits: ParseLimits;
}
/** Sent by the worker before its answer: reading with OCR started, the deadline is now the OCR one. */
export interface ParseProgress {
  ocr: true;
}
/** Sent by a new worker once it has loaded: a file's deadline counts from here. */
export interface WorkerReady {
  ready: true;
}
export type ParseResponse =
  | { ok: true; result: ParseResult }
  | { ok: false; reason?: ParseFailureReason | undefined; message: string };

/** A worker with nothing to do is stopped after this long, so its memory goes back to the system. */
const IDLE_MS = 5_000;
/** A new worker that has not loaded after this long is given up (a file's deadline starts after it). */
const STARTUP_MS = 30_000;
/** How often a busy worker's resident memory is read (Linux). */
const MEMORY_POLL_MS = 100;

/**
 * Parses files in worker processes (docs/decisions/055-bounded-parsing.md). Each parse has a
 * process of its own, whose V8 heap is capped at `memoryMb` and whose resident memory is watched
 * (Linux), killed when it goes over either or over `timeoutMs`: a hostile file costs its worker,
 * never the server, and a killed process gives all its memory back. Processes rather than worker
 * threads, because a thread that runs out of memory in some V8 allocations aborts the whole
 * server. A worker that finished cleanly is kept for the next file until it has been idle for
 * IDLE_MS (starting one and loading the parsers costs more than most parses). A file read with OCR
 * gets `ocrDocumentMs` more from when the worker says OCR started (docs/decisions/072-ocr.md).
 * A file's deadline counts from when its worker has loaded, not from starting it: on a busy
 * machine starting a process alone can take seconds, and the file is not what took them.
 */
export class ParseWorkers {
  private readonly idle = new Map<ChildProcess, NodeJS.Timeout>();
  private readonly busy = new Set<ChildProcess>();
  /** Workers started and not yet loaded (a reused worker has loaded). */
  private readonly loading = new Map<ChildProcess, Promise<void>>();

  constructor(readonly limits: ParseLimits) {}

  async parse(input: ParseInput): Promise<ParseResult> {
    const worker = this.take();
    this.busy.add(worker);
    const { data, ...rest } = input;
    let answered = false;
    try {
      await this.loading.get(worker);
      const response = await this.ask(worker, { input: rest, data, limits: this.limits });
      answered = true;
      if (response.ok) return response.result;
      if (response.reason) throw new ParseError(response.reason, response.message);
      throw new Error(response.message);
    } finally {
      this.busy.delete(worker);
      // A worker that did not answer (stopped, out of memory, crashed) is never reused.
      if (answered) this.release(worker);
      else worker.kill('SIGKILL');
    }
  }

  /** Stops every worker (the server is closing). */
  async close(): Promise<void> {
    for (const timer of this.idle.values()) clearTimeout(timer);
    const all = [...this.idle.keys(), ...this.busy];
    this.idle.clear();
    for (const worker of all) worker.kill('SIGKILL');
  }

  private ask(worker: ChildProcess, request: ParseRequest): Promise<ParseResponse> {
    const { timeoutMs, memoryMb } = this.limits;
    return new Promise<ParseResponse>((resolve, reject) => {
      let stderr = '';
      const onStderr = (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      };
      const tooSlow = () =>
        new ParseError(
          'too_slow',
          `Reading this file took longer than ${timeoutMs / 1000} seconds, the limit for one file, and was stopped. Split it into smaller documents.`,
        );
      const ocrTooSlow = () =>
        new ParseError(
          'too_slow',
          `Reading this file with OCR (text recognition) took longer than ${this.limits.ocrDocumentMs / 1000} seconds, the limit for one file, and was stopped. Split it into smaller documents.`,
        );
      const tooBig = () =>
        new ParseError(
          'too_much_memory',
          `Reading this file needed more than ${memoryMb} MB of memory, the limit for one file, and was stopped. Split it into smaller documents.`,
        );
      const finish = (error: Error | undefined, response?: ParseResponse) => {
        clearTimeout(timer);
        clearInterval(watch);
        worker.off('message', onMessage).off('exit', onExit);
        worker.stderr?.off('data', onStderr);
        if (error) reject(error);
        else resolve(response!);
      };
      let timer = setTimeout(() => finish(tooSlow()), timeoutMs);
      const watch = setInterval(() => {
        if (residentMb(worker.pid) > memoryMb) finish(tooBig());
      }, MEMORY_POLL_MS);
      const onMessage = (message: ParseResponse | ParseProgress) => {
        if (!('ocr' in message)) return finish(undefined, message);
        // The worker stops OCR at its own deadline with a better message; this one is the backstop.
        clearTimeout(timer);
        timer = setTimeout(() => finish(ocrTooSlow()), this.limits.ocrDocumentMs + timeoutMs);
      };
      const onExit = (code: number | null, signal: string | null) => {
        // V8 aborts a process whose heap reached --max-old-space-size.
        if (/heap out of memory|Allocation failed/i.test(stderr)) finish(tooBig());
        else finish(new Error(`The parse worker exited (${signal ?? code}): ${stderr.trim().slice(-500)}`));
      };
      worker.on('message', onMessage).on('exit', onExit);
      worker.stderr?.on('data', onStderr);
      worker.send(request);
    });
  }

  private take(): ChildProcess {
    const [reused] = this.idle;
    if (reused) {
      clearTimeout(reused[1]);
      this.idle.delete(reused[0]);
      reused[0].ref();
      return reused[0];
    }
    const entry = workerEntry();
    const worker = fork(entry.file, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${this.limits.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    worker.on('error', () => {}).on('exit', () => this.idle.delete(worker));
    this.loading.set(worker, this.loaded(worker));
    return worker;
  }

  /** Resolves when a new worker says it has loaded; rejects if it exits or takes STARTUP_MS first. */
  private loaded(worker: ChildProcess): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('exit', onExit);
        this.loading.delete(worker);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () => done(new Error(`The parse worker did not start within ${STARTUP_MS / 1000} seconds.`)),
        STARTUP_MS,
      );
      const onMessage = (message: WorkerReady | ParseResponse) => {
        if ('ready' in message) done();
      };
      const onExit = (code: number | null, signal: string | null) =>
        done(new Error(`The parse worker exited (${signal ?? code}) before it started.`));
      worker.on('message', onMessage).on('exit', onExit);
    });
  }

  private release(worker: ChildProcess): void {
    // An idle worker does not keep the server (or a test run) alive.
    worker.unref();
    (worker.channel as { unref?: () => void } | undefined)?.unref?.();
    const timer = setTimeout(() => {
      this.idle.delete(worker);
      worker.kill('SIGKILL');
    }, IDLE_MS);
    timer.unref();
    this.idle.set(worker, timer);
  }
}

/** A process's resident memory in MB from /proc (Linux); 0 elsewhere, where the heap cap alone holds. */
function residentMb(pid: number | undefined): number {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / 1024 / 1024;
  } catch {
    return 0;
  }
}

/**
 * In the bundle (apps/api/dist) this module is a chunk beside the worker's own bundle,
 * parse-worker.js (scripts/build.mjs). From sources (tsx, vitest) it is parse-worker.ts, run
 * through tsx. `import.meta.filename` and not `import.meta.url`: the build rewrites the latter to
 * the source file's address.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = import.meta.filename;
  if (here.endsWith('.ts')) {
    return { file: path.join(path.dirname(here), 'parse-worker.ts'), execArgv: ['--import', 'tsx'] };
  }
  return { file: path.join(path.dirname(here), 'parse-worker.js'), execArgv: [] };
}
