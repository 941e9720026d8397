import {
  WIDGET_LIMITS,
  ZOrigin,
  ZWidgetAppearance,
  ZWidgetLimits,
  ZWidgetTakeover,
} from '@cairn/contracts/widget';
import { z } from 'zod';
import { formPathOf } from './widget-form-values';

export { formPathOf, formValuesOf, previewConfigOf, updateRequestOf } from './widget-form-values';

/**
 * The widget settings form. The contract's own schemas check every field, so the browser shows the
 * API's messages on the same fields. Lists are lists of objects (react-hook-form's field arrays
 * need them): `allowed_origins.3.value`, `suggested_questions.1.text`.
 */
export const ZWidgetForm = ZWidgetAppearance.omit({ suggested_questions: true }).extend({
  enabled: z.boolean(),
  allowed_origins: z
    .array(z.object({ value: z.string() }))
    .max(WIDGET_LIMITS.allowedOrigins, `At most ${WIDGET_LIMITS.allowedOrigins} origins`),
  suggested_questions: z
    .array(z.object({ text: ZWidgetAppearance.shape.suggested_questions.element }))
    .max(WIDGET_LIMITS.suggestedQuestions, `At most ${WIDGET_LIMITS.suggestedQuestions} questions`),
  limits: ZWidgetLimits,
  takeover: ZWidgetTakeover,
});
export type TWidgetFormInput = z.input<typeof ZWidgetForm>;
export type TWidgetFormOutput = z.output<typeof ZWidgetForm>;

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

/**
 * An origin typed into the "add" box: checked and normalised as the API does (lowercase host,
 * default port and a trailing slash dropped), refused if it is already in the list.
 */
export function checkNewOrigin(raw: string, current: readonly string[]): OriginCheck {
  if (current.length >= WIDGET_LIMITS.allowedOrigins)
    return { ok: false, message: `At most ${WIDGET_LIMITS.allowedOrigins} origins` };
  const parsed = ZOrigin.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Not an origin' };
  if (current.includes(parsed.data)) return { ok: false, message: 'Already in the list' };
  return { ok: true, origin: parsed.data };
}

/** The fields the form shows, as the API names them (errors on any other key are form-level). */
export function isFormField(apiField: string): boolean {
  const path = formPathOf(apiField);
  const [head, sub] = path.split('.');
  if (head === 'limits') return sub !== undefined && sub in ZWidgetLimits.shape;
  if (head === 'takeover') return sub !== undefined && sub in ZWidgetTakeover.shape;
  return head !== undefined && head in ZWidgetForm.shape;
}
