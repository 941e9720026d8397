import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZAppParams } from '@cairn/contracts/applications';
import { type TWidgetBoot, type TWidgetLauncher, ZOrigin } from '@cairn/contracts/widget';
import { applications } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordRefusal, refusalOf } from './refused-origins.ts';
import { loadWidget, type Widget, widgetConfigOf } from './widget-settings.ts';

/** apps/widget's build: the loader (widget.js) and the chat's bundle (embed.js, embed.css). */
export const WIDGET_DIST = fileURLToPath(new URL('../../../../widget/dist/', import.meta.url));
const ASSET = /^[\w-]+\.(js|css)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON inside a <script> element: `<` escaped so no `</script>` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const allows = (widget: Widget, origin: string | undefined): origin is string =>
  widget.enabled && origin !== undefined && widget.allowed_origins.includes(origin);

function page(
  reply: FastifyReply,
  opts: {
    status: number;
    frameAncestors: string;
    title: string;
    head?: string;
    body: string;
    nonce?: string;
  },
) {
  const scriptSrc = opts.nonce ? `'self' 'nonce-${opts.nonce}'` : "'none'";
  return reply
    .status(opts.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src ${scriptSrc}; style-src 'self' 'unsafe-inline'; connect-src 'self'; ` +
        `img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors ${opts.frameAncestors}`,
    )
    .removeHeader('x-frame-options')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(opts.title)}</title>` +
        `${opts.head ?? ''}</head><body>${opts.body}</body></html>`,
    );
}

/**
 * What a host page and its iframe load: `/widget.js`, the chat's assets, the embed page (framed only
 * by the allowed origin it was opened for) and the launcher settings (CORS for allowed origins only).
 */
export default async function embedRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  async function sendAsset(reply: FastifyReply, file: string) {
    const content = await fs.promises.readFile(path.join(WIDGET_DIST, file)).catch(() => null);
    if (!content) {
      return reply.status(404).send({
        detail: 'Not found. (If this is widget.js: the widget is not built; run npm run build.)',
        code: 'not_found',
      });
    }
    return (
      reply
        .header('content-type', TYPES[file.split('.').pop()!]!)
        // Host pages load the loader from another origin: allow that explicitly (helmet's default is same-origin).
        .header('cross-origin-resource-policy', 'cross-origin')
        // Unhashed names: short caching, so a new version reaches host pages within minutes.
        .header('cache-control', 'public, max-age=300')
        .send(content)
    );
  }

  app.get('/widget.js', { schema: { hide: true } }, (_request, reply) => sendAsset(reply, 'widget.js'));
  app.get(
    '/embed/assets/:file',
    { schema: { hide: true, params: z.object({ file: z.string().regex(ASSET, 'Not found') }) } },
    (request, reply) => sendAsset(reply, request.params.file),
  );

  async function applicationByUuid(uuid: string) {
    const [application] = await app.db.select().from(applications).where(eq(applications.uuid, uuid));
    return application;
  }

  app.get(
    '/api/widget/v1/launcher/:appId/',
    {
      schema: {
        tags: ['widget visitor'],
        description:
          'What the loader draws (title, colour, position, open on load), only to an allowed `Origin` of an ' +
          'enabled widget. Otherwise 404 (no such application) or 403 (widget off, or the site not allowed, ' +
          "recorded for the owner's widget screen) and the loader draws nothing; the refusal is readable by " +
          "the page (CORS) so the loader can tell the site's developer why in the console.",
        params: ZAppParams,
      },
    },
    async (request, reply) => {
      const origin = request.headers.origin;
      const application = await applicationByUuid(request.params.appId);
      const widget = application ? await loadWidget(app.db, application) : null;
      reply.header('vary', 'Origin').header('cache-control', 'no-store');
      // A refusal carries nothing the page could not learn by asking, and says why: CORS for it too.
      if (origin) reply.header('access-control-allow-origin', origin);
      if (!application || !widget) {
        return reply.status(404).send({
          detail: `No assistant has the id ${request.params.appId}: check data-app in the snippet.`,
          code: 'not_found',
        });
      }
      const checked = ZOrigin.safeParse(origin ?? '');
      const refusal = checked.success ? refusalOf(widget, checked.data) : 'origin_not_allowed';
      if (refusal) {
        if (checked.success) await recordRefusal(app, application.id, checked.data, refusal);
        const site = checked.success ? checked.data : 'this page';
        return reply.status(403).send({
          detail:
            refusal === 'disabled'
              ? `The widget of this assistant is turned off, so ${site} cannot show it.`
              : `${site} is not an allowed site for this assistant. Its owner can add it under "Allowed sites" on the assistant's "API keys & widget" page.`,
          code: 'forbidden',
        });
      }
      const launcher: TWidgetLauncher = {
        title: widget.title,
        accent_color: widget.accent_color,
        position: widget.position,
        open_on_load: widget.open_on_load,
      };
      return reply.send(launcher);
    },
  );

  app.get(
    '/embed/v1/:appId',
    {
      schema: {
        hide: true,
        params: ZAppParams,
        querystring: z.object({ origin: z.string().max(400).optional(), preview: z.literal('1').optional() }),
      },
    },
    async (request, reply) => {
      const application = await applicationByUuid(request.params.appId);
      const widget = application ? await loadWidget(app.db, application) : null;
      const origin = ZOrigin.safeParse(request.query.origin ?? '');
      const unavailable = () =>
        page(reply, {
          status: 403,
          frameAncestors: "'none'",
          title: 'Chat unavailable',
          body: '<p>This chat is not available on this website.</p>',
        });
      if (!application || !widget) return unavailable();
      const nonce = randomBytes(16).toString('base64');
      const config = widgetConfigOf(widget);
      let boot: TWidgetBoot;
      let frameAncestors: string;
      if (request.query.preview) {
        // The owner's own settings page shows the real chat with unsaved appearance; it cannot chat.
        const signedIn = await app.resolveUser(request).catch(() => null);
        if (signedIn?.user.id !== application.ownerId) return unavailable();
        const own = new URL(app.config.publicUrl).origin;
        boot = {
          application_uuid: application.uuid,
          origin: own,
          token: '',
          expires_at: '',
          preview: true,
          config,
        };
        frameAncestors = "'self'";
      } else {
        if (!origin.success || !allows(widget, origin.data)) return unavailable();
        const minted = app.visitorTokens.mint({ a: application.uuid, v: randomUUID(), o: origin.data });
        boot = {
          application_uuid: application.uuid,
          origin: origin.data,
          token: minted.token,
          expires_at: minted.expiresAt.toISOString(),
          preview: false,
          config,
        };
        frameAncestors = origin.data;
      }
      return page(reply, {
        status: 200,
        frameAncestors,
        title: widget.title,
        nonce,
        head:
          `<link rel="stylesheet" href="/embed/assets/embed.css">` +
          `<script id="cairn-boot" type="application/json">${scriptJson(boot)}</script>`,
        body: `<div id="app"></div><script src="/embed/assets/embed.js" nonce="${nonce}" defer></script>`,
      });
    },
  );
}
