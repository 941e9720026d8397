import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { RenderedMail } from './templates.ts';

export interface Mailer {
  send(to: string, mail: RenderedMail): Promise<void>;
  close(): void;
}

/**
 * With SMTP_URL, mail goes over SMTP; without it each message is written to
 * DATA_DIR/outbox/ as one RFC 5322 `.eml` file and its subject is logged.
 */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(to, mail) {
        await transport.sendMail({ from: opts.from, to, ...mail });
        opts.log.info({ to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(to, mail) {
      const info = await transport.sendMail({ from: opts.from, to, ...mail });
      // Written aside, then renamed into the outbox: whoever watches it never reads half a message.
      const partialDir = `${opts.outboxDir}.partial`;
      await fs.mkdir(opts.outboxDir, { recursive: true });
      await fs.mkdir(partialDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(opts.outboxDir, name);
      await fs.writeFile(path.join(partialDir, name), info.message as Buffer, { mode: 0o600 });
      await fs.rename(path.join(partialDir, name), file);
      opts.log.info({ to, subject: mail.subject, file }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}
