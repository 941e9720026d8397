import { ZErrorBody } from '@cairn/contracts/errors';
import { UNSUBSCRIBE_LABELS, ZUnsubscribeQuery, ZUnsubscribeResponse } from '@cairn/contracts/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { escapeHtml } from './notification-mail.ts';
import { unsubscribe } from './unsubscribe.ts';

const path = '/api/notifications/unsubscribe/';

const page = (title: string, inner: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Cairn</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b;max-width:480px;margin:48px auto;padding:0 24px">
<h1 style="font-size:22px">${escapeHtml(title)}</h1>${inner}</body></html>`;

/**
 * One-click unsubscribe (RFC 8058): the signed link is the only credential, so these routes sit
 * outside the session-authenticated ones. A GET never changes anything (link scanners follow GETs);
 * it shows a confirmation button that POSTs. Mail clients POST `List-Unsubscribe=One-Click` as a
 * form body, which is accepted and ignored: the token in the query says everything.
 */
export default async function unsubscribeRoutes(fastify: FastifyInstance) {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _b, done) => done(null, undefined),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(path, { schema: { hide: true, querystring: ZUnsubscribeQuery } }, async (request, reply) => {
    const claims = app.notifications.unsubscribeTokens.verify(request.query.token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!claims) {
      reply.status(400);
      return page(
        'This link is not valid',
        '<p>The unsubscribe link is incomplete or was changed. Use the link from the e-mail as it is, or change your notification profile after signing in.</p>',
      );
    }
    const label = UNSUBSCRIBE_LABELS[claims.event];
    return page(
      'Stop these e-mails?',
      `<p>You will no longer get e-mails for: <strong>${escapeHtml(label)}</strong>. Other notifications stay as they are.</p>
<form method="post"><button type="submit" style="background:#18181b;color:#fff;padding:10px 18px;border:0;border-radius:6px;font:inherit;cursor:pointer">Unsubscribe</button></form>`,
    );
  });

  // Untyped on purpose: the answer is JSON for mail clients but a page for the confirmation form,
  // and a string is sent as it is, past the JSON response schema.
  fastify.post(
    path,
    {
      schema: {
        tags: ['notifications'],
        description:
          'One-click unsubscribe (RFC 8058) from the `List-Unsubscribe` link of a notification e-mail: turns ' +
          "that event's e-mail off for that user. No session: the signed `token` is the credential.",
        querystring: ZUnsubscribeQuery,
        response: { 200: ZUnsubscribeResponse, 400: ZErrorBody },
      },
    },
    async (request, reply) => {
      const { token } = request.query as z.infer<typeof ZUnsubscribeQuery>;
      const { event } = await unsubscribe(app, token);
      // The confirmation page's own form wants a page back; mail clients get JSON.
      if (request.headers.accept?.includes('text/html')) {
        const html = page(
          'Unsubscribed',
          `<p>You will no longer get e-mails for: <strong>${escapeHtml(UNSUBSCRIBE_LABELS[event])}</strong>.</p>`,
        );
        return reply.type('text/html; charset=utf-8').send(html);
      }
      return { event, email: false as const };
    },
  );
}
