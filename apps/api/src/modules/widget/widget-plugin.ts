import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import embedRoutes from './embed-routes.ts';
import { defineHandoffTimeouts } from './handoff.ts';
import widgetSettingsRoutes from './routes.ts';
import visitorRoutes from './visitor-routes.ts';
import { createVisitorTokens, type VisitorTokens } from './visitor-token.ts';
import { endVisitorStreams } from './widget-events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    visitorTokens: VisitorTokens;
  }
}

/** The website widget (decision 045): owner settings, the visitor API, the loader and embed page. */
export default fp(async function widgetPlugin(app: FastifyInstance) {
  app.decorate('visitorTokens', createVisitorTokens(app.config.secretKey));
  await app.register(widgetSettingsRoutes);
  await app.register(visitorRoutes);
  await app.register(embedRoutes);
  await defineHandoffTimeouts(app);
  app.addHook('preClose', async () => endVisitorStreams(app));
});
