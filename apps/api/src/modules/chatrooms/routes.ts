import { ZAppParams } from '@cairn/contracts/applications';
import {
  ZChatroom,
  ZChatroomList,
  ZChatroomMessages,
  ZChatroomParams,
  ZFeedbackRequest,
  ZMessage,
  ZMessageParams,
  ZSendMessageRequest,
  ZSendMessageResponse,
  ZUpdateChatroomRequest,
} from '@cairn/contracts/chat';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteChatroom } from './delete-chatroom.ts';
import { getChatroomMessages } from './get-chatroom-messages.ts';
import { listChatrooms } from './list-chatrooms.ts';
import { regenerateAnswer } from './regenerate-answer.ts';
import { sendMessage } from './send-message.ts';
import { setFeedback } from './set-feedback.ts';
import { stopAnswer } from './stop-answer.ts';
import { updateChatroom } from './update-chatroom.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/applications/:appId/chatrooms';

export default async function chatroomRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['chat'], security: [{ token: [] }] };

  app.get(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description:
          "The sidebar's conversations, latest activity first: the caller's own chats (source `web`) and " +
          'the conversations of any source a visitor is waiting in or a person answers (`waiting_since` set ' +
          'or `handled_by: human`). Every conversation is in the conversation log.',
        params: ZAppParams,
        response: { 200: ZChatroomList, ...errors },
      },
    },
    (request) => listChatrooms(app, request.user.id, request.params.appId),
  );

  app.get(
    `${prefix}/:chatroomId/messages/`,
    { schema: { ...base, params: ZChatroomParams, response: { 200: ZChatroomMessages, ...errors } } },
    async (request) => {
      const { chatroomId, view } = await getChatroomMessages(
        app,
        request.user.id,
        request.params.appId,
        request.params.chatroomId,
      );
      await app.events.emit('chatroom.seen', { ownerId: request.user.id, chatroomId });
      return view;
    },
  );

  app.post(
    `${prefix}/send-message/`,
    {
      schema: {
        ...base,
        description:
          '`chatroom_identifier` is a chatroom uuid or `new_chat` (creates a chatroom named from the message). ' +
          "`sender_identifier` must be the caller's own `reg_<id>`. Unless `send_to_user`, an answer from the " +
          'assistant (sender `assistant`) is started and streamed as `message` events on `/api/ws`.',
        params: ZAppParams,
        body: ZSendMessageRequest,
        response: { 201: ZSendMessageResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return sendMessage(app, request.user, request.params.appId, request.body);
    },
  );

  app.patch(
    `${prefix}/:chatroomId/`,
    {
      schema: {
        ...base,
        description:
          'Renames the chatroom and/or sets who answers in it: `handled_by: "human"` takes it over (the ' +
          'assistant stays silent there), `"assistant"` hands it back. Either ends a visitor\'s wait for a person.',
        params: ZChatroomParams,
        body: ZUpdateChatroomRequest,
        response: { 200: ZChatroom, ...errors },
      },
    },
    async (request) => {
      const { appId, chatroomId } = request.params;
      return updateChatroom(app, request.user.id, appId, chatroomId, request.body);
    },
  );

  app.delete(
    `${prefix}/:chatroomId/`,
    {
      schema: {
        ...base,
        params: ZChatroomParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      const { appId, chatroomId } = request.params;
      await deleteChatroom(app, request.user.id, appId, chatroomId);
      await app.events.emit('chat.changed', {
        ownerId: request.user.id,
        change: {
          kind: 'chatroom_deleted',
          application_uuid: appId,
          chatroom_uuid: chatroomId,
        },
      });
      return reply.status(204).send(null);
    },
  );

  const answerRoute = `${prefix}/:chatroomId/messages/:messageId`;
  app.post(
    `${answerRoute}/stop/`,
    { schema: { ...base, params: ZMessageParams, response: { 200: ZMessage, ...errors } } },
    (request) => stopAnswer(app, request.user.id, request.params),
  );
  app.post(
    `${answerRoute}/regenerate/`,
    { schema: { ...base, params: ZMessageParams, response: { 200: ZMessage, ...errors } } },
    (request) => regenerateAnswer(app, request.user.id, request.params),
  );
  app.put(
    `${answerRoute}/feedback/`,
    {
      schema: {
        ...base,
        params: ZMessageParams,
        body: ZFeedbackRequest,
        response: { 200: ZMessage, ...errors },
      },
    },
    (request) => setFeedback(app, request.user.id, request.params, request.body.feedback),
  );
}
