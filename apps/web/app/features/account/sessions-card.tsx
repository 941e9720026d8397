import type { TSession } from '@cairn/contracts/account-settings';
import { LogOutIcon, MonitorIcon, SmartphoneIcon } from '../../components/icons';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { RelativeTime } from '../chat/relative-time';
import { useAccountForm } from './use-account-form';

const MOBILE = /android|ios|iphone|ipad/i;

/** Where the account is signed in, with a way out for each session and for all the others. */
export function SessionsCard({ sessions }: { sessions: TSession[] | null }) {
  const others = sessions?.filter((s) => !s.current).length ?? 0;
  const endOthers = useAccountForm('end-others');
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <h2 id="sessions-title" className="font-semibold text-lg leading-none">
            Sessions
          </h2>
          <CardDescription>
            Where you are signed in. A session ends by itself after a long time without use.
          </CardDescription>
        </div>
        {others > 0 ? (
          <endOthers.fetcher.Form method="post">
            <input type="hidden" name="intent" value="end-others" />
            <Button type="submit" size="sm" variant="outline" disabled={endOthers.busy}>
              <LogOutIcon aria-hidden="true" />
              {endOthers.busy ? 'Signing out…' : 'Sign out everywhere else'}
            </Button>
          </endOthers.fetcher.Form>
        ) : null}
      </CardHeader>
      <CardContent>
        {sessions === null ? (
          <LoadErrorAlert message="Failed to load sessions" />
        ) : (
          <ul className="grid divide-y rounded-lg border" aria-label="Sessions">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
        )}
        {sessions && others === 0 ? (
          <p className="mt-3 text-muted-foreground text-sm">You are signed in nowhere else.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function SessionRow({ session }: { session: TSession }) {
  const end = useAccountForm('end-session', `end-session-${session.id}`);
  const labelId = `session-${session.id}`;
  return (
    <li className="flex flex-wrap items-center gap-3 px-3 py-3 sm:px-4" aria-labelledby={labelId}>
      <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">
        {MOBILE.test(session.device) ? (
          <SmartphoneIcon aria-hidden="true" />
        ) : (
          <MonitorIcon aria-hidden="true" />
        )}
      </span>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span id={labelId} className="font-medium text-sm break-words">
            {session.device}
          </span>
          {session.current ? <Badge variant="secondary">This browser</Badge> : null}
        </div>
        <span className="text-muted-foreground text-xs break-words">
          {session.address || 'Unknown address'} · last used <RelativeTime iso={session.last_used_at} /> ·
          signed in <RelativeTime iso={session.created_at} /> · ends{' '}
          <RelativeTime iso={session.expires_at} scheduled /> unless used
        </span>
      </div>
      {session.current ? null : (
        <end.fetcher.Form method="post">
          <input type="hidden" name="intent" value="end-session" />
          <input type="hidden" name="sessionId" value={session.id} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={end.busy}
            aria-label={`Sign out ${session.device}, last used from ${session.address || 'an unknown address'}`}
          >
            {end.busy ? 'Signing out…' : 'Sign out'}
          </Button>
        </end.fetcher.Form>
      )}
    </li>
  );
}
