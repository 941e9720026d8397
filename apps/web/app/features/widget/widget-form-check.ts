import {
  asFreeText,
  hasControlCharacter,
  NO_CONTROL_CHARACTERS,
  wellFormed,
} from '@cairn/contracts/text-rules';
import { WIDGET_LIMITS } from '@cairn/contracts/widget-limits';
import { NOT_AN_ORIGIN, ORIGIN_MAX, originOf } from '@cairn/contracts/widget-rules';
import type { TWidgetFormOutput } from './widget-form';

/**
 * The widget settings form's check without zod (decision 091): the same rules, messages and output
 * as `ZWidgetForm` (widget-form.ts, the contract's schemas), so the page does not ship zod for a
 * form on it. widget-form-check.test.ts holds the two to each other over valid and hostile values;
 * a rule changed in the contract and not here fails it.
 */

export interface Issue {
  path: Array<string | number>;
  message: string;
}
export type FormCheck = { ok: true; data: TWidgetFormOutput } | { ok: false; issues: Issue[] };

/** Zod's name for a value's type, as its messages print it ("received undefined", "received NaN"). */
function typeName(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    const ctor = (value as { constructor?: { name?: string } }).constructor;
    if (proto !== Object.prototype && ctor?.name) return ctor.name;
  }
  return typeof value;
}
const expected = (type: string, value: unknown) =>
  `Invalid input: expected ${type}, received ${typeName(value)}`;
const tooLong = (max: number) => `Too big: expected string to have <=${max} characters`;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Collects issues; every rule returns the value it keeps (unused when an issue was added). */
class Checker {
  readonly issues: Issue[] = [];

  fail(path: Array<string | number>, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  /** `oneLine(...).trim()` with its bounds; `messages.type` is also zod's fallback for a bound without its own message. */
  oneLine(
    path: Array<string | number>,
    value: unknown,
    rules: { type: string; min?: { n: number; message: string }; max: number },
  ): string {
    if (typeof value !== 'string') return this.fail(path, rules.type) ?? '';
    const text = wellFormed(value);
    if (hasControlCharacter(text)) return this.fail(path, NO_CONTROL_CHARACTERS) ?? '';
    const trimmed = text.trim();
    if (rules.min && trimmed.length < rules.min.n) return this.fail(path, rules.min.message) ?? '';
    if (trimmed.length > rules.max) return this.fail(path, rules.type) ?? '';
    return trimmed;
  }

  /** `freeText().trim()` with its bounds (control characters removed, not refused). */
  freeText(path: Array<string | number>, value: unknown, rules: { required: boolean; max: number }): string {
    if (typeof value !== 'string') return this.fail(path, expected('string', value)) ?? '';
    const trimmed = asFreeText(value).trim();
    if (rules.required && trimmed.length < 1) return this.fail(path, 'Required') ?? '';
    if (trimmed.length > rules.max) return this.fail(path, tooLong(rules.max)) ?? '';
    return trimmed;
  }

  boolean(path: Array<string | number>, value: unknown): boolean {
    if (typeof value !== 'boolean') return this.fail(path, expected('boolean', value)) ?? false;
    return value;
  }

  /** A whole number in [1, max]; every failure says "Must be a number" (the schema's own message). */
  count(path: Array<string | number>, value: unknown, max: number): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max)
      return this.fail(path, 'Must be a number') ?? 0;
    return value;
  }

  object(path: Array<string | number>, value: unknown): Record<string, unknown> | undefined {
    if (!isRecord(value)) return this.fail(path, expected('object', value));
    return value;
  }

  /** A list of at most `max` items; over it, only that is said (zod checks the length first). */
  list<T>(
    path: Array<string | number>,
    value: unknown,
    max: { n: number; message: string },
    item: (itemPath: Array<string | number>, value: unknown) => T,
  ): T[] {
    if (!Array.isArray(value)) return this.fail(path, expected('array', value)) ?? [];
    if (value.length > max.n) return this.fail(path, max.message) ?? [];
    return value.map((v, i) => item([...path, i], v));
  }
}

const perPeriod = WIDGET_LIMITS.messagesPerPeriod;

