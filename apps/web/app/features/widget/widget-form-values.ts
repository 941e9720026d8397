import type { TUpdateWidgetRequest, TWidgetConfig, TWidgetSettings } from '@cairn/contracts/widget';
import type { TWidgetFormInput, TWidgetFormOutput } from './widget-form';

/**
 * The widget settings form's values, the request they make and the preview they show: without zod,
 * so the page ships no schema (widget-form-check.ts checks the form with the schema's rules;
 * widget-form.ts has the schema, for the action and the tests; decision 091).
 */

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

/**
 * The API names list items by index (`allowed_origins.0`, `suggested_questions.2`); the form's items
 * are objects. Every other key (`limits.visitor_messages_per_hour`, `title`) is the form's own path.
 */
export function formPathOf(apiField: string): string {
  const item = /^(allowed_origins|suggested_questions)\.(\d+)$/.exec(apiField);
  if (!item) return apiField;
  return `${item[1]}.${item[2]}.${item[1] === 'allowed_origins' ? 'value' : 'text'}`;
}
