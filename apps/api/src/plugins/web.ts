import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type InProcessCall, type WebLoadContext, webContext } from '@cairn/web/load-context';
import { createRequestListener } from '@react-router/node';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { RouterContextProvider, type ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import { type PageMemo, withPageMemo } from '../lib/page-memo.ts';
import { isCrossSite, SAFE_METHODS } from './auth.ts';

/**
 * Mounts the React Router web app (apps/web) on this Fastify instance (DESIGN §3): every path no API
 * route claimed is handed to React Router's request listener after `reply.hijack()`. Encapsulated
 * (no fastify-plugin) so its catch-all body parser and routes stay inside. Register it LAST.
 *
 * - production: serves `apps/web/build` (`npm run build`); static files from build/client.
 * - development (NODE_ENV=development): Vite in middleware mode, hot reload, no build needed.
 */
const WEB_ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));
/** Header carrying the per-request CSP nonce to getLoadContext; always overwritten, never trusted from outside. */
const NONCE_HEADER = 'x-cairn-csp-nonce';
/** Header carrying the client address as Fastify resolved it (TRUST_PROXY aware); overwritten likewise. */
const CLIENT_IP_HEADER = 'x-cairn-client-ip';
const INTERNAL_HEADERS = new Set([NONCE_HEADER, CLIENT_IP_HEADER]);

const MIME: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
};

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export default async function webPlugin(app: FastifyInstance) {
  const dev = app.config.webDev;
  // WEB_BUILD_DIR lets the e2e run serve its own build, untouched by rebuilds elsewhere.
  const buildDir = app.config.webBuildDir ?? path.join(WEB_ROOT, 'build');
  const clientDir = path.join(buildDir, 'client');
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  const devBuildId = `dev-${Date.now().toString(36)}`;
  let vite: ViteDevServer | undefined;
  let production: { listener: Listener; buildId: string; files: Set<string> } | undefined;

  const apiUrl = () => {
    if (app.config.apiUrl) return app.config.apiUrl;
    // Loaders call this very process over loopback by default.
    const address = app.server.address() as AddressInfo | null;
    const port = address?.port ?? app.config.port;
    const host =
      !address || address.address === '0.0.0.0' || address.address === '::'
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
    return `http://${host}:${port}`;
  };
  const secureCookies = app.config.publicUrl.startsWith('https:');

  const loadContext = (buildId: string) => (request: Request) => {
    const clientIp = request.headers.get(CLIENT_IP_HEADER) ?? '';
    const values: WebLoadContext = {
      apiUrl: apiUrl(),
      apiInProcess: inProcessCall(app, clientIp),
      nonce: request.headers.get(NONCE_HEADER) ?? '',
      buildId,
      secureCookies,
      sessionMaxAgeSeconds: Math.floor(app.config.sessionLifetime.maxMs / 1000),
      clientIp,
      publicUrl: app.config.publicUrl,
    };
    return new RouterContextProvider(new Map([[webContext, values]]));
  };

  if (dev) {
    const { createServer } = await import('vite');
    vite = await createServer({
      root: WEB_ROOT,
      configFile: path.join(WEB_ROOT, 'vite.config.ts'),
      // HMR socket on its own port, derived from PORT so two dev servers do not collide (3000 → 23000).
      server: {
        middlewareMode: true,
        hmr: app.config.port > 0 && app.config.port < 45_000 ? { port: app.config.port + 20_000 } : true,
      },
      appType: 'custom',
    });
    app.addHook('onClose', async () => vite?.close());
  }
  const devListener: Listener | undefined = vite
    ? createRequestListener({
        build: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
        getLoadContext: loadContext(devBuildId),
        mode: 'development',
      })
    : undefined;

  /** Loads the production build once; undefined while `npm run build` has not run. */
  async function loadProduction() {
    if (production) return production;
    if (!fs.existsSync(serverEntry)) return undefined;
    const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
    const buildId = build.assets.version;
    production = {
      buildId,
      files: clientFiles(clientDir),
      listener: createRequestListener({ build, getLoadContext: loadContext(buildId), mode: 'production' }),
    };
    return production;
  }

  // Leave request bodies untouched: React Router reads the raw stream itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // Browsers ask for /favicon.ico on their own; the icon is an SVG.
  app.get('/favicon.ico', async (_request, reply) => reply.redirect('/favicon.svg', 301));

  app.get('/version.json', async (_request, reply) => {
    const buildId = dev ? devBuildId : (await loadProduction())?.buildId;
    reply.header('cache-control', 'no-store');
    return { buildId: buildId ?? null };
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // Unknown API paths keep the API's JSON 404.
    if (pathname === '/api' || pathname.startsWith('/api/')) return reply.callNotFound();
    // A form action changes state like an API write: only our own pages may post to it.
    if (!SAFE_METHODS.has(request.method) && isCrossSite(request, app.config.publicUrl)) {
      return reply.status(403).send({ detail: 'Cross-site form post refused.', code: 'forbidden' });
    }

    if (vite)
      return handOver(request, reply, (req, res) =>
        vite.middlewares(req, res, () => devListener?.(req, res)),
      );

    const prod = await loadProduction();
    if (!prod) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (or `npm start`, which builds it).');
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      const file = staticFile(prod.files, clientDir, pathname);
      if (file) return sendStatic(reply, file, pathname);
    }
    return handOver(request, reply, prod.listener);
  };

  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler });
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/', handler });
}

