import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZAppParams } from '@cairn/contracts/applications';
import {
  ZConversationExportQuery,
  ZConversationPage,
  ZConversationQuery,
  ZDeleteVisitorQuery,
  ZDeleteVisitorResponse,
} from '@cairn/contracts/conversations';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findApplication } from '../../lib/find-application.ts';
import { takeOverReply } from '../../lib/take-over-reply.ts';
import { deleteVisitorConversations } from './delete-visitor-conversations.ts';
import { exportConversations } from './export-conversations.ts';
import { listConversations } from './list-conversations.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/applications/:appId/conversations';

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

/** The conversation log of an application: list, export, and erasing a visitor's conversations (decision 065). */
export default async function conversationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['conversations'], security: [{ token: [] }] };

  app.get(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description:
          'The conversations, newest activity first, `limit` a page (keyset: pass `next_cursor` as `cursor`). ' +
          '`q` searches the words of questions and answers (web-search syntax: "a phrase", -word, or); `from` ' +
          "and `to` are days of the conversation's start in the owner's time zone, `to` included; `rating` up/down: " +
          'has an answer rated so, none: no rated answer; `status` waiting (for a person), human (taken over) or ' +
          'assistant; `not_covered=true`: has an answer the knowledge did not cover.',
        params: ZAppParams,
        querystring: ZConversationQuery,
        response: { 200: ZConversationPage, ...errors },
      },
    },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return listConversations(app, request.user.id, application.id, request.query);
    },
  );

  app.get(
    `${prefix}/export/`,
    {
      schema: {
        ...base,
        description:
          "Every message of the conversations matching the log's filters, streamed as CSV (UTF-8 with BOM, " +
          "RFC 4180; cells starting with = + - @ get a leading ') or JSON lines: conversation, source, " +
          'created_at, sender, role (user, assistant, owner), text, rating, sources (cited titles). ' +
          "Conversations in the log's order, messages oldest first; messages written after the export began are left out.",
        params: ZAppParams,
        querystring: ZConversationExportQuery,
        produces: [EXPORT_TYPES.csv, EXPORT_TYPES.jsonl],
        response: { 200: z.string().describe('The file'), ...errors },
      },
    },
    async (request, reply) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      const { format, ...filters } = request.query;
      const day = new Date().toISOString().slice(0, 10);
      // Taken over from Fastify to stream: the pipeline waits for the socket to drain between chunks.
      const res = takeOverReply(reply, {
        'content-type': EXPORT_TYPES[format],
        'content-disposition': `attachment; filename="conversations-${day}.${format}"`,
        'cache-control': 'no-store',
      });
      try {
        await pipeline(
          Readable.from(exportConversations(app.database, request.user.id, application.id, filters, format)),
          res,
        );
      } catch (error) {
        // The client went away (nothing to answer), or the database failed mid-file: the cut
        // connection tells the client the file is incomplete.
        res.destroy();
        request.log.warn({ err: error }, 'conversation export ended early');
      }
    },
  );

  app.delete(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description:
          "Deletes every conversation in which the visitor (a sender identifier, as the log's `visitor` shows it) " +
          'wrote, with its messages; open tabs drop them (`chatroom_deleted`). The analytics keep their totals.',
        params: ZAppParams,
        querystring: ZDeleteVisitorQuery,
        response: { 200: ZDeleteVisitorResponse, ...errors },
      },
    },
    async (request) => {
      const { appId } = request.params;
      const application = await findApplication(app.db, request.user.id, appId);
      const deleted = await deleteVisitorConversations(app, application.id, request.query.visitor);
      for (const chatroom_uuid of deleted)
        await app.events.emit('chat.changed', {
          ownerId: request.user.id,
          change: {
            kind: 'chatroom_deleted',
            application_uuid: appId,
            chatroom_uuid,
          },
        });
      return { deleted: deleted.length };
    },
  );
}
