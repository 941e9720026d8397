// biome-ignore-all lint/suspicious/noArrayIndexKey: the parts of a rendered text have no identity but their place
import type { ReactNode } from 'react';

/**
 * A small markdown renderer for answers (issue 13: the remark/rehype stack was a third of the
 * messages view's JavaScript). It covers what models write: paragraphs, ATX and setext headings,
 * fenced code, block quotes, nested lists, GFM tables, thematic breaks; code spans, strong,
 * emphasis, strikethrough, links, autolinks, bare URLs, images (as their alt text), escapes, hard
 * breaks and character references.
 *
 * It builds React elements, never HTML: whatever the text holds is text. Raw HTML (`<MIME>`,
 * `<script>`) is shown as written, and only http(s), mailto and in-page `#` links become links.
 */

export interface MarkdownHooks {
  /** A link with a safe href (http, https, mailto, or `#…`). */
  link: (href: string, children: ReactNode[], key: number) => ReactNode;
  /** An image: never loaded. */
  image: (alt: string, key: number) => ReactNode;
}

type Block =
  | { t: 'p'; text: string }
  | { t: 'h'; level: number; text: string }
  | { t: 'code'; lang: string; text: string }
  | { t: 'quote'; children: Block[] }
  | { t: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { t: 'table'; align: (string | undefined)[]; head: string[]; rows: string[][] }
  | { t: 'hr' };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*)|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const SETEXT = /^ {0,3}(=+|-+)\s*$/;
const blank = (line: string) => line.trim() === '';

function cells(row: string): string[] {
  let s = row.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Does this line end a paragraph (a block of another kind starts)? */
function interrupts(line: string): boolean {
  if (FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line)) return true;
  const item = ITEM.exec(line);
  // An ordered list interrupts a paragraph only when it starts at 1 (CommonMark).
  return (
    item !== null &&
    item[4] !== undefined &&
    item[4] !== '' &&
    (!/\d/.test(item[2]!) || item[2]!.startsWith('1'))
  );
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[i]!)) {
        body.push(lines[i]!);
        i++;
      }
      i++;
      blocks.push({ t: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: 'h', level: heading[1]!.length, text: heading[2] ?? '' });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !blank(lines[i]!)) {
        const quoted = QUOTE.exec(lines[i]!);
        // A line without `>` continues the quote's paragraph (lazy continuation).
        if (!quoted && interrupts(lines[i]!)) break;
        body.push(quoted ? quoted[1]! : lines[i]!);
        i++;
      }
      blocks.push({ t: 'quote', children: parseBlocks(body) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      i = parseList(lines, i, blocks);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]!)) {
      const head = cells(line);
      const delimiters = cells(lines[i + 1]!);
      if (delimiters.length === head.length) {
        const align = delimiters.map((d) =>
          d.startsWith(':') && d.endsWith(':')
            ? 'center'
            : d.endsWith(':')
              ? 'right'
              : d.startsWith(':')
                ? 'left'
                : undefined,
        );
        const rows: string[][] = [];
        i += 2;
        while (i < lines.length && !blank(lines[i]!) && lines[i]!.includes('|')) {
          rows.push(cells(lines[i]!));
          i++;
        }
        blocks.push({ t: 'table', align, head, rows });
        continue;
      }
    }
    const text: string[] = [line];
    i++;
    while (i < lines.length && !blank(lines[i]!)) {
      const setext = SETEXT.exec(lines[i]!);
      if (!setext && interrupts(lines[i]!)) break;
      if (setext) {
        blocks.push({ t: 'h', level: setext[1]!.startsWith('=') ? 1 : 2, text: text.join('\n') });
        text.length = 0;
        i++;
        break;
      }
      text.push(lines[i]!);
      i++;
    }
    if (text.length > 0) blocks.push({ t: 'p', text: text.join('\n') });
  }
  return blocks;
}

