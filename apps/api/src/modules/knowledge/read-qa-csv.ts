import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../lib/app-error.ts';
import { type QaItemInput, readQaPair, titleOfQuestion } from './read-items.ts';

/** A record longer than this is no Q&A pair (an answer and 21 questions at their limits fit). */
const MAX_RECORD_CHARS =
  KNOWLEDGE_LIMITS.qaAnswerChars +
  (KNOWLEDGE_LIMITS.qaAlternatives + 1) * KNOWLEDGE_LIMITS.qaQuestionChars +
  100;

/**
 * Reads a CSV of Q&A pairs: `question, answer[, alternatives separated by |]`, one pair per row,
 * an optional header row (`question, answer …`), UTF-8 with or without a BOM. Every bad row is
 * reported at once by its row number in the file ("row 7: answer: Required"), so an import is all
 * or nothing.
 */
export function readQaCsv(data: Buffer): QaItemInput[] {
  const rows = parseRows(data);
  const header = /^\s*question\s*$/i.test(rows[0]?.[0] ?? '') && /^\s*answer\s*$/i.test(rows[0]?.[1] ?? '');
  const first = header ? 1 : 0;
  const pairs = rows.length - first;
  if (pairs === 0) throw invalid('The file holds no Q&A pairs.');
  if (pairs > KNOWLEDGE_LIMITS.qaImportRows)
    throw invalid(
      `At most ${KNOWLEDGE_LIMITS.qaImportRows.toLocaleString('en')} pairs per import; this file has ${pairs.toLocaleString('en')}.`,
    );

  const errors: Record<string, string[]> = {};
  const items: QaItemInput[] = [];
  rows.forEach((cells, index) => {
    if (index < first) return;
    const row = `row ${index + 1}`;
    const report = (field: string, message: string) => {
      errors[row] = [...(errors[row] ?? []), `${field}: ${message}`];
    };
    if (cells.length > 3) report('columns', 'Expected question, answer and alternatives (3 columns at most)');
    // What a spreadsheet exported is the formula, not what it showed: refuse it rather than answer with it.
    for (const [field, cell] of [
      ['question', cells[0]],
      ['answer', cells[1]],
    ] as const)
      if (cell?.trimStart().startsWith('='))
        report(field, 'A spreadsheet formula; export the values instead');
    const pair = readQaPair(
      { question: cells[0], answer: cells[1], alternatives: (cells[2] ?? '').split('|').join('\n') },
      report,
    );
    if (pair && !errors[row]) items.push({ type: 'qa', title: titleOfQuestion(pair.question), ...pair });
  });
  const problems = Object.entries(errors);
  if (problems.length) {
    const shown = problems.slice(0, 3).map(([row, messages]) => `${row}: ${messages.join('; ')}`);
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more rows)` : '';
    throw new AppError('invalid', `Nothing was imported. ${shown.join('. ')}${more}.`, errors);
  }
  return items;
}

function parseRows(data: Buffer): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw invalid('The file is not UTF-8 text: save the CSV as UTF-8.');
  }
  try {
    return parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw invalid(`The CSV could not be read: ${error.message}`);
    throw error;
  }
}

const invalid = (message: string) => new AppError('invalid', message, { file: [message] });
