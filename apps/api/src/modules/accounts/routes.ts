import {
  ZDetailResponse,
  ZEmail,
  ZEmailRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZRegisterRequest,
  ZRegisterResponse,
  ZResetPasswordRequest,
  ZTokenRequest,
  ZUpdateMeRequest,
  ZUser,
} from '@cairn/contracts/accounts';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addressKey } from '../../lib/address-key.ts';
import { enforceLimits, type Limit } from '../../lib/rate-limit.ts';
import { AUTH_COOKIE } from '../../plugins/auth.ts';
import meRoutes from './me-routes.ts';
import { registerUser } from './register-user.ts';
import { forgotPassword, resetPassword } from './reset-password.ts';
import { defineAccountMail } from './send-account-mail.ts';
import { serializeUser } from './serialize-user.ts';
import { logoutUser } from './sessions.ts';
import { signInThrottled } from './sign-in-throttle.ts';
import { updateMe } from './update-me.ts';
import { resendVerification, verifyEmail } from './verify-email.ts';

/**
 * Per-address and per-account limits of the unauthenticated account endpoints. Sign-in has no
 * per-account limit, which anyone could trip to lock the owner out: its failures slow down per
 * (account, address) instead (sign-in-throttle.ts).
 */
export interface AuthRateLimits {
  perIp: { max: number; windowSeconds: number };
  perAccount?: { max: number; windowSeconds: number };
}
export const DEFAULT_AUTH_RATE_LIMITS: Record<'login' | 'register' | 'forgot' | 'resend', AuthRateLimits> = {
  login: { perIp: { max: 30, windowSeconds: 600 } },
  register: { perIp: { max: 10, windowSeconds: 3600 }, perAccount: { max: 5, windowSeconds: 3600 } },
  forgot: { perIp: { max: 10, windowSeconds: 3600 }, perAccount: { max: 3, windowSeconds: 3600 } },
  resend: { perIp: { max: 10, windowSeconds: 3600 }, perAccount: { max: 3, windowSeconds: 3600 } },
};

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 429: ZErrorBody };

export default async function accountRoutes(
  fastify: FastifyInstance,
  opts: { rateLimits: typeof DEFAULT_AUTH_RATE_LIMITS },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await defineAccountMail(fastify);

  /**
   * Runs before validation, so malformed floods are counted too (per IP). The account key is the
   * e-mail as the schema normalises it; input that is no e-mail address names no account (and may
   * hold characters the database cannot store, such as NUL).
   */
  const limitBy = (action: keyof typeof DEFAULT_AUTH_RATE_LIMITS) => async (request: FastifyRequest) => {
    const parsed = ZEmail.safeParse((request.body as { email?: unknown } | undefined)?.email);
    const email = parsed.success ? parsed.data : '';
    const l = opts.rateLimits[action];
    const limits: Limit[] = [{ key: `${action}:ip:${addressKey(request.ip)}`, ...l.perIp }];
    if (email && l.perAccount) limits.push({ key: `${action}:acct:${email}`, ...l.perAccount });
    await enforceLimits(app.database, limits);
  };

  app.post(
    '/api/register/',
    {
      preValidation: limitBy('register'),
      schema: { tags: ['accounts'], body: ZRegisterRequest, response: { 201: ZRegisterResponse, ...errors } },
    },
    async (request, reply) => {
      reply.status(201);
      return registerUser(app, request.body);
    },
  );

  app.post(
    '/api/verify-email/',
    { schema: { tags: ['accounts'], body: ZTokenRequest, response: { 200: ZDetailResponse, ...errors } } },
    async (request) => ({ detail: await verifyEmail(app, request.body.token) }),
  );

  app.post(
    '/api/verify-email/resend/',
    {
      preValidation: limitBy('resend'),
      schema: { tags: ['accounts'], body: ZEmailRequest, response: { 200: ZDetailResponse, ...errors } },
    },
    async (request) => {
      await resendVerification(app, request.body.email);
      return { detail: 'If that address has an account waiting for verification, a new link is on its way.' };
    },
  );

  app.post(
    '/api/login/',
    {
      preValidation: limitBy('login'),
      schema: { tags: ['accounts'], body: ZLoginRequest, response: { 200: ZLoginResponse, ...errors } },
    },
    async (request) =>
      signInThrottled(app, request.body, addressKey(request.ip), {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
  );

  app.post(
    '/api/forgot-password/',
    {
      preValidation: limitBy('forgot'),
      schema: { tags: ['accounts'], body: ZEmailRequest, response: { 200: ZDetailResponse, ...errors } },
    },
    async (request) => {
      await forgotPassword(app, request.body.email);
      return { detail: 'If that address has an account, a link to reset the password is on its way.' };
    },
  );

  app.post(
    '/api/reset-password/',
    {
      schema: {
        tags: ['accounts'],
        body: ZResetPasswordRequest,
        response: { 200: ZDetailResponse, ...errors },
      },
    },
    async (request) => {
      await resetPassword(app, request.body);
      return { detail: 'Your password was changed. Sign in with the new one.' };
    },
  );

  app.register(async (authed) => {
    authed.addHook('onRequest', authed.authenticate);
    const r = authed.withTypeProvider<ZodTypeProvider>();
    const security = [{ token: [] }];

    r.get(
      '/api/me/',
      { schema: { tags: ['accounts'], security, response: { 200: ZUser, ...errors } } },
      async (request) => serializeUser(request.user),
    );

    r.patch(
      '/api/me/',
      {
        schema: { tags: ['accounts'], security, body: ZUpdateMeRequest, response: { 200: ZUser, ...errors } },
      },
      async (request) => updateMe(app, request.user.id, request.body),
    );

    await authed.register(meRoutes);

    r.post('/api/logout/', { schema: { tags: ['accounts'], security } }, async (request, reply) => {
      await logoutUser(app, request.authTokenHash);
      reply.clearCookie(AUTH_COOKIE, { path: '/' });
      return reply.status(204).send();
    });
  });
}
