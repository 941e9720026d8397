import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { ApiClient } from '../../lib/api.server';
import { normalizeError } from '../../lib/api-error';
import { apiFailure, failure } from '../../lib/form-data.server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAIR_FIELDS = ['question', 'answer', 'alternatives'];

/** The knowledge page's Q&A intents: save a pair (new, or `item` edited) and import a CSV. */
export async function qaAction(api: ApiClient, base: string, form: FormData) {
  const text = (name: string) => String(form.get(name) ?? '');
  if (form.get('intent') === 'qa-import') {
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0)
      return failure({ fieldErrors: { file: 'Choose a CSV file.' }, formError: null });
    const body = new FormData();
    body.set('file', file, file.name);
    try {
      const added = await api.post<TKnowledgeItem[]>(`${base}qa-import/`, body);
      return { imported: added.length };
    } catch (error) {
      // The API names every bad row in its detail ("row 7: answer: Required").
      return failure({ fieldErrors: {}, formError: normalizeError(error).message });
    }
  }
  const item = text('item');
  try {
    if (item) {
      if (!UUID.test(item)) return failure({ fieldErrors: {}, formError: 'Unknown item.' });
      const alternatives = text('alternatives')
        .split(/\r?\n/)
        .filter((line) => line.trim());
      await api.patch(`${base}${item}/`, {
        question: text('question'),
        answer: text('answer'),
        alternatives,
      });
      return { saved: item };
    }
    const body = new FormData();
    body.set('items[0].type', 'qa');
    for (const field of PAIR_FIELDS) body.set(`items[0].${field}`, text(field));
    const [added] = await api.post<TKnowledgeItem[]>(base, body);
    return { saved: added?.uuid ?? 'new' };
  } catch (error) {
    return apiFailure(error, [...PAIR_FIELDS, ...PAIR_FIELDS.map((f) => `items[0].${f}`)]);
  }
}
