import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { FileTextIcon, GlobeIcon, MessageSquareQuoteIcon, TextIcon } from '../../components/icons';

const NAMES = { file: 'File', text: 'Text', url: 'Web page', qa: 'Q&A pair' } as const;
const ICONS = { file: FileTextIcon, text: TextIcon, url: GlobeIcon, qa: MessageSquareQuoteIcon } as const;

/** The icon of an item's type, with its name for screen readers. */
export function ItemTypeIcon({ type }: { type: TKnowledgeItem['type'] }) {
  const Icon = ICONS[type];
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
      <Icon aria-hidden="true" className="size-4" />
      <span className="sr-only">{NAMES[type]}</span>
    </span>
  );
}