/**
 * How the web app's server-side code calls the API (decision 003). With `API_URL` set the API lives
 * elsewhere: null, and the web app uses HTTP. Otherwise the request goes through this very app's
 * routes in process (`app.inject`): the same hooks, auth, validation, rate limits and error bodies as
 * over HTTP, without a loopback socket, a Request or a Response per call (decision 111). The browser's
 * address is the request's remote address, so per-IP limits count the browser, as X-Forwarded-For
 * does over HTTP. One call function serves one page request: its calls share one token lookup and
 * one read of the owner's applications (`withPageMemo`).
 */
export function inProcessCall(app: FastifyInstance, clientIp: string): InProcessCall | null {
  if (app.config.apiUrl) return null;
  const pageMemo: PageMemo = new Map();
  return async ({ method, path, headers, body }) => {
    let payload: string | Buffer | undefined;
    let sent = headers;
    if (body instanceof FormData) {
      // Multipart bytes with their boundary in content-type, as fetch would send them.
      const encoded = new Request('http://in-process/', { method: 'POST', body });
      payload = Buffer.from(await encoded.arrayBuffer());
      sent = { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' };
    } else payload = body;
    const res = await withPageMemo(pageMemo, SAFE_METHODS.has(method), () =>
      app.inject({
        method: method as HTTPMethods,
        url: path,
        headers: sent,
        ...(payload !== undefined && { payload }),
        remoteAddress: clientIp || '127.0.0.1',
      }),
    );
    return { status: res.statusCode, body: res.payload ? parsedBody(res.payload) : undefined };
  };
}

/** JSON as the API sends it; anything else (never expected from our routes) as its text. */
function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Gives the raw request/response to React Router (or Vite); Fastify stops managing the reply. */
function handOver(request: FastifyRequest, reply: FastifyReply, listener: Listener) {
  // Headers set by earlier hooks (request id) would be lost with the hijacked reply; copy them.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
  }
  // React Router builds its Request from rawHeaders: drop any client-sent copy, then add ours.
  const nonce = randomBytes(16).toString('base64');
  const raw = request.raw.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!INTERNAL_HEADERS.has(raw[i]?.toLowerCase() ?? '')) kept.push(raw[i] as string, raw[i + 1] as string);
  }
  kept.push(NONCE_HEADER, nonce, CLIENT_IP_HEADER, request.ip);
  request.raw.rawHeaders.splice(0, raw.length, ...kept);
  request.raw.headers[NONCE_HEADER] = nonce;
  request.raw.headers[CLIENT_IP_HEADER] = request.ip;
  reply.hijack();
  listener(request.raw, reply.raw);
}

/**
 * Every file of build/client as a URL path ("/assets/x.js"), listed once with the build it belongs
 * to: a page request then costs a set lookup, not a failed stat (decision 111).
 */
function clientFiles(clientDir: string): Set<string> {
  const files = fs.readdirSync(clientDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  return new Set(
    files.map(
      (f) => `/${path.relative(clientDir, path.join(f.parentPath, f.name)).split(path.sep).join('/')}`,
    ),
  );
}

/** The build/client file for a URL path, if there is one (only files listed from build/client). */
function staticFile(files: Set<string>, clientDir: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  return files.has(decoded) ? path.join(clientDir, decoded) : undefined;
}

function sendStatic(reply: FastifyReply, file: string, pathname: string) {
  const ext = path.extname(file);
  reply.type(MIME[ext] ?? 'application/octet-stream');
  // Fingerprinted build assets never change; everything else is revalidated.
  reply.header(
    'cache-control',
    pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  );
  return reply.send(fs.createReadStream(file));
}