/** A list from line `start` on: items of the same kind, their content indented under the marker. */
function parseList(lines: string[], start: number, blocks: Block[]): number {
  const first = ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const delimiter = first[2]!.slice(-1);
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const item = ITEM.exec(lines[i]!);
    if (!item || /\d/.test(item[2]!) !== ordered || item[2]!.slice(-1) !== delimiter) break;
    if (HR.test(lines[i]!)) break;
    const gap = item[3] ?? ' ';
    // Content starts after the marker and 1–4 spaces; more than 4 means code, here: one space.
    const indent = item[1]!.length + item[2]!.length + (gap.length > 4 ? 1 : gap.length);
    const body = [item[4] ?? ''];
    i++;
    while (i < lines.length) {
      const line = lines[i]!;
      if (blank(line)) {
        // A blank line continues the item only when indented content follows.
        const next = lines.slice(i + 1).find((l) => !blank(l));
        if (next === undefined || next.search(/\S/) < indent) break;
        body.push('');
        i++;
        continue;
      }
      if (line.search(/\S/) >= indent) {
        body.push(line.slice(indent));
        i++;
        continue;
      }
      // Lazy continuation of the item's paragraph.
      if (!blank(body[body.length - 1]!) && !interrupts(line) && !ITEM.test(line)) {
        body.push(line.trim());
        i++;
        continue;
      }
      break;
    }
    items.push(parseBlocks(body));
    // Blank lines between items belong to the list.
    while (i < lines.length && blank(lines[i]!)) {
      const next = lines.slice(i).find((l) => !blank(l));
      const nextItem = next === undefined ? null : ITEM.exec(next);
      if (!nextItem || /\d/.test(nextItem[2]!) !== ordered) break;
      i++;
    }
  }
  blocks.push({ t: 'list', ordered, start: ordered ? Number.parseInt(first[2]!, 10) : 1, items });
  return i;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Character references (`&amp;`, `&#39;`, `&#x27;`) as the characters they stand for. */
