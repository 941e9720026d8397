/**
 * The contracts between the stages of the knowledge pipeline (DESIGN §5):
 * parse → chunk → embed → index → retrieve. Each stage is plain functions over these types.
 */

/** What a parser produces: markdown text, split by page where the source has pages (PDF). */
export interface ParsedDocument {
  title: string;
  /** ISO 639-1 code when detected, e.g. `en`; undefined when unknown. */
  language?: string | undefined;
  sections: Array<{ text: string; page?: number | undefined }>;
  /** Some or all of the text was read from images with OCR (a scan, a photo). */
  readWithOcr?: boolean | undefined;
}

/** One retrieved passage, as search results and chat citations need it. */
export interface Passage {
  item_uuid: string;
  item_title: string;
  chunk_id: number;
  content: string;
  score: number;
  page: number | null;
  heading: string | null;
}
