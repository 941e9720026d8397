/** The knowledge base's file types and caps: without zod, so pages import them in the browser. */

/** File extensions a `file` item may have; the content is checked too (sniffed, not trusted). */
export const KNOWLEDGE_FILE_EXTENSIONS = [
  '.pdf',
  '.doc',
  '.docx',
  '.txt',
  '.md',
  '.html',
  '.htm',
  // Read with OCR (decision 072).
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
] as const;
/** What the upload control offers: every extension the API takes (spec §2 plus .docx and web pages). */
export const KNOWLEDGE_FILE_ACCEPT = KNOWLEDGE_FILE_EXTENSIONS.join(',');

/** Caps, with the messages that name them. */
export const KNOWLEDGE_LIMITS = {
  itemsPerRequest: 100,
  textChars: 200_000,
  titleChars: 255,
  urlChars: 2048,
  /** Levels of same-site links a URL item may follow. */
  crawlDepthMax: 2,
  /** Pages one crawl may add, the start page excluded. */
  crawlPages: 20,
  /** A Q&A pair: its question (and each other phrasing), its answer, how many other phrasings. */
  qaQuestionChars: 1000,
  qaAnswerChars: 20_000,
  qaAlternatives: 20,
  /** Rows of one CSV import of Q&A pairs. */
  qaImportRows: 1000,
  /** Scheduled re-sync: every 1 to this many hours (30 days). */
  refreshHoursMax: 720,
  /** Pages one whole-site import (`crawl` / `sitemap`) may hold. */
  sitePagesMax: 1000,
  /** Include or exclude path globs per site import, and the length of each. */
  siteGlobs: 20,
  siteGlobChars: 200,
} as const;
