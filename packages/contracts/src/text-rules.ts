/**
 * Control characters in user text. PostgreSQL `text` cannot hold NUL at all (the insert fails), and
 * the others are invisible, so nobody types them on purpose. Two rules, one per kind of field:
 *
 * - one-line values (e-mail, names, titles, URLs): a control character is a mistake the person
 *   can see and fix, so the value is refused with a 400 naming the field;
 * - multi-line free text (instructions, a text item's body): control characters arrive with
 *   pasted or exported text and carry no meaning, so they are removed; tab, line feed and
 *   carriage return are kept.
 *
 * Documents (uploaded files, web pages) follow the second rule in the parse step.
 *
 * No zod here: the web app's forms check text as the API does without shipping the schemas
 * (text.ts builds them on it).
 */

/** C0 controls, DEL and C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export const NO_CONTROL_CHARACTERS = 'Must not contain control characters';

export const hasControlCharacter = (value: string) => CONTROL_CHARACTER.test(value);

/** Removes every control character except tab, line feed and carriage return. */
export const stripControlCharacters = (value: string) => value.replace(CONTROL_CHARACTERS_IN_TEXT, '');

/** A surrogate without its pair (not text; UTF-8 cannot hold it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Replaces lone surrogates with U+FFFD, as the UTF-8 encoding of a `text` column would; done here
 * so that `jsonb` values (which PostgreSQL refuses with one inside) get the same treatment.
 */
export const wellFormed = (value: string) => value.replace(LONE_SURROGATE, '\ufffd');

/** Multi-line free text as it is stored: control characters removed (but tab and line ends), lone surrogates replaced. */
export const asFreeText = (value: string) => wellFormed(stripControlCharacters(value));
