import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: {
      /** True from the start of a drain: the health check says so and new requests are refused. */
      readonly draining: boolean;
      /**
       * Graceful drain before `close()` (decision 052): refuse new requests, take no new answer or
       * job, let the answers and jobs under way finish for up to `timeoutMs`, hand the rest back to
       * their queues. Sockets stay open meanwhile, so the answers finishing still reach them.
       */
      drain(timeoutMs: number): Promise<void>;
      /** Work a module lets finish during a drain, beside the answers and jobs (for up to `timeoutMs`). */
      onDrain(task: (timeoutMs: number) => Promise<void>): void;
    };
  }
}

/** Where a balancer asks whether to send traffic here: it answers `draining` with a 503. */
export const HEALTH_PATH = '/api/health/';

export default fp(async function drainPlugin(app: FastifyInstance) {
  let draining = false;
  let drained: Promise<void> | undefined;
  const tasks: Array<(timeoutMs: number) => Promise<void>> = [];
  app.decorate('lifecycle', {
    get draining() {
      return draining;
    },
    drain(timeoutMs: number) {
      drained ??= (async () => {
        draining = true;
        app.log.info({ timeoutMs }, 'draining: new requests are refused, work under way finishes');
        await Promise.all([
          app.answers.drain(timeoutMs),
          app.jobs.drain(timeoutMs),
          ...tasks.map((task) => task(timeoutMs)),
        ]);
        // 1012 (Service Restart): the web app reconnects, to another process or to this one
        // restarted, and reads what it missed. (Closed at `close()` they would get no code.)
        for (const socket of app.websocketServer.clients) socket.close(1012, 'Server restarting');
      })();
      return drained;
    },
    onDrain(task) {
      tasks.push(task);
    },
  });
  // Requests already under way (an answer streamed to the public API) go on; a new one is sent
  // elsewhere: a balancer retries it on another process, a client after `retry-after`.
  app.addHook('onRequest', async (request, reply) => {
    if (!draining || request.url === HEALTH_PATH) return;
    reply.header('connection', 'close');
    if (!request.url.startsWith('/api/') && request.headers.accept?.includes('text/html')) {
      // A person opening a page (one process, no balancer): it loads again by itself.
      return reply
        .status(503)
        .header('retry-after', '1')
        .type('text/html; charset=utf-8')
        .send(RESTARTING_PAGE);
    }
    throw new AppError('unavailable', 'The server is restarting. Try again in a moment.', undefined, {
      'retry-after': '1',
    });
  });
});

const RESTARTING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta http-equiv="refresh" content="2">
<title>Restarting…</title></head><body style="font-family:system-ui,sans-serif;margin:20vh auto;max-width:28rem;padding:0 1rem;text-align:center">
<p>Cairn is restarting. This page loads again in a moment.</p></body></html>`;
