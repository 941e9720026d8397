import { format } from 'node:util';

/**
 * Pino's JSON lines as one readable line each, for a person at a terminal:
 * `14:05:09.120 INFO  Cairn is up at http://localhost:3000 …` — an error's stack follows on its
 * own lines. Synchronous and in the same thread, unlike pino-pretty, which runs as a transport in
 * a worker thread (docs/decisions/041-logs.md).
 */
export function prettyLogStream(out: NodeJS.WritableStream, options: { color: boolean }) {
  return {
    write(line: string) {
      out.write(formatLogLine(line, options.color));
    },
  };
}

const LEVELS: Record<number, [label: string, color: number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 90],
  30: ['INFO ', 32],
  40: ['WARN ', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 35],
};
/** Every line has these, a request line's message says its `http` fields, the rest is noise here. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'reqId', 'req', 'res', 'http']);

export function formatLogLine(line: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const clock = `${time.toTimeString().slice(0, 8)}.${String(time.getMilliseconds()).padStart(3, '0')}`;
  const [label, levelColor] = LEVELS[entry.level as number] ?? [String(entry.level), 0];
  const fields = Object.entries(entry)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : format('%j', value)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  // The request id ties a failure to the x-request-id header a user reports.
  if (err && typeof entry.reqId === 'string') fields.unshift(`reqId=${entry.reqId}`);
  const message = [
    paint(90, clock),
    paint(levelColor, label),
    entry.msg ?? '',
    ...fields.map((f) => paint(90, f)),
  ]
    .filter((part) => part !== '')
    .join(' ');
  const stack = err?.stack ?? err?.message;
  return stack ? `${message}\n${indent(stack)}\n` : `${message}\n`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
