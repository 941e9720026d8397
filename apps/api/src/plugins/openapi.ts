import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas: `/api/docs/` (browsable) and `/api/docs/json`. */
export default fp(async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Cairn API', version: '0.1.0', description: 'Chat assistants over your own knowledge.' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key>' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});
