import path from 'node:path';
import {
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_LIMITS,
  ZItemCrawlDepth,
  ZItemText,
  ZItemTitle,
  ZItemUrl,
  ZKnowledgeItemType,
} from '@cairn/contracts/knowledge';
import { stripControlCharacters } from '@cairn/contracts/text';
import type { z } from 'zod';
import type { FormBody } from '../../lib/multipart.ts';
import { type Issue, validationError } from '../../lib/parse.ts';
import { firstLineTitle } from '../../rag/parse/decode-text.ts';

/** One validated item of a request, ready to be stored and queued. */
export type KnowledgeItemInput =
  | { type: 'file'; title: string | undefined; filename: string; data: Buffer }
  | { type: 'text'; title: string; value: string }
  | { type: 'url'; title: string | undefined; value: string; crawlDepth: number };

const KEY_RE = /^items\[(\d{1,4})\]\.(type|value|title|file|crawl_depth)$/;

/**
 * Reads the specification's item fields (`items[i].type` plus `items[i].file` or
 * `items[i].value`; optional `items[i].title`) from a form. Every problem is collected and
 * reported at once, keyed by the field as the client named it (`items[2].value`).
 */
export function readItems(form: FormBody): KnowledgeItemInput[] {
  const slots = new Map<
    number,
    { type?: string; value?: string; title?: string; crawl_depth?: string; file?: FormBody['files'][number] }
  >();
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
    slot(Number(match[1]))[match[2] as 'type' | 'value' | 'title' | 'crawl_depth'] = value;
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
      at(index, 'type', s.type === undefined ? 'Required' : 'Must be file, text or url');
      continue;
    }
    const title = check(ZItemTitle, s.title ?? '', (m) => at(index, 'title', m)) || undefined;
    if (type.data !== 'url' && s.crawl_depth !== undefined && s.crawl_depth !== '0') {
      at(index, 'crawl_depth', 'Only URL items follow links');
    }
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
    if (type.data === 'text') {
      const value = check(ZItemText, s.value ?? '', (m) => at(index, 'value', m));
      if (value) items.push({ type: 'text', title: title ?? firstLineTitle(value) ?? 'Untitled', value });
    } else {
      const value = check(ZItemUrl, s.value ?? '', (m) => at(index, 'value', m));
      const depth = ZItemCrawlDepth.safeParse(s.crawl_depth ?? '0');
      if (!depth.success) at(index, 'crawl_depth', depth.error.issues[0]?.message ?? 'Invalid value');
      else if (value)
        items.push({ type: 'url', title, value: new URL(value).toString(), crawlDepth: depth.data });
    }
  }
  if (issues.length) throw validationError(issues);
  return items;
}

function check<T extends z.ZodType<string>>(schema: T, value: string, report: (message: string) => void) {
  const result = schema.safeParse(value);
  if (result.success) return result.data as string;
  report(result.error.issues[0]?.message ?? 'Invalid value');
  return undefined;
}
