import { KeyRoundIcon } from 'lucide-react';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import type { Route } from './+types/api-keys-and-widget';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'API keys & widget · Cairn' }];

export default function ApiKeysAndWidget() {
  const { selected } = useNavigationData();
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="API keys & widget" description={selected?.name} />
      <EmptyState
        icon={<KeyRoundIcon />}
        title="No API keys yet"
        description="API keys and the embeddable widget are not available yet. They will be managed here."
      />
    </div>
  );
}
