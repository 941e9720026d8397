import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HEALTH_PATH } from '../../plugins/drain.ts';

export default async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    HEALTH_PATH,
    {
      schema: {
        tags: ['health'],
        description:
          'Whether to send traffic here: `ok`, or `draining` with a 503 while the process stops (decision 052).',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('draining') }),
        },
      },
    },
    async (_request, reply) => {
      if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining' as const });
      // The server listens only after migrations are applied; this checks the database still answers.
      await app.database.query('SELECT 1');
      return { status: 'ok' as const };
    },
  );
}
