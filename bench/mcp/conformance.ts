/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against a real Cairn
 * server process: the server scenarios that apply to an application's MCP server. The suite needs
 * Node ≥ 22 and sends no credentials, so it runs under a Node of its own, installed outside the
 * repository, through a loopback proxy that adds the application's key and passes every other header
 * (Host and Origin included) through unchanged.
 *
 *   mkdir -p /tmp/node26 && npm install --prefix /tmp/node26 node@26 @modelcontextprotocol/conformance@0.1.16
 *   (npm ≥ 11 skips install scripts: then `cd /tmp/node26 && npm install-scripts approve node && npm rebuild node`)
 *   npx tsx bench/mcp/conformance.ts --suite-dir /tmp/node26 [--scenario ping]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { argValue } from '../lib.ts';
import { startServerProcess } from '../server-process.ts';

/** The server scenarios whose subject an application's MCP server has (the others test fixtures we do not ship). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const suiteDir = argValue('--suite-dir');
if (!suiteDir)
  throw new Error('--suite-dir DIR: where node@26 and @modelcontextprotocol/conformance are installed');
const node = path.join(suiteDir, 'node_modules/.bin/node');
const cli = path.join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const scenarios = argValue('--scenario') ? [argValue('--scenario')!] : SCENARIOS;

const port = 3100 + (process.pid % 500);
const server = await startServerProcess('mcp-conformance', port);
try {
  const token = await server.signUp();
  const form = new FormData();
  form.append('name', 'Handbook');
  form.append('items[0].type', 'text');
  form.append('items[0].title', 'Opening hours');
  form.append('items[0].value', 'We open at 9 on weekdays and at 10 on Saturdays.');
  const app = await server.call<{ uuid: string }>('POST', '/api/applications/', token, form);
  const { key } = await server.call<{ key: string }>(
    'POST',
    `/api/applications/${app.uuid}/api-keys/`,
    token,
    {
      name: 'conformance',
      requests_per_minute: 10_000,
    },
  );

  // The key is the only thing added: Host and Origin reach the server as the suite sent them.
  const proxy = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(proxy.address() as AddressInfo).port}/api/v1/mcp`;

  const outcomes: string[] = [];
  for (const scenario of scenarios) {
    const code = await new Promise<number>((resolve) => {
      const run = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario], { stdio: 'inherit' });
      run.on('exit', (c) => resolve(c ?? 1));
    });
    outcomes.push(`${scenario}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`);
  }
  proxy.close();
  console.log(
    `\nMCP conformance 0.1.16 against ${url} (Node ${await version(node)}):\n  ${outcomes.join('\n  ')}`,
  );
  process.exitCode = outcomes.every((o) => o.endsWith('passed')) ? 0 : 1;
} finally {
  await server.stop();
}

function version(bin: string) {
  return new Promise<string>((resolve) => {
    const child = spawn(bin, ['-v']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => resolve(out.trim()));
  });
}
