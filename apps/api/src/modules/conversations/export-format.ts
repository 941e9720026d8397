import { EXPORT_COLUMNS, type TExportFormat } from '@cairn/contracts/conversations';

/** One exported message, in the columns' order. */
export interface ExportRow {
  conversation: string;
  source: string;
  created_at: string;
  sender: string;
  role: 'user' | 'assistant' | 'owner';
  text: string;
  rating: string | null;
  sources: string[];
}

/** Spreadsheets run a cell that starts like a formula; a leading `'` makes it text (OWASP's advice). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell as RFC 4180 quotes it, neutralised when it would read as a formula. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** What the file starts with: CSV a UTF-8 byte order mark (spreadsheets then read UTF-8) and the header. */
export const exportPreamble = (format: TExportFormat) =>
  format === 'csv' ? `\ufeff${csvLine([...EXPORT_COLUMNS])}` : '';

/** A row as a CSV line (sources joined with "; ") or a JSON line. */
export function exportLine(format: TExportFormat, row: ExportRow): string {
  if (format === 'jsonl') return `${JSON.stringify(row)}\n`;
  return csvLine(
    EXPORT_COLUMNS.map((column) => {
      const value = row[column];
      return Array.isArray(value) ? value.join('; ') : (value ?? '');
    }),
  );
}
