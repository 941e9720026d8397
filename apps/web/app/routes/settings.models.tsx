import { CpuIcon } from 'lucide-react';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import type { Route } from './+types/settings.models';

export const meta: Route.MetaFunction = () => [{ title: 'Models · Settings · Cairn' }];

/** Placeholder until the models work fills it (features/models). */
export default function SettingsModels() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Models" description="Language model providers for answering and embedding." />
      <EmptyState
        icon={<CpuIcon />}
        title="Model settings are not available yet"
        description="Connecting model providers arrives in a later release. Until then applications use the built-in models."
      />
    </div>
  );
}
