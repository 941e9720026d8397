import type { FastifyInstance } from 'fastify';

/**
 * What a service may use: the collaborators the app decorates itself with, and nothing of the HTTP
 * server (no routes, hooks, plugins or `inject`). A service takes `ctx: Ctx` (or a `Pick` of it when
 * it needs a few), and routes, plugins and workers hand it the app, which satisfies it as it is.
 * Decision 083 has the rules; this file imports types only, so every unit may import it.
 */
export type Ctx = Pick<
  FastifyInstance,
  | 'db'
  | 'database'
  | 'config'
  | 'log'
  | 'secrets'
  | 'mailer'
  | 'events'
  | 'jobs'
  | 'realtime'
  | 'lifecycle'
  | 'knowledge'
  | 'answers'
  | 'webhooks'
  | 'notifications'
  | 'integrations'
  | 'visitorTokens'
>;

/** What resolving a provider model needs: its row, the key that opens its API key, and where it may connect. */
export type ModelCtx = Pick<Ctx, 'database' | 'secrets'> & {
  config: Pick<Ctx['config'], 'providerAddresses'>;
};
