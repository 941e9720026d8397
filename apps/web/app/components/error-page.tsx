import { HomeIcon, RotateCwIcon } from 'lucide-react';
import { Button } from './ui/button';

export const NOT_FOUND_MESSAGE = 'Page Not Found';
export const SERVER_ERROR_MESSAGE = 'Internal Server Error';

/**
 * The one error page (specification §2): 404 says 'Page Not Found'; every other status says
 * 'Internal Server Error'. It needs no loader data, so it renders even when everything else failed.
 */
export function ErrorPage({ status }: { status: number }) {
  const notFound = status === 404;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 py-16 text-center">
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
            ? 'There is nothing at this address. Check the link, or start again from the home page.'
            : 'Something went wrong on our side. Try again in a moment.'}
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-center gap-3">
        {/* Plain links: a full page load recovers from any broken client state. */}
        <Button asChild>
          <a href="/">
            <HomeIcon aria-hidden="true" />
            Go to the home page
          </a>
        </Button>
        {notFound ? null : (
          <Button variant="outline" type="button" onClick={() => window.location.reload()}>
            <RotateCwIcon aria-hidden="true" />
            Reload
          </Button>
        )}
      </div>
    </main>
  );
}
