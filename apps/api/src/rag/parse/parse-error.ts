/** Why a document could not be parsed; each reason has a message a person understands. */
export type ParseFailureReason =
  | 'encrypted'
  | 'no_text_layer'
  | 'corrupt'
  | 'unsupported_type'
  | 'type_mismatch'
  | 'empty'
  /** Expands, or holds text or pages, beyond the limits of parse-limits.ts. */
  | 'too_large'
  /** Its parser ran out of the time or the memory one file may take. */
  | 'too_slow'
  | 'too_much_memory';

/** A parse failure that is the document's fault: retrying will not help, the message says what to do. */
export class ParseError extends Error {
  constructor(
    readonly reason: ParseFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}
