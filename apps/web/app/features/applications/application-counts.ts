import type { TApplicationCounts } from '@cairn/contracts/applications';
import { formatNumber } from '../../lib/format-number';

const plural = (count: number, one: string, many = `${one}s`) =>
  `${formatNumber(count)} ${count === 1 ? one : many}`;

/** "3 knowledge items", "1 conversation", "0 API keys": each of what an application holds, in words. */
export function countParts(counts: TApplicationCounts) {
  return {
    knowledge: plural(counts.knowledge_items, 'knowledge item'),
    conversations: plural(counts.conversations, 'conversation'),
    keys: plural(counts.api_keys, 'API key'),
    widget: counts.widget_enabled ? 'its widget (on)' : 'its widget settings',
  };
}

/** What deleting takes with it: "its 3 knowledge items, 12 conversations, 1 API key and its widget (on)". */
export function whatGoes(counts: TApplicationCounts): string {
  const { knowledge, conversations, keys, widget } = countParts(counts);
  return `its ${knowledge}, ${conversations}, ${keys} and ${widget}`;
}
