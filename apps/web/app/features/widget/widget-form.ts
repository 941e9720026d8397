import {
  type TUpdateWidgetRequest,
  type TWidgetConfig,
  type TWidgetSettings,
  WIDGET_LIMITS,
  ZOrigin,
  ZWidgetAppearance,
  ZWidgetLimits,
  ZWidgetTakeover,
} from '@cairn/contracts/widget';
import { z } from 'zod';

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

/** The saved settings as the form holds them. */
export function formValuesOf(settings: TWidgetSettings): TWidgetFormInput {
  return {
    enabled: settings.enabled,
    allowed_origins: settings.allowed_origins.map((value) => ({ value })),
    title: settings.title,
    greeting: settings.greeting,
    suggested_questions: settings.suggested_questions.map((text) => ({ text })),
    accent_color: settings.accent_color,
    position: settings.position,
    open_on_load: settings.open_on_load,
    show_sources: settings.show_sources,
    feedback_buttons: settings.feedback_buttons,
    limits: { ...settings.limits },
    takeover: { ...settings.takeover },
  };
}

/** The PATCH body: every setting (the form shows them all, so saving states them all). */
export function updateRequestOf(values: TWidgetFormOutput): TUpdateWidgetRequest {
  const { allowed_origins, suggested_questions, ...rest } = values;
  return {
    ...rest,
    allowed_origins: allowed_origins.map((o) => o.value),
    suggested_questions: suggested_questions.map((q) => q.text),
  };
}

/** What the live preview shows: the appearance as it is in the form now, saved or not. */
export function previewConfigOf(values: TWidgetFormInput): TWidgetConfig {
  return {
    title: values.title.trim() || ' ',
    greeting: values.greeting,
    suggested_questions: values.suggested_questions.map((q) => q.text.trim()).filter(Boolean),
    accent_color: /^#[0-9a-f]{6}$/i.test(values.accent_color) ? values.accent_color.toLowerCase() : '#2563eb',
    position: values.position,
    open_on_load: values.open_on_load,
    show_sources: values.show_sources,
    feedback_buttons: values.feedback_buttons,
    takeover_enabled: values.takeover.enabled,
  };
}

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

/**
 * The API names list items by index (`allowed_origins.0`, `suggested_questions.2`); the form's items
 * are objects. Every other key (`limits.visitor_messages_per_hour`, `title`) is the form's own path.
 */
export function formPathOf(apiField: string): string {
  const item = /^(allowed_origins|suggested_questions)\.(\d+)$/.exec(apiField);
  if (!item) return apiField;
  return `${item[1]}.${item[2]}.${item[1] === 'allowed_origins' ? 'value' : 'text'}`;
}

/** The fields the form shows, as the API names them (errors on any other key are form-level). */
export function isFormField(apiField: string): boolean {
  const path = formPathOf(apiField);
  const [head, sub] = path.split('.');
  if (head === 'limits') return sub !== undefined && sub in ZWidgetLimits.shape;
  if (head === 'takeover') return sub !== undefined && sub in ZWidgetTakeover.shape;
  return head !== undefined && head in ZWidgetForm.shape;
}
