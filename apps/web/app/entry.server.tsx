import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext, RouterContextProvider } from 'react-router';
import { ServerRouter } from 'react-router';
import { contentSecurityPolicy } from './lib/csp.server';
import { webLoadContext } from './lib/load-context';

export const streamTimeout = 5_000;

/** Crawlers get the status and a one-line body instead of an error page (specification §2). */
function crawlerErrorResponse(status: number, headers: Headers): Response {
  headers.set('Content-Type', 'text/plain; charset=utf-8');
  headers.delete('Content-Security-Policy');
  return new Response(status === 404 ? 'Page Not Found' : 'Internal Server Error', { status, headers });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce: requestNonce } = webLoadContext(loadContext);
  const userAgent = request.headers.get('user-agent');
  const crawler = Boolean(userAgent && isbot(userAgent));
  // Only an error page is replaced: a form answered with its errors (a 400 or 429 from an action) is
  // a page like any other, whoever posted it.
  const errorPage = routerContext.staticHandlerContext.errors !== null;
  if (crawler && errorPage && responseStatusCode >= 400) {
    return crawlerErrorResponse(responseStatusCode, responseHeaders);
  }

  const nonce = import.meta.env.DEV ? undefined : requestNonce;
  responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(requestNonce, import.meta.env.DEV));
  responseHeaders.set('Cache-Control', 'no-store');
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Crawlers wait for all content; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      crawler || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
