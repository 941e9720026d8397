import {
  ZChangeEmailRequest,
  ZChangeEmailResponse,
  ZChangePasswordRequest,
  ZDeleteAccountRequest,
  ZEndSessionsResponse,
  ZSessionList,
  ZSessionParams,
} from '@cairn/contracts/account-settings';
import { ZDetailResponse } from '@cairn/contracts/accounts';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH_COOKIE } from '../../plugins/auth.ts';
import { endOtherSessions, endSession, listSessions } from './account-sessions.ts';
import { pendingEmailOf, requestEmailChange } from './change-email.ts';
import { changePassword } from './change-password.ts';
import { deleteAccount } from './delete-account.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 429: ZErrorBody };
const security = [{ token: [] }];
const tags = ['accounts'];

/** The account page's operations (decision 058); registered behind `authenticate`. */
export default async function meRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/me/sessions/',
    { schema: { tags, security, response: { 200: ZSessionList, ...errors } } },
    async (request) => listSessions(app, request.user.id, request.authTokenHash, app.config.sessionLifetime),
  );

  app.delete(
    '/api/me/sessions/',
    {
      schema: {
        tags,
        security,
        description: 'Signs out every session of the user except the one making this request.',
        response: { 200: ZEndSessionsResponse, ...errors },
      },
    },
    async (request) => ({ ended: await endOtherSessions(app.db, request.user.id, request.authTokenHash) }),
  );

  app.delete(
    '/api/me/sessions/:sessionId/',
    {
      schema: {
        tags,
        security,
        params: ZSessionParams,
        response: { 204: z.null().describe('Done'), ...errors },
      },
    },
    async (request, reply) => {
      const wasCurrent = await endSession(
        app,
        request.user.id,
        request.params.sessionId,
        request.authTokenHash,
      );
      if (wasCurrent) reply.clearCookie(AUTH_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/me/password/',
    {
      schema: {
        tags,
        security,
        description:
          'Changes the password (the current one is required). Every other session and every unused password reset or e-mail change link ends.',
        body: ZChangePasswordRequest,
        response: { 200: ZDetailResponse, ...errors },
      },
    },
    async (request) => {
      await changePassword(app, request.user, request.authTokenHash, request.body);
      return { detail: 'Your password was changed. Every other session was signed out.' };
    },
  );

  app.get(
    '/api/me/email/',
    {
      schema: {
        tags,
        security,
        response: { 200: z.object({ email: z.string(), pending_email: z.string().nullable() }), ...errors },
      },
    },
    async (request) => ({
      email: request.user.email,
      pending_email: await pendingEmailOf(app, request.user.id),
    }),
  );

  app.post(
    '/api/me/email/',
    {
      schema: {
        tags,
        security,
        description:
          'Asks to move the account to another address (password required). A link goes to the new address; the change takes effect when it is opened, and the current address is told. The answer does not say whether the new address has an account.',
        body: ZChangeEmailRequest,
        response: { 202: ZChangeEmailResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return requestEmailChange(app, request.user, request.body);
    },
  );

  app.delete(
    '/api/me/',
    {
      schema: {
        tags,
        security,
        description:
          'Deletes the account (password required) with its applications, knowledge and stored files, conversations, keys, webhooks, integrations, notifications and sessions.',
        body: ZDeleteAccountRequest,
        response: { 204: z.null().describe('Done'), ...errors },
      },
    },
    async (request, reply) => {
      await deleteAccount(app, request.user, request.body.password);
      reply.clearCookie(AUTH_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );
}
