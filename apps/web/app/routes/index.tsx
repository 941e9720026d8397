import { BoxIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { redirect } from 'react-router';
import { LazyCreateApplicationDialog as CreateApplicationDialog } from '../components/lazy-create-application-dialog';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { apiFor } from '../lib/api.server';
import type { Application } from '../lib/types';
import type { Route } from './+types/index';

export const meta: Route.MetaFunction = () => [{ title: 'Welcome · Cairn' }];

/** `/`: a user with applications goes to the first one; a user without any sees the onboarding. */
export async function loader(args: Route.LoaderArgs) {
  // The default layout's loader guards the session; this only decides where to go.
  const api = apiFor(args);
  if (!api.token) return null;
  const applications = await api.get<Application[]>('/api/applications/');
  const first = applications[0];
  if (first) throw redirect(`/applications/${first.uuid}`);
  return null;
}

export default function Onboarding() {
  const [open, setOpen] = useState(false);
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Welcome to Cairn" description="Start by creating your first application." />
      <EmptyState
        icon={<BoxIcon />}
        title="No applications yet"
        description="An application is an assistant with its own knowledge, models and chats. Create one, then add knowledge and start chatting."
        action={
          <Button onClick={() => setOpen(true)}>
            <PlusIcon aria-hidden="true" />
            Create application
          </Button>
        }
      />
      <CreateApplicationDialog open={open} onOpenChange={setOpen} />
    </div>
  );
}
