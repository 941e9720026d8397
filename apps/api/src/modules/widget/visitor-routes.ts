import { ZErrorBody } from '@cairn/contracts/errors';
import {
  ZVisitorSession,
  ZWidgetConversation,
  ZWidgetConversationMessages,
  ZWidgetFeedbackRequest,
  ZWidgetMessage,
  ZWidgetSendRequest,
  ZWidgetSendResponse,
} from '@cairn/contracts/widget';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestHandoff } from './handoff.ts';
import { authenticateVisitor, authenticateVisitorIn } from './visitor-auth.ts';
import { getVisitorConversation, sendVisitorMessage, setVisitorFeedback } from './visitor-conversations.ts';
import { streamVisitorEvents } from './widget-events.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/widget/v1';
const ZConversationParams = z.object({ conversationId: z.uuid({ error: 'Not a valid id' }) });
const ZMessageParams = z.object({ messageId: z.uuid({ error: 'Not a valid id' }) });

/**
 * The visitor's API, called from the chat in the iframe with a visitor token (decision 045). Every
 * call re-checks the token and the widget (on, origin allowed); a visitor reaches only their own
 * conversations.
 */
export default async function visitorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['widget visitor'], security: [{ visitorToken: [] }] };

  app.post(
    `${prefix}/session/`,
    {
      schema: {
        ...base,
        description:
          'Exchanges a visitor token (valid, or expired less than 7 days ago) for a fresh one for the same ' +
          'visitor, while the widget still allows its origin.',
        response: { 200: ZVisitorSession, ...errors },
      },
    },
    async (request) => {
      const { claims } = await authenticateVisitor(app, request, { renewal: true });
      const minted = app.visitorTokens.mint({ a: claims.a, v: claims.v, o: claims.o });
      return { token: minted.token, visitor_uuid: claims.v, expires_at: minted.expiresAt.toISOString() };
    },
  );

  app.get(
    `${prefix}/conversations/:conversationId/`,
    {
      schema: {
        ...base,
        params: ZConversationParams,
        response: { 200: ZWidgetConversationMessages, ...errors },
      },
    },
    async (request) => {
      const { visitor, chatroom } = await authenticateVisitorIn(app, request, request.params.conversationId);
      return getVisitorConversation(app, visitor, chatroom);
    },
  );

  app.post(
    `${prefix}/messages/`,
    {
      bodyLimit: 64 * 1024,
      schema: {
        ...base,
        description:
          '`conversation_uuid` null starts a new conversation. Over a limit: 429 with the owner’s limit ' +
          'message as `detail`. The answer streams on `GET /api/widget/v1/events/`.',
        body: ZWidgetSendRequest,
        response: { 201: ZWidgetSendResponse, ...errors, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      const conversation = request.body.conversation_uuid;
      const { visitor, chatroom } = conversation
        ? await authenticateVisitorIn(app, request, conversation)
        : { visitor: await authenticateVisitor(app, request), chatroom: undefined };
      reply.status(201);
      return sendVisitorMessage(app, visitor, chatroom, request.ip, request.body);
    },
  );

  app.post(
    `${prefix}/messages/:messageId/feedback/`,
    {
      schema: {
        ...base,
        params: ZMessageParams,
        body: ZWidgetFeedbackRequest,
        response: { 200: ZWidgetMessage, ...errors },
      },
    },
    async (request) => {
      const visitor = await authenticateVisitor(app, request);
      return setVisitorFeedback(app, visitor, request.params.messageId, request.body.feedback);
    },
  );

  app.post(
    `${prefix}/conversations/:conversationId/handoff/`,
    {
      schema: {
        ...base,
        description:
          'The visitor asks for a person: the assistant stops answering, the owner is told; if nobody replies ' +
          'within the owner’s wait time, the assistant says so and answers again.',
        params: ZConversationParams,
        response: { 200: ZWidgetConversation, ...errors },
      },
    },
    async (request) => {
      const { visitor, chatroom } = await authenticateVisitorIn(app, request, request.params.conversationId);
      return requestHandoff(app, visitor, chatroom);
    },
  );

  app.get(
    `${prefix}/events/`,
    {
      schema: {
        ...base,
        description:
          'Server-Sent Events (`event: message`, JSON `data`) of the visitor’s own conversations: created, ' +
          'delta, updated, conversation. Read it with fetch (it needs the Authorization header).',
      },
    },
    async (request, reply) => {
      const visitor = await authenticateVisitor(app, request);
      await streamVisitorEvents(app, visitor, reply);
    },
  );
}
