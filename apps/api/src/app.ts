import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge';
import type { Database } from '@cairn/db/client';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { loggerOptions, RequestLogController } from './lib/logger.ts';
import { createProductEventBus } from './lib/product-events.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import accountRoutes, { DEFAULT_AUTH_RATE_LIMITS } from './modules/accounts/routes.ts';
import analyticsRoutes from './modules/analytics/routes.ts';
import apiKeyRoutes from './modules/api-keys/routes.ts';
import applicationRoutes from './modules/applications/routes.ts';
import attentionRoutes from './modules/attention/routes.ts';
import answerPlugin, { type AnswerOptions } from './modules/chatrooms/answer/answer-plugin.ts';
import { defaultAnswerDeps } from './modules/chatrooms/answer/default-deps.ts';
import chatroomRoutes from './modules/chatrooms/routes.ts';
import conversationRoutes from './modules/conversations/routes.ts';
import healthRoutes from './modules/health/routes.ts';
import integrationsPlugin from './modules/integrations/integrations-plugin.ts';
import type { PollerSettings } from './modules/integrations/telegram-poller.ts';
import knowledgePlugin from './modules/knowledge/knowledge-plugin.ts';
import knowledgeRoutes from './modules/knowledge/routes.ts';
import knowledgeSearchRoutes from './modules/knowledge-search/routes.ts';
import mcpRoutes from './modules/mcp/routes.ts';
import modelProviderRoutes from './modules/model-providers/routes.ts';
import navigationRoutes from './modules/navigation/routes.ts';
import notificationsPlugin from './modules/notifications/notifications-plugin.ts';
import publicApiRoutes from './modules/public-api/routes.ts';
import retentionPlugin from './modules/retention/retention-plugin.ts';
import widgetPlugin from './modules/widget/widget-plugin.ts';
import authPlugin from './plugins/auth.ts';
import databasePlugin from './plugins/database.ts';
import drainPlugin from './plugins/drain.ts';
import errorsPlugin, { clientErrorHandler, frameworkErrorHandler } from './plugins/errors.ts';
import jobsPlugin from './plugins/jobs.ts';
import openapiPlugin from './plugins/openapi.ts';
import productOutboxPlugin from './plugins/product-outbox.ts';
import realtimePlugin from './plugins/realtime.ts';
import webPlugin from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    mailer: Mailer;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Run background jobs in this process (ROLE=all or worker); answers follow `config.answerSlots`. */
  runWorkers: boolean;
  logger?: boolean;
  mailer?: Mailer;
  rateLimits?: typeof DEFAULT_AUTH_RATE_LIMITS;
  /** Answer worker tuning; tests shorten how long a silent provider is waited for. */
  answer?: Partial<Omit<AnswerOptions, 'runWorkers' | 'deps'>> & { providerIdleTimeoutMs?: number };
  /** Chat integrations; tests poll Telegram with a short timeout. */
  integrations?: { poller?: Partial<PollerSettings> };
  /** `deliver: false`: durable product events stay in the outbox (a test's process that "crashed"). */
  productEvents?: { deliver?: boolean };
}

/** Helmet's default Strict-Transport-Security value. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** The whole application as one Fastify instance; `server.ts` decides how the process runs it. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config),
    logController: new RequestLogController(),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Only the listed proxies' X-Forwarded-* count, loopback included (decision 057). The web app's
    // in-process calls carry the browser's address as their remote address (plugins/web.ts).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    // pg-boss 12 creates (or upgrades) its schema while the jobs plugin starts: a first start on a
    // busy machine took longer than Fastify's default 10 s, and startup then failed.
    pluginTimeout: 120_000,
    routerOptions: { ignoreTrailingSlash: false },
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // HSTS only where it means something: over https, as the socket or a trusted proxy says.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });

  app.decorate('config', config);
  // Before every plugin: each module's plugin subscribes to the product's events as it starts.
  app.decorate(
    'events',
    createProductEventBus(() => ({
      database: app.database,
      db: app.db,
      log: app.log,
      deliver: opts.productEvents?.deliver ?? true,
    })),
  );
  // The one box the stored secrets (provider keys, webhook secrets, bot tokens) are sealed in.
  app.decorate('secrets', createSecretBox(config.secretKey));
  app.decorate(
    'mailer',
    opts.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: `${config.dataDir}/outbox`,
        log: app.log,
      }),
  );
  app.addHook('onClose', async () => {
    await app.mailer.close();
  });

  await app.register(errorsPlugin);
  // The web app sets its own Content-Security-Policy for pages; API responses are JSON.
  await app.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, hsts: false });
  await app.register(cookie);
  await app.register(multipart, {
    // A full knowledge request: one file and at most four fields (type, value, title, crawl_depth) per item.
    limits: {
      fileSize: config.maxUploadBytes,
      files: KNOWLEDGE_LIMITS.itemsPerRequest,
      fields: 5 * KNOWLEDGE_LIMITS.itemsPerRequest,
      fieldSize: 1024 * 1024,
    },
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(databasePlugin, { database: opts.database });
  await app.register(openapiPlugin);
  await app.register(authPlugin, { publicUrl: config.publicUrl });
  await app.register(jobsPlugin, { runWorkers: opts.runWorkers });
  await app.register(drainPlugin);
  await app.register(realtimePlugin, { serveSockets: true });

  await app.register(healthRoutes);
  await app.register(accountRoutes, { rateLimits: opts.rateLimits ?? DEFAULT_AUTH_RATE_LIMITS });
  await app.register(notificationsPlugin);
  await app.register(knowledgePlugin);
  await app.register(applicationRoutes);
  await app.register(knowledgeRoutes);
  await app.register(knowledgeSearchRoutes);
  await app.register(chatroomRoutes);
  await app.register(attentionRoutes);
  await app.register(analyticsRoutes);
  await app.register(conversationRoutes);
  await app.register(navigationRoutes);
  await app.register(answerPlugin, {
    runWorkers: config.answerSlots > 0,
    concurrency: config.answerSlots,
    deps: defaultAnswerDeps(opts.answer?.providerIdleTimeoutMs),
    ...opts.answer,
  });
  await app.register(modelProviderRoutes);
  await app.register(apiKeyRoutes);
  await app.register(publicApiRoutes);
  await app.register(mcpRoutes);
  await app.register(widgetPlugin);
  await app.register(import('./modules/webhooks/webhooks-plugin.ts'));
  await app.register(integrationsPlugin, opts.integrations ?? {});
  await app.register(retentionPlugin);
  // After every subscriber's plugin: its start-up sweep runs after theirs (the webhooks' re-queue
  // of a dead process's deliveries would otherwise queue the ones it makes a second time).
  await app.register(productOutboxPlugin);
  // The web app's catch-all stays last: everything no API route claimed is a page.
  await app.register(webPlugin);
  return app;
}
