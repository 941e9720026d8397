import type { TIntegration } from '@cairn/contracts/integrations';
import type { TNotificationProfile, TPushConfig } from '@cairn/contracts/notifications';
import { PageHeader } from '../components/page-header';
import { ProfileForm } from '../features/notifications/profile-form';
import { apiFor } from '../lib/api.server';
import type { Route } from './+types/settings.notification-profile';

export const meta: Route.MetaFunction = () => [{ title: 'Notification profile · Settings · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  const api = apiFor(args);
  const [profile, integrations, push] = await Promise.all([
    api.get<TNotificationProfile>('/api/notification-profile/'),
    api.get<TIntegration[]>('/api/integrations/'),
    api.get<TPushConfig>('/api/notifications/push/'),
  ]);
  const slack = integrations.flatMap((i) => (i.kind === 'slack' ? [{ uuid: i.uuid, name: i.bot_name }] : []));
  return { profile, slack, pushKey: push.public_key };
}

/** Where each event reaches the owner (issue 12, decision 049). */
export default function SettingsNotificationProfile({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Notification profile"
        description="Choose which events reach you and where: a visitor asking for a person, questions your knowledge could not answer, failures."
      />
      <ProfileForm
        initial={loaderData.profile}
        slackIntegrations={loaderData.slack}
        pushKey={loaderData.pushKey}
      />
    </div>
  );
}
