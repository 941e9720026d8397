import { useEffect } from 'react';
import { isRouteErrorResponse } from 'react-router';
import { guardedReload, isChunkLoadError } from '../lib/reload-guard';
import { cn } from '../lib/utils';
import { HomeIcon, RotateCwIcon } from './icons';
import { Button } from './ui/button';

export const NOT_FOUND_MESSAGE = 'Page Not Found';
export const SERVER_ERROR_MESSAGE = 'Internal Server Error';

/**
 * The one error page (specification §2): 404 says 'Page Not Found'; every other status says
 * 'Internal Server Error'. It needs no loader data, so it renders even when everything else failed.
 * `inShell`: drawn inside the signed-in layout (its sidebar stays, so the way on is one click away).
 */
export function ErrorPage({ status, inShell = false }: { status: number; inShell?: boolean }) {
  const notFound = status === 404;
  // Inside the layout the shell already has the page's <main>.
  const Root = inShell ? 'div' : 'main';
  return (
    <Root
      className={cn(
        'flex flex-col items-center justify-center gap-6 text-center',
        inShell ? 'min-h-[60dvh] py-10' : 'min-h-dvh px-6 py-16',
      )}
    >
      <p
        className="text-7xl font-semibold tracking-tight text-muted-foreground tabular-nums"
        aria-hidden="true"
      >
        {status}
      </p>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          {notFound ? NOT_FOUND_MESSAGE : SERVER_ERROR_MESSAGE}
        </h1>
        <p className="max-w-md text-muted-foreground">
          {notFound
            ? inShell
              ? 'There is nothing at this address: what it showed may have been deleted. Choose an application in the sidebar or in the list of your applications.'
              : 'There is nothing at this address. Check the link, or start again from the home page.'
            : 'Something went wrong on our side. Try again in a moment.'}
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-center gap-3">
        {/* Plain links: a full page load recovers from any broken client state. */}
        <Button asChild>
          <a href="/">
            <HomeIcon aria-hidden="true" />
            {inShell ? 'Go to your applications' : 'Go to the home page'}
          </a>
        </Button>
        {notFound ? null : (
          <Button variant="outline" type="button" onClick={() => window.location.reload()}>
            <RotateCwIcon aria-hidden="true" />
            Reload
          </Button>
        )}
      </div>
    </Root>
  );
}

/** A route's error boundary: the error page for its status; a chunk that failed to load reloads the page. */
export function RouteErrorPage({ error, inShell }: { error: unknown; inShell?: boolean }) {
  useEffect(() => {
    if (isChunkLoadError(error)) guardedReload();
  }, [error]);
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} inShell={inShell ?? false} />;
}
