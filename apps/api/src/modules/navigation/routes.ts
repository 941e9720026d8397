import { ZErrorBody } from '@cairn/contracts/errors';
import { SIDEBAR_CHATROOMS, ZNavigation, ZNavigationQuery } from '@cairn/contracts/navigation';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/app-error.ts';
import { applicationRowsOf } from '../../lib/find-application.ts';
import { serializeUser } from '../accounts/serialize-user.ts';
import { serializeApplication } from '../applications/serialize-application.ts';
import { countAttention } from '../attention/get-attention.ts';
import { sidebarChatroomsOf } from '../chatrooms/list-chatrooms.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody };

/**
 * The web app's navigation step in one call (decision 003): every signed-in page needs the same four
 * reads, and one call costs one authentication and one application lookup instead of four.
 */
export default async function navigationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** The sidebar's parts that a page can render without: a failure is logged and shown as null. */
  const optional = <T>(request: FastifyRequest, what: string, read: Promise<T>) =>
    read.catch((err: unknown) => {
      request.log.error({ err }, `navigation: could not read ${what}`);
      return null;
    });

  app.get(
    '/api/navigation/',
    {
      schema: {
        tags: ['accounts'],
        security: [{ token: [] }],
        description:
          'The signed-in user, their applications, and for the application named by `application` (else ' +
          `the first) its latest ${SIDEBAR_CHATROOMS} sidebar chatrooms (as \`GET …/chatrooms/\`; \`more_chatrooms\` says whether there ` +
          'are more) and the attention badge counts. An `application` that is not one ' +
          "of the caller's is a 404.",
        querystring: ZNavigationQuery,
        response: { 200: ZNavigation, ...errors },
      },
    },
    async (request) => {
      const rows = await applicationRowsOf(app.db, request.user.id);
      const wanted = request.query.application?.toLowerCase();
      const selected = wanted ? rows.find((row) => row.uuid === wanted) : rows[0];
      if (wanted && !selected) throw notFound('Application not found.');
      const [sidebar, attention] = selected
        ? await Promise.all([
            optional(request, 'chatrooms', sidebarChatroomsOf(app.db, selected.id, SIDEBAR_CHATROOMS)),
            optional(request, 'attention counts', countAttention(app, selected.id)),
          ])
        : [{ chatrooms: [], more: false }, null];
      return {
        user: serializeUser(request.user),
        applications: rows.map(serializeApplication),
        selected: selected?.uuid ?? null,
        chatrooms: sidebar?.chatrooms ?? null,
        more_chatrooms: sidebar?.more ?? false,
        attention,
      };
    },
  );
}
