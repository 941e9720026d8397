import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './wait-for.ts';

/** One e-mail as the tests read it, from an outbox `.eml` file or from an SMTP conversation. */
export interface Mail {
  /** The address of the `To:` header (without a display name). */
  to: string;
  subject: string;
  /** The plain-text part, decoded. */
  text: string;
  /** Every http(s) address of the plain-text part, in order. */
  links: string[];
  /** The message as written or sent. */
  raw: string;
}

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The raw message with folded headers unfolded and quoted-printable decoded (as UTF-8). */
export const readableMail = (raw: string) => decodeQuotedPrintable(raw.replace(/\r?\n[ \t]+/g, ' '));

/**
 * Enough of RFC 5322 + MIME to read Cairn's own messages (nodemailer's output): the headers and the
 * text/plain part, 7bit or quoted-printable.
 */
export function parseEml(raw: string): Mail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
  const part = /Content-Type: text\/plain[^\n]*\n((?:[^\n]+\n)*)\n([\s\S]*?)\n--/i.exec(raw);
  const text = !part
    ? ''
    : /^Content-Transfer-Encoding: quoted-printable/im.test(part[1]!)
      ? decodeQuotedPrintable(part[2]!)
      : part[2]!;
  const to = header('To');
  return {
    to: /<([^>]+)>/.exec(to)?.[1] ?? to,
    subject: header('Subject'),
    text,
    links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
    raw,
  };
}

/** The e-mails a server without SMTP_URL wrote to `dataDir/outbox`, oldest first. */
export function readOutbox(dataDir: string): Mail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((file) => parseEml(fs.readFileSync(path.join(dir, file), 'utf8')));
}

/**
 * The newest e-mail to `to` among those `read` returns, waiting for it (up to 15 s: account mail is
 * sent by a job after the response, decision 068, slow on a loaded machine); with `subject`, waits
 * until the newest one has it.
 */
export async function waitForMail(
  read: () => Mail[] | Promise<Mail[]>,
  to: string,
  subject?: string,
): Promise<Mail> {
  const newest = await waitFor(async () => (await read()).filter((m) => m.to === to).at(-1), {
    until: (mail) => mail !== undefined && (subject === undefined || mail.subject === subject),
    what: `an e-mail to ${to}${subject ? ` with subject "${subject}"` : ''}`,
    timeoutMs: 15_000,
    intervalMs: 100,
  });
  return newest!;
}
