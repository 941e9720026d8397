import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export interface RunningServer {
  url: string;
  dataDir: string;
  /**
   * The newest e-mail to `to` in DATA_DIR/outbox (waits up to 15 s for it); with `subject`, waits
   * until the newest one has it (account mail is sent by a job, after the response).
   */
  lastMail(to: string, subject?: string): Promise<Mail>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Reads an .eml file: headers, then the 7bit text/plain part where every link sits on its own line. */
export function parseEml(raw: string): Mail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
  const text = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*\n([\s\S]*?)\n--/i.exec(raw)?.[1] ?? raw;
  return {
    to: header('To'),
    subject: header('Subject'),
    text,
    links: text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\/\S+$/.test(l)),
  };
}

/** Starts `tsx apps/api/src/server.ts` on a free port with a fresh DATA_DIR; resolves once healthy. */
export async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      API_URL: '',
      // The fixtures register many users from one machine; each one claims its own client address
      // (X-Forwarded-For) through loopback, listed as the proxy, instead of sharing 127.0.0.1's limits.
      TRUST_PROXY: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/health/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  const outbox = () => {
    const dir = path.join(dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .sort()
      .map((f) => parseEml(fs.readFileSync(path.join(dir, f), 'utf8')));
  };

  return {
    url,
    dataDir,
    async lastMail(to, subject) {
      for (let i = 0; i < 150; i++) {
        const mail = outbox()
          .filter((m) => m.to.includes(to))
          .at(-1);
        if (mail && (subject === undefined || mail.subject === subject)) return mail;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`No e-mail to ${to} in the outbox`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
