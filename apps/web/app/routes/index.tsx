import type { TApplicationSummary } from '@cairn/contracts/applications';
import { useState } from 'react';
import { Link } from 'react-router';
import { BookOpenIcon, BoxIcon, KeyRoundIcon, MessagesSquareIcon, PlusIcon } from '../components/icons';
import { LazyCreateApplicationDialog as CreateApplicationDialog } from '../components/lazy-create-application-dialog';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { ApplicationActions } from '../features/applications/application-actions';
import { countParts } from '../features/applications/application-counts';
import { RelativeTime } from '../features/chat/relative-time';
import { apiFor } from '../lib/api.server';
import type { Route } from './+types/index';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.length ? 'Applications · Cairn' : 'Welcome · Cairn' },
];

/** `/`: the user's applications with what each holds; a user without any sees the onboarding. */
export async function loader(args: Route.LoaderArgs) {
  // The default layout's loader guards the session.
  const api = apiFor(args);
  if (!api.token) return [];
  return api.get<TApplicationSummary[]>('/api/applications/summaries/');
}

export default function Applications({ loaderData }: Route.ComponentProps) {
  const [open, setOpen] = useState(false);
  const create = (
    <Button onClick={() => setOpen(true)}>
      <PlusIcon aria-hidden="true" />
      Create application
    </Button>
  );
  return (
    <div className="mx-auto max-w-4xl">
      {loaderData.length === 0 ? (
        <>
          <PageHeader title="Welcome to Cairn" description="Start by creating your first application." />
          <EmptyState
            icon={<BoxIcon />}
            title="No applications yet"
            description="An application is an assistant with its own knowledge, models and chats. Create one, then add knowledge and start chatting."
            action={create}
          />
        </>
      ) : (
        <>
          <PageHeader
            title="Applications"
            description="Each application is an assistant with its own knowledge, models and chats."
            actions={create}
          />
          <ul className="grid gap-3" aria-label="Applications">
            {loaderData.map((application) => (
              <ApplicationRow key={application.uuid} application={application} />
            ))}
          </ul>
        </>
      )}
      <CreateApplicationDialog open={open} onOpenChange={setOpen} />
    </div>
  );
}

/** One application: its name (the link), what it holds, when it was made, and its Manage menu. */
function ApplicationRow({ application }: { application: TApplicationSummary }) {
  const { counts } = application;
  const parts = countParts(counts);
  const nameId = `application-${application.uuid}`;
  return (
    <li
      aria-labelledby={nameId}
      className="relative flex items-start gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-xs transition-colors focus-within:ring-2 focus-within:ring-ring hover:bg-accent/50"
    >
      <span
        className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground [&_svg]:size-4"
        aria-hidden="true"
      >
        <BoxIcon />
      </span>
      <div className="grid min-w-0 flex-1 gap-1.5">
        <h2 className="min-w-0 truncate font-medium" title={application.name}>
          {/* The whole card is the link's target; the menu sits above it. */}
          <Link
            id={nameId}
            to={`/applications/${application.uuid}`}
            className="outline-none after:absolute after:inset-0 after:rounded-xl"
          >
            {application.name}
          </Link>
        </h2>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-sm" aria-label="Contents">
          <li className="flex items-center gap-1.5">
            <BookOpenIcon className="size-3.5" aria-hidden="true" />
            {parts.knowledge}
          </li>
          <li className="flex items-center gap-1.5">
            <MessagesSquareIcon className="size-3.5" aria-hidden="true" />
            {parts.conversations}
          </li>
          <li className="flex items-center gap-1.5">
            <KeyRoundIcon className="size-3.5" aria-hidden="true" />
            {parts.keys}
          </li>
          <li>{counts.widget_enabled ? 'Widget on' : 'Widget off'}</li>
        </ul>
        <p className="text-muted-foreground text-xs">
          Created <RelativeTime iso={application.created_at} />
        </p>
      </div>
      <div className="relative z-10 -my-1 -mr-1">
        <ApplicationActions application={application} counts={counts} compact />
      </div>
    </li>
  );
}
