import { PlugIcon } from 'lucide-react';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import type { Route } from './+types/settings.integrations';

export const meta: Route.MetaFunction = () => [{ title: 'Integrations · Settings · Cairn' }];

export default function SettingsIntegrations() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Integrations" description="Connect Cairn to the other tools you use." />
      <EmptyState
        icon={<PlugIcon />}
        title="No integrations yet"
        description="Integrations are not available yet. They will appear here when they are."
      />
    </div>
  );
}
