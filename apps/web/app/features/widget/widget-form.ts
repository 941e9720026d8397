import { WIDGET_LIMITS, ZWidgetAppearance, ZWidgetLimits, ZWidgetTakeover } from '@cairn/contracts/widget';
import { z } from 'zod';
import { formPathOf } from './widget-form-values';

export { checkNewOrigin, type OriginCheck } from './widget-form-check';
export { formPathOf, formValuesOf, previewConfigOf, updateRequestOf } from './widget-form-values';

/**
 * The widget settings form. The contract's own schemas check every field, so the browser shows the
 * API's messages on the same fields (the page checks with widget-form-check.ts, the same rules
 * without zod; the action and the tests use this schema). Lists are lists of objects (react-hook-form's field arrays
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

/** The fields the form shows, as the API names them (errors on any other key are form-level). */
export function isFormField(apiField: string): boolean {
  const path = formPathOf(apiField);
  const [head, sub] = path.split('.');
  if (head === 'limits') return sub !== undefined && sub in ZWidgetLimits.shape;
  if (head === 'takeover') return sub !== undefined && sub in ZWidgetTakeover.shape;
  return head !== undefined && head in ZWidgetForm.shape;
}