function decode(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g, (all, dec, hex, name) => {
    if (name) return NAMED[name] ?? all;
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

function safeHref(url: string): string | null {
  const href = decode(url.trim());
  if (href.startsWith('#')) return href;
  return /^(https?:|mailto:)/i.test(href) ? href : null;
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const BARE_URL = /^(?:https?:\/\/|www\.)[^\s<]*[^\s<?!.,:;*_~'")\]]/i;

/** Where `[` at `open` closes, brackets nested; -1 when it does not. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(run, i + run.length);
      if (end > 0) i = end + run.length - 1;
    } else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

/** `(url "title")` right after a link's text: the url and where the parenthesis closes. */
function destination(text: string, at: number): { url: string; end: number } | null {
  if (text[at] !== '(') return null;
  const m =
    /^\(\s*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/.exec(
      text.slice(at),
    );
  if (!m) return null;
  return { url: (m[1] ?? m[2] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1'), end: at + m[0].length };
}

const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);

/** Where a `**`/`*`/`__`/`_`/`~~` run opened at `start` closes, or -1. */
function closingDelimiter(text: string, start: number, marker: string): number {
  let i = start + marker.length;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(run, i + run.length);
      i = end > 0 ? end + run.length : i + run.length;
      continue;
    }
    if (text.startsWith(marker, i) && i > start + marker.length && !isSpace(text[i - 1])) {
      const after = text[i + marker.length];
      // `*a**b*`: a longer run is not this closer; `_` does not close inside a word.
      const longer = after === marker[0] && marker.length === 1;
      if (!longer && !(marker[0] === '_' && isWord(after))) return i;
    }
    i++;
  }
  return -1;
}

function parseInline(text: string, hooks: MarkdownHooks): ReactNode[] {
  const out: ReactNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push(decode(plain));
    plain = '';
  };
  const push = (node: ReactNode) => {
    flush();
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const rest = text.slice(i);
    if (c === '\\' && text[i + 1] === '\n') {
      push(<br key={i} />);
      i += 2;
      continue;
    }
    if (c === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === ' ' && /^ {2,}\n/.test(rest)) {
      push(<br key={i} />);
      i = text.indexOf('\n', i) + 1;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(rest)![0];
      const end = text.indexOf(run, i + run.length);
      if (end > 0 && text[end + run.length] !== '`') {
        let code = text.slice(i + run.length, end).replace(/\n/g, ' ');
        if (/^ .*[^ ].* $/.test(code)) code = code.slice(1, -1);
        push(<code key={i}>{code}</code>);
        i = end + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (c === '<') {
      const auto =
        /^<((?:https?|mailto):[^\s<>]*)>/i.exec(rest) ?? /^<([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/.exec(rest);
      if (auto) {
        const url = auto[1]!.includes(':') ? auto[1]! : `mailto:${auto[1]}`;
        push(hooks.link(url, [auto[1]!], i));
        i += auto[0].length;
        continue;
      }
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const open = c === '!' ? i + 1 : i;
      const close = closingBracket(text, open);
      const dest = close > 0 ? destination(text, close + 1) : null;
      if (dest) {
        const label = text.slice(open + 1, close);
        if (c === '!') push(hooks.image(decode(label.replace(/\\([!-/:-@[-`{-~])/g, '$1')), i));
        else {
          const href = safeHref(dest.url);
          const children = parseInline(label, hooks);
          if (href) push(hooks.link(href, children, i));
          else {
            flush();
            out.push(...children);
          }
        }
        i = dest.end;
        continue;
      }
    }
    if (c === '*' || c === '_' || c === '~') {
      const marker = rest.startsWith(c + c) ? c + c : c;
      if (c === '~' && marker.length !== 2) {
        plain += c;
        i++;
        continue;
      }
      const opens = !isSpace(text[i + marker.length]) && !(c === '_' && isWord(text[i - 1]));
      const end = opens ? closingDelimiter(text, i, marker) : -1;
      if (end > 0) {
        const inner = parseInline(text.slice(i + marker.length, end), hooks);
        if (c === '~') push(<del key={i}>{inner}</del>);
        else if (marker.length === 2) push(<strong key={i}>{inner}</strong>);
        else push(<em key={i}>{inner}</em>);
        i = end + marker.length;
        continue;
      }
      plain += marker;
      i += marker.length;
      continue;
    }
    if ((c === 'h' || c === 'w' || c === 'H' || c === 'W') && !isWord(text[i - 1])) {
      const bare = BARE_URL.exec(rest);
      if (bare) {
        let url = bare[0];
        // A closing parenthesis ends the URL unless it closes one opened inside it.
        while (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
          url = url.slice(0, -1);
        }
        push(hooks.link(url.toLowerCase().startsWith('www.') ? `https://${url}` : url, [url], i));
        i += url.length;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
  return out;
}

function renderBlocks(blocks: Block[], hooks: MarkdownHooks, tight = false): ReactNode[] {
  return blocks.map((block, key) => {
    switch (block.t) {
      case 'p':
        return tight ? (
          <span key={key}>{parseInline(block.text, hooks)}</span>
        ) : (
          <p key={key}>{parseInline(block.text, hooks)}</p>
        );
      case 'h': {
        const Tag = `h${block.level}` as 'h1';
        return <Tag key={key}>{parseInline(block.text, hooks)}</Tag>;
      }
      case 'code':
        return (
          <pre key={key}>
            <code className={block.lang ? `language-${block.lang}` : undefined}>{block.text}</code>
          </pre>
        );
      case 'quote':
        return <blockquote key={key}>{renderBlocks(block.children, hooks)}</blockquote>;
      case 'hr':
        return <hr key={key} />;
      case 'list': {
        // A tight list (every item one paragraph or less, plus nested lists) has no <p> in its items.
        const isTight = block.items.every((item) => item.filter((b) => b.t === 'p').length <= 1);
        const items = block.items.map((item, n) => <li key={n}>{renderBlocks(item, hooks, isTight)}</li>);
        return block.ordered ? (
          <ol key={key} start={block.start === 1 ? undefined : block.start}>
            {items}
          </ol>
        ) : (
          <ul key={key}>{items}</ul>
        );
      }
      case 'table':
        return (
          <div key={key} className="overflow-x-auto">
            <table>
              <thead>
                <tr>
                  {block.head.map((cell, n) => (
                    <th key={n} style={block.align[n] ? { textAlign: block.align[n] as 'left' } : undefined}>
                      {parseInline(cell, hooks)}
                    </th>
                  ))}
                </tr>
              </thead>
              {block.rows.length > 0 ? (
                <tbody>
                  {block.rows.map((row, r) => (
                    <tr key={r}>
                      {block.head.map((_, n) => (
                        <td
                          key={n}
                          style={block.align[n] ? { textAlign: block.align[n] as 'left' } : undefined}
                        >
                          {parseInline(row[n] ?? '', hooks)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              ) : null}
            </table>
          </div>
        );
    }
    return null;
  });
}

/** Markdown as React elements (see the top of this file for what it covers and what it never does). */
export function renderMarkdown(text: string, hooks: MarkdownHooks): ReactNode[] {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return renderBlocks(parseBlocks(lines), hooks);
}
