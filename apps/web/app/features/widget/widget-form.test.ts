import { DEFAULT_WIDGET_SETTINGS, type TWidgetSettings } from '@cairn/contracts/widget';
import { describe, expect, it } from 'vitest';
import {
  checkNewOrigin,
  formPathOf,
  formValuesOf,
  isFormField,
  previewConfigOf,
  updateRequestOf,
  ZWidgetForm,
} from './widget-form';

const settings: TWidgetSettings = {
  ...DEFAULT_WIDGET_SETTINGS,
  title: 'Trail guide',
  allowed_origins: ['https://shop.example.com'],
  suggested_questions: ['Where do I park?'],
  embed_snippet: '<script></script>',
  updated_at: null,
  refused_origins: [],
};

describe('widget settings form', () => {
  it('round-trips the saved settings into the PATCH body', () => {
    const parsed = ZWidgetForm.parse(formValuesOf(settings));
    expect(updateRequestOf(parsed)).toMatchObject({
      enabled: false,
      allowed_origins: ['https://shop.example.com'],
      suggested_questions: ['Where do I park?'],
      title: 'Trail guide',
      limits: DEFAULT_WIDGET_SETTINGS.limits,
      takeover: DEFAULT_WIDGET_SETTINGS.takeover,
    });
  });

  it('normalises a new origin as the API does and refuses a path, a wildcard or a repeat', () => {
    expect(checkNewOrigin('https://Shop.Example.com:443/', [])).toEqual({
      ok: true,
      origin: 'https://shop.example.com',
    });
    expect(checkNewOrigin('https://shop.example.com/help', [])).toMatchObject({
      ok: false,
      message: expect.stringContaining('Must be an origin'),
    });
    expect(checkNewOrigin('https://*.example.com', []).ok).toBe(false);
    expect(checkNewOrigin('shop.example.com', []).ok).toBe(false);
    expect(checkNewOrigin('https://shop.example.com', ['https://shop.example.com'])).toEqual({
      ok: false,
      message: 'Already in the list',
    });
  });

  it('puts the API’s field errors on the form’s fields', () => {
    expect(formPathOf('allowed_origins.2')).toBe('allowed_origins.2.value');
    expect(formPathOf('suggested_questions.0')).toBe('suggested_questions.0.text');
    expect(formPathOf('limits.visitor_messages_per_hour')).toBe('limits.visitor_messages_per_hour');
    expect(isFormField('allowed_origins.2')).toBe(true);
    expect(isFormField('limits.visitor_messages_per_hour')).toBe(true);
    expect(isFormField('takeover.wait_minutes')).toBe(true);
    expect(isFormField('limits.nonsense')).toBe(false);
    expect(isFormField('embed_snippet')).toBe(false);
  });

  it('previews what can be drawn while a field is half typed', () => {
    const values = formValuesOf(settings);
    const config = previewConfigOf({
      ...values,
      accent_color: '#12',
      suggested_questions: [{ text: ' ' }, { text: 'Open?' }],
    });
    expect(config.accent_color).toBe('#2563eb');
    expect(config.suggested_questions).toEqual(['Open?']);
    expect(config.takeover_enabled).toBe(true);
  });
});
