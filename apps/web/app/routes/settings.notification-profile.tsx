import { BellIcon } from 'lucide-react';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import type { Route } from './+types/settings.notification-profile';

export const meta: Route.MetaFunction = () => [{ title: 'Notification profile · Settings · Cairn' }];

export default function SettingsNotificationProfile() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Notification profile"
        description="How and where Cairn lets you know about activity."
      />
      <EmptyState
        icon={<BellIcon />}
        title="Notification settings are not available yet"
        description="Cairn does not send notifications yet, so there is nothing to configure here."
      />
    </div>
  );
}
