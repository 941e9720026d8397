import { BookOpenIcon } from 'lucide-react';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import type { Route } from './+types/knowledge-base';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Knowledge base · Cairn' }];

/** Placeholder until the knowledge work fills it (features/knowledge). */
export default function KnowledgeBase() {
  const { selected } = useNavigationData();
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Knowledge base" description={selected?.name} />
      <EmptyState
        icon={<BookOpenIcon />}
        title="No knowledge yet"
        description="Adding files, text and web pages is not available yet. It arrives with the knowledge base."
      />
    </div>
  );
}
