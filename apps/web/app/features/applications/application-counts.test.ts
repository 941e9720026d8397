import { describe, expect, it } from 'vitest';
import { countParts, whatGoes } from './application-counts';

describe('application counts in words', () => {
  it('names each count with its plural', () => {
    expect(countParts({ knowledge_items: 1, conversations: 0, api_keys: 2, widget_enabled: false })).toEqual({
      knowledge: '1 knowledge item',
      conversations: '0 conversations',
      keys: '2 API keys',
      widget: 'its widget settings',
    });
  });

  it('says what a deletion takes with it', () => {
    expect(whatGoes({ knowledge_items: 3, conversations: 1200, api_keys: 1, widget_enabled: true })).toBe(
      'its 3 knowledge items, 1,200 conversations, 1 API key and its widget (on)',
    );
  });
});