/** The form's values checked and normalised as `ZWidgetForm.safeParse` does. */
export function checkWidgetForm(values: unknown): FormCheck {
  const c = new Checker();
  const form = c.object([], values);
  if (!form) return { ok: false, issues: c.issues };

  const title = c.oneLine(['title'], form.title, {
    type: 'Required',
    min: { n: 1, message: 'Required' },
    max: WIDGET_LIMITS.titleLength,
  });
  const greeting = c.freeText(['greeting'], form.greeting, {
    required: false,
    max: WIDGET_LIMITS.greetingLength,
  });
  let accent_color = '';
  if (typeof form.accent_color !== 'string') c.fail(['accent_color'], 'Required');
  else if (!/^#[0-9a-fA-F]{6}$/.test(form.accent_color))
    c.fail(['accent_color'], 'Must be a colour like #2563eb');
  else accent_color = form.accent_color.toLowerCase();
  const position = form.position === 'left' || form.position === 'right' ? form.position : 'right';
  if (form.position !== position) c.fail(['position'], 'Invalid option: expected one of "left"|"right"');
  const open_on_load = c.boolean(['open_on_load'], form.open_on_load);
  const show_sources = c.boolean(['show_sources'], form.show_sources);
  const feedback_buttons = c.boolean(['feedback_buttons'], form.feedback_buttons);
  const enabled = c.boolean(['enabled'], form.enabled);
  const allowed_origins = c.list(
    ['allowed_origins'],
    form.allowed_origins,
    { n: WIDGET_LIMITS.allowedOrigins, message: `At most ${WIDGET_LIMITS.allowedOrigins} origins` },
    (path, item) => {
      const origin = c.object(path, item);
      if (!origin) return { value: '' };
      if (typeof origin.value !== 'string') c.fail([...path, 'value'], expected('string', origin.value));
      return { value: typeof origin.value === 'string' ? origin.value : '' };
    },
  );
  const suggested_questions = c.list(
    ['suggested_questions'],
    form.suggested_questions,
    { n: WIDGET_LIMITS.suggestedQuestions, message: `At most ${WIDGET_LIMITS.suggestedQuestions} questions` },
    (path, item) => {
      const question = c.object(path, item);
      if (!question) return { text: '' };
      return {
        text: c.oneLine([...path, 'text'], question.text, {
          type: 'Must be text',
          min: { n: 1, message: 'Must not be empty' },
          max: WIDGET_LIMITS.suggestedQuestionLength,
        }),
      };
    },
  );

  const limitsIn = c.object(['limits'], form.limits);
  const limits = limitsIn && {
    visitor_messages_per_hour: c.count(
      ['limits', 'visitor_messages_per_hour'],
      limitsIn.visitor_messages_per_hour,
      perPeriod.visitor_messages_per_hour,
    ),
    visitor_messages_per_day: c.count(
      ['limits', 'visitor_messages_per_day'],
      limitsIn.visitor_messages_per_day,
      perPeriod.visitor_messages_per_day,
    ),
    ip_messages_per_hour: c.count(
      ['limits', 'ip_messages_per_hour'],
      limitsIn.ip_messages_per_hour,
      perPeriod.ip_messages_per_hour,
    ),
    ip_messages_per_day: c.count(
      ['limits', 'ip_messages_per_day'],
      limitsIn.ip_messages_per_day,
      perPeriod.ip_messages_per_day,
    ),
    limit_message: c.freeText(['limits', 'limit_message'], limitsIn.limit_message, {
      required: true,
      max: WIDGET_LIMITS.limitMessageLength,
    }),
  };
  const takeoverIn = c.object(['takeover'], form.takeover);
  const takeover = takeoverIn && {
    enabled: c.boolean(['takeover', 'enabled'], takeoverIn.enabled),
    wait_minutes: c.count(['takeover', 'wait_minutes'], takeoverIn.wait_minutes, WIDGET_LIMITS.waitMinutes),
    email_owner: c.boolean(['takeover', 'email_owner'], takeoverIn.email_owner),
    no_reply_message: c.freeText(['takeover', 'no_reply_message'], takeoverIn.no_reply_message, {
      required: true,
      max: WIDGET_LIMITS.limitMessageLength,
    }),
  };

  if (c.issues.length > 0 || !limits || !takeover) return { ok: false, issues: c.issues };
  return {
    ok: true,
    data: {
      title,
      greeting,
      accent_color,
      position,
      open_on_load,
      show_sources,
      feedback_buttons,
      enabled,
      allowed_origins,
      suggested_questions,
      limits,
      takeover,
    },
  };
}

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

/**
 * An origin typed into the "add" box: checked and normalised as the API's `ZOrigin` does (lowercase
 * host, default port and a trailing slash dropped), refused if it is already in the list. Synchronous:
 * "Add" and Enter act on the text as it is, never after a load (decision 091).
 */
export function checkNewOrigin(raw: string, current: readonly string[]): OriginCheck {
  if (current.length >= WIDGET_LIMITS.allowedOrigins)
    return { ok: false, message: `At most ${WIDGET_LIMITS.allowedOrigins} origins` };
  const text = wellFormed(raw);
  if (hasControlCharacter(text)) return { ok: false, message: NO_CONTROL_CHARACTERS };
  const trimmed = text.trim();
  if (trimmed.length > ORIGIN_MAX) return { ok: false, message: `At most ${ORIGIN_MAX} characters` };
  const origin = originOf(trimmed);
  if (origin === null) return { ok: false, message: NOT_AN_ORIGIN };
  if (current.includes(origin)) return { ok: false, message: 'Already in the list' };
  return { ok: true, origin };
}
