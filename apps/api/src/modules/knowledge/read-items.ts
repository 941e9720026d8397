import path from 'node:path';
import {
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_LIMITS,
  ZItemCrawlDepth,
  ZItemText,
  ZItemTitle,
  ZItemUrl,
  ZKnowledgeItemType,
  ZQaAlternatives,
  ZQaAnswer,
  ZQaQuestion,
  ZRefreshIntervalHours,
  ZSiteCrawl,
} from '@cairn/contracts/knowledge';
import { stripControlCharacters } from '@cairn/contracts/text';
import type { z } from 'zod';
import type { FormBody } from '../../lib/multipart.ts';
import { type Issue, validationError } from '../../lib/parse.ts';
import { firstLineTitle } from '../../rag/parse/decode-text.ts';
import type { SiteOptions } from '../../rag/site-rules.ts';

/** One validated item of a request, ready to be stored and queued. */
export type KnowledgeItemInput =
  | { type: 'file'; title: string | undefined; filename: string; data: Buffer }
  | { type: 'text'; title: string; value: string }
  | {
      type: 'url';
      title: string | undefined;
      value: string;
      crawlDepth: number;
      refreshIntervalHours: number | null;
      site: SiteOptions | null;
    }
  | QaItemInput;

export type QaItemInput = {
  type: 'qa';
  title: string;
  question: string;
  answer: string;
  alternatives: string[];
};

const QA_FIELDS = ['question', 'answer', 'alternatives'] as const;

const KEY_RE =
  /^items\[(\d{1,4})\]\.(type|value|title|file|crawl_depth|refresh_interval_hours|crawl|sitemap|question|answer|alternatives)$/;
type SlotField =
  | 'type'
  | 'value'
  | 'title'
  | 'crawl_depth'
  | 'refresh_interval_hours'
  | 'crawl'
  | 'sitemap'
  | (typeof QA_FIELDS)[number];
/** Fields only a url item takes. */
const URL_FIELDS = ['refresh_interval_hours', 'crawl', 'sitemap'] as const;

/**
 * Reads the specification's item fields (`items[i].type` plus `items[i].file` or
 * `items[i].value`; optional `items[i].title`) from a form. Every problem is collected and
 * reported at once, keyed by the field as the client named it (`items[2].value`).
 */
export function readItems(form: FormBody): KnowledgeItemInput[] {
  const slots = new Map<number, Partial<Record<SlotField, string>> & { file?: FormBody['files'][number] }>();
  const slot = (index: number) => {
    let s = slots.get(index);
    if (!s) {
      s = {};
      slots.set(index, s);
    }
    return s;
  };
  for (const [key, value] of Object.entries(form.fields)) {
    const match = KEY_RE.exec(key);
    if (!match || match[2] === 'file') continue;
    slot(Number(match[1]))[match[2] as SlotField] = value;
  }
  const issues: Issue[] = [];
  const at = (index: number, field: string, message: string) =>
    issues.push({ path: [`items[${index}].${field}`], message });
  for (const file of form.files) {
    const match = KEY_RE.exec(file.field);
    if (match?.[2] !== 'file') {
      issues.push({ path: [file.field], message: 'Unexpected file field' });
      continue;
    }
    // An empty file input still posts a nameless, empty part: that is no file.
    if (file.filename === '' && file.data.length === 0) continue;
    slot(Number(match[1])).file = file;
  }
  if (slots.size > KNOWLEDGE_LIMITS.itemsPerRequest) {
    throw validationError([
      { path: ['items'], message: `At most ${KNOWLEDGE_LIMITS.itemsPerRequest} items per request` },
    ]);
  }

  const items: KnowledgeItemInput[] = [];
  for (const index of [...slots.keys()].sort((a, b) => a - b)) {
    const s = slots.get(index)!;
    const type = ZKnowledgeItemType.safeParse(s.type);
    if (!type.success) {
      at(index, 'type', s.type === undefined ? 'Required' : 'Must be file, text, url or qa');
      continue;
    }
    const title = check(ZItemTitle, s.title ?? '', (m) => at(index, 'title', m)) || undefined;
    if (type.data !== 'url' && s.crawl_depth !== undefined && s.crawl_depth !== '0') {
      at(index, 'crawl_depth', 'Only URL items follow links');
    }
    if (type.data !== 'url')
      for (const field of URL_FIELDS) if (s[field]) at(index, field, 'Only URL items take this field');
    if (type.data !== 'qa')
      for (const field of QA_FIELDS)
        if (s[field] !== undefined)
          at(index, field, 'Only Q&A items have a question, answer and alternatives');
    if (type.data === 'file') {
      if (s.value !== undefined && !s.file) at(index, 'file', 'A file item takes a file, not a value');
      else if (!s.file) at(index, 'file', 'Required');
      else if (s.file.data.length === 0) at(index, 'file', 'The file is empty');
      else if (
        !(KNOWLEDGE_FILE_EXTENSIONS as readonly string[]).includes(
          path.extname(s.file.filename).toLowerCase(),
        )
      ) {
        at(
          index,
          'file',
          'Unsupported file type: use .pdf, .doc, .docx, .txt, .md, .html, .png, .jpg or .webp',
        );
      } else {
        // The name comes from the sender's file system and cannot be fixed in a form: control
        // characters (NUL cannot be stored) are dropped rather than refused.
        const filename = stripControlCharacters(path.basename(s.file.filename));
        items.push({ type: 'file', title, filename, data: s.file.data });
      }
      continue;
    }
    if (s.file) {
      at(index, 'file', `A ${type.data} item takes a value, not a file`);
      continue;
    }
    if (type.data === 'qa') {
      if (s.value !== undefined) at(index, 'value', 'A Q&A item takes a question and an answer, not a value');
      const pair = readQaPair(s, (field, message) => at(index, field, message));
      if (pair) items.push({ type: 'qa', title: title ?? titleOfQuestion(pair.question), ...pair });
      continue;
    }
    if (type.data === 'text') {
      const value = check(ZItemText, s.value ?? '', (m) => at(index, 'value', m));
      if (value) items.push({ type: 'text', title: title ?? firstLineTitle(value) ?? 'Untitled', value });
    } else {
      const value = check(ZItemUrl, s.value ?? '', (m) => at(index, 'value', m));
      const depth = ZItemCrawlDepth.safeParse(s.crawl_depth ?? '0');
      if (!depth.success) at(index, 'crawl_depth', depth.error.issues[0]?.message ?? 'Invalid value');
      const refresh = readRefreshHours(s.refresh_interval_hours, (m) =>
        at(index, 'refresh_interval_hours', m),
      );
      const site = readSite(s.crawl, s.sitemap, (field, m) => at(index, field, m));
      if (site && depth.success && depth.data > 0)
        at(index, 'crawl_depth', 'A site import takes crawl, not crawl_depth');
      else if (value && depth.success && refresh !== undefined && site !== undefined)
        items.push({
          type: 'url',
          title,
          value: new URL(value).toString(),
          crawlDepth: depth.data,
          refreshIntervalHours: refresh,
          site,
        });
    }
  }
  if (issues.length) throw validationError(issues);
  return items;
}

