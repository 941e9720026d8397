import { ZAppParams } from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import { ZUpdateWidgetRequest, ZWidgetSettings } from '@cairn/contracts/widget';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findApplication } from '../../lib/find-application.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { listRefusedOrigins } from './refused-origins.ts';
import { loadWidget, serializeWidget, updateWidget, type Widget } from './widget-settings.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const path = '/api/applications/:appId/widget/';

/** The owner's widget settings (session auth). */
export default async function widgetSettingsRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['widget'], security: [{ token: [] }] };
  const settingsOf = async (application: ApplicationRow, widget: Widget) =>
    serializeWidget(
      widget,
      app.config.publicUrl,
      application.uuid,
      await listRefusedOrigins(app, application.id, widget),
    );

  app.get(
    path,
    { schema: { ...base, params: ZAppParams, response: { 200: ZWidgetSettings, ...errors } } },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return settingsOf(application, await loadWidget(app.db, application));
    },
  );

  app.patch(
    path,
    {
      schema: {
        ...base,
        description:
          'Changes any subset of the settings (`limits` and `takeover` field by field). The widget is off and ' +
          'allows no origin until the owner says otherwise: an enabled widget with no allowed origin works nowhere.',
        params: ZAppParams,
        body: ZUpdateWidgetRequest,
        response: { 200: ZWidgetSettings, ...errors },
      },
    },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return settingsOf(application, await updateWidget(app, application, request.body));
    },
  );
}
