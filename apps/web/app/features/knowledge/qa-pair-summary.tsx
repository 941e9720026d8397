import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useState } from 'react';
import { PencilIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { preloadOnIntent } from '../../lib/lazy-module';
import { LazyQaPairDialog as QaPairDialog } from './lazy-qa-dialogs';

/** A Q&A item's answer and other phrasings under its question (its title), with Edit. */
export function QaPairSummary({ item }: { item: TKnowledgeItem }) {
  const [editing, setEditing] = useState(false);
  if (!item.qa) return null;
  const { answer, alternatives } = item.qa;
  return (
    <div className="grid min-w-0 justify-items-start gap-1 text-sm">
      <p className="line-clamp-3 whitespace-pre-line wrap-anywhere" data-qa-answer>
        {answer}
      </p>
      {alternatives.length ? (
        <p className="line-clamp-2 text-muted-foreground text-xs wrap-anywhere">
          Also asked as: {alternatives.join(' · ')}
        </p>
      ) : null}
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto p-0"
        onClick={() => setEditing(true)}
        {...preloadOnIntent(QaPairDialog)}
        aria-label={`Edit ${item.title}`}
      >
        <PencilIcon aria-hidden="true" />
        Edit
      </Button>
      <QaPairDialog item={item} open={editing} onOpenChange={setEditing} />
    </div>
  );
}
