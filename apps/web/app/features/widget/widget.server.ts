import { type TWidgetSettings, ZUpdateWidgetRequest } from '@cairn/contracts/widget';
import { data } from 'react-router';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, type FormErrors, fieldErrorsOf, normalizeError } from '../../lib/api-error';

const WIDGET_FAILED = 'Failed to load the widget settings';

const widgetPath = (appId: string) => `/api/applications/${appId}/widget/`;

/** The widget's settings; a failure other than "no such application" is shown on the page. */
export async function loadWidgetSettings(
  api: ApiClient,
  appId: string,
): Promise<{ widget: TWidgetSettings; error: null } | { widget: null; error: string }> {
  try {
    return { widget: await api.get<TWidgetSettings>(widgetPath(appId)), error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    return { widget: null, error: WIDGET_FAILED };
  }
}

export type WidgetActionData =
  | { intent: 'widget'; ok: true; widget: TWidgetSettings }
  /** Field errors keyed as the API names them (`allowed_origins.0`); the form maps them to its fields. */
  | { intent: 'widget'; ok: false; errors: FormErrors };

function failed(errors: FormErrors) {
  return data<WidgetActionData>({ intent: 'widget', ok: false, errors }, { status: 400 });
}

/** Splits the API's (or our own check's) field errors into the form's fields and a form-level message. */
async function widgetErrorsOf(all: Record<string, string>, fallback: string): Promise<FormErrors> {
  // Imported the way the form imports it (lazily), so the bundler keeps it one chunk for both.
  const { isFormField } = await import('./widget-form');
  const fieldErrors: Record<string, string> = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(all)) {
    if (isFormField(field)) fieldErrors[field] = message;
    else rest.push(message);
  }
  const formError = rest.length > 0 ? rest.join(', ') : Object.keys(fieldErrors).length > 0 ? null : fallback;
  return { fieldErrors, formError };
}

/** Saves the settings (posted as JSON: the PATCH body). */
export async function saveWidgetSettings(api: ApiClient, appId: string, body: unknown) {
  const parsed = ZUpdateWidgetRequest.safeParse(body);
  if (!parsed.success) {
    const all: Record<string, string> = {};
    for (const issue of parsed.error.issues) all[issue.path.join('.')] ??= issue.message;
    return failed(await widgetErrorsOf(all, 'The settings could not be read.'));
  }
  try {
    // The body as posted: the API applies the same schema (and its normalising) itself.
    const widget = await api.patch<TWidgetSettings>(widgetPath(appId), body as Record<string, unknown>);
    return { intent: 'widget', ok: true, widget } as const;
  } catch (error) {
    const normalized = normalizeError(error);
    return failed(await widgetErrorsOf(fieldErrorsOf(normalized), normalized.message));
  }
}