/** `items[i].refresh_interval_hours`: absent or empty is never; undefined when reported invalid. */
function readRefreshHours(
  raw: string | undefined,
  report: (message: string) => void,
): number | null | undefined {
  if (raw === undefined || raw.trim() === '') return null;
  const hours = ZRefreshIntervalHours.safeParse(/^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : raw);
  if (hours.success) return hours.data;
  report(hours.error.issues[0]?.message ?? 'Invalid value');
  return undefined;
}

/**
 * `items[i].crawl` (JSON {max_pages, include, exclude}) and `items[i].sitemap` (true | false): a
 * whole-site import, or null; undefined when reported invalid.
 */
function readSite(
  crawl: string | undefined,
  sitemap: string | undefined,
  report: (field: 'crawl' | 'sitemap', message: string) => void,
): SiteOptions | null | undefined {
  if (sitemap !== undefined && sitemap !== 'true' && sitemap !== 'false') {
    report('sitemap', 'Must be true or false');
    return undefined;
  }
  if (!crawl && sitemap !== 'true') return null;
  let json: unknown = {};
  if (crawl) {
    try {
      json = JSON.parse(crawl);
    } catch {
      report('crawl', 'Must be JSON: {"max_pages": 100, "include": ["/docs/**"], "exclude": []}');
      return undefined;
    }
  }
  const options = ZSiteCrawl.safeParse(json);
  if (!options.success) {
    const issue = options.error.issues[0];
    report('crawl', issue ? [...issue.path, issue.message].join(': ') : 'Invalid value');
    return undefined;
  }
  return { ...options.data, sitemap: sitemap === 'true' };
}

/**
 * A pair's fields as a form sends them: the other phrasings one per line (a form field holds one
 * string; blank lines are skipped). Reports each bad field and returns nothing then.
 */
export function readQaPair(
  fields: { question?: string | undefined; answer?: string | undefined; alternatives?: string | undefined },
  report: (field: 'question' | 'answer' | 'alternatives', message: string) => void,
): Pick<QaItemInput, 'question' | 'answer' | 'alternatives'> | undefined {
  const question = check(ZQaQuestion, fields.question ?? '', (m) => report('question', m));
  const answer = check(ZQaAnswer, fields.answer ?? '', (m) => report('answer', m));
  const lines = (fields.alternatives ?? '').split(/\r?\n/).filter((line) => line.trim());
  const alternatives = ZQaAlternatives.safeParse(lines);
  if (!alternatives.success) report('alternatives', alternatives.error.issues[0]?.message ?? 'Invalid value');
  if (question === undefined || answer === undefined || !alternatives.success) return undefined;
  return { question, answer, alternatives: alternatives.data };
}

/** A question as an item's title: one line, within the title's length. */
export function titleOfQuestion(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  const max = KNOWLEDGE_LIMITS.titleChars;
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function check<T extends z.ZodType<string>>(schema: T, value: string, report: (message: string) => void) {
  const result = schema.safeParse(value);
  if (result.success) return result.data as string;
  report(result.error.issues[0]?.message ?? 'Invalid value');
  return undefined;
}
