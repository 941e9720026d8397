import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The fields of a `multipart/form-data` body that the handler reads itself (`readForm`), so
     * the route has no body schema to validate with: documented as the operation's request body,
     * for multipart and for JSON (the same fields, files left out).
     */
    formBody?: z.ZodObject;
  }
}

/** OpenAPI generated from the routes' zod schemas: `/api/docs/` (browsable) and `/api/docs/json`. */
export default fp(async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Cairn API', version: '0.1.0', description: 'Chat assistants over your own knowledge.' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key>' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An application API key (`cairn_…`), for the OpenAI-compatible API under /api/v1 only',
          },
          visitorToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A website visitor token (`cwv1.…`), minted into the embed page; for /api/widget/v1 only',
          },
        },
      },
    },
    transform: (input) => {
      // The document is the API's: the web app's pages and files are not operations.
      if (input.url !== '/api' && !input.url.startsWith('/api/'))
        return { schema: { hide: true }, url: input.url };
      const transformed = jsonSchemaTransform(input);
      const form = input.route.config?.formBody;
      if (form) transformed.schema = { ...transformed.schema, body: formBodyContent(form) };
      return transformed;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});

type JsonSchemaObject = { properties?: Record<string, { format?: string }>; required?: string[] };

function formBodyContent(form: z.ZodObject) {
  const multipart = z.toJSONSchema(form, { target: 'openapi-3.0', io: 'input' }) as JsonSchemaObject;
  const files = Object.entries(multipart.properties ?? {})
    .filter(([, property]) => property.format === 'binary')
    .map(([name]) => name);
  const json: JsonSchemaObject = {
    ...multipart,
    properties: Object.fromEntries(
      Object.entries(multipart.properties ?? {}).filter(([name]) => !files.includes(name)),
    ),
    ...(multipart.required && { required: multipart.required.filter((name) => !files.includes(name)) }),
  };
  return {
    content: { 'multipart/form-data': { schema: multipart }, 'application/json': { schema: json } },
  };
}
