import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import {
  CircleCheckIcon,
  CircleDashedIcon,
  LoaderCircleIcon,
  TriangleAlertIcon,
} from '../../components/icons';
import { Badge } from '../../components/ui/badge';

const LABELS = { queued: 'Queued', processing: 'Processing', ready: 'Ready', failed: 'Failed' } as const;

/** Status of an item as a badge with an icon, so it does not rely on colour alone. */
export function ItemStatusBadge({ item }: { item: TKnowledgeItem }) {
  const label = item.status === 'processing' ? `${LABELS.processing} ${item.progress}%` : LABELS[item.status];
  switch (item.status) {
    case 'ready':
      return (
        <Badge variant="secondary" className="text-success">
          <CircleCheckIcon aria-hidden="true" />
          {label}
        </Badge>
      );
    case 'failed':
      return (
        <Badge variant="destructive">
          <TriangleAlertIcon aria-hidden="true" />
          {label}
        </Badge>
      );
    case 'processing':
      return (
        <Badge variant="outline">
          <LoaderCircleIcon aria-hidden="true" className="motion-safe:animate-spin" />
          {label}
        </Badge>
      );
    default:
      return (
        <Badge variant="outline" className="text-muted-foreground">
          <CircleDashedIcon aria-hidden="true" />
          {label}
        </Badge>
      );
  }
}
