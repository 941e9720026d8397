import { DEFAULT_WIDGET_SETTINGS, type TWidgetSettings, ZOrigin } from '@cairn/contracts/widget';
import { describe, expect, it } from 'vitest';
import { ZWidgetForm } from './widget-form';
import { checkNewOrigin, checkWidgetForm } from './widget-form-check';
import { formValuesOf } from './widget-form-values';

const settings: TWidgetSettings = {
  ...DEFAULT_WIDGET_SETTINGS,
  title: 'Trail guide',
  allowed_origins: ['https://shop.example.com', 'http://localhost:5173'],
  suggested_questions: ['Where do I park?', 'Is the café open?'],
  embed_snippet: '<script></script>',
  updated_at: null,
  refused_origins: [],
};
const base = formValuesOf(settings);

/** What the form shows of a check: the first message of each field, or the values it saves. */
function seenByZod(values: unknown) {
  const result = ZWidgetForm.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const messages: Record<string, string> = {};
  for (const issue of result.error.issues) messages[issue.path.join('.')] ??= issue.message;
  return { ok: false, messages };
}
function seenByCheck(values: unknown) {
  const result = checkWidgetForm(values);
  if (result.ok) return { ok: true, data: result.data };
  const messages: Record<string, string> = {};
  for (const issue of result.issues) messages[issue.path.join('.')] ??= issue.message;
  return { ok: false, messages };
}

/** Values a field may hold, from what the form sends to what a script could put there. */
const HOSTILE: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  1,
  10_000,
  10_001,
  1_000_000,
  1_000_001,
  1e20,
  Number.MAX_SAFE_INTEGER + 2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  '   ',
  '5',
  'ok',
  '  padded  ',
  'a\u0000b',
  'line\nbreak\tand\rreturn',
  '\u0085next line',
  'lone \ud800 surrogate',
  'x'.repeat(60),
  'x'.repeat(61),
  ` ${'y'.repeat(120)} `,
  'z'.repeat(121),
  'w'.repeat(300),
  'w'.repeat(301),
  'v'.repeat(500),
  'v'.repeat(501),
  '#2563eb',
  '#ABCDEF',
  '#abc',
  '#12345g',
  ' #2563eb',
  'left',
  'right',
  'top',
  true,
  false,
  [],
  [{ value: 'https://a.example' }],
  [{ text: 'Open?' }, { text: ' ' }, { text: 7 }, null, 'raw'],
  Array.from({ length: 6 }, (_, i) => ({ text: `Question ${i}` })),
  Array.from({ length: 7 }, () => ({ text: '' })),
  Array.from({ length: 20 }, (_, i) => ({ value: `https://${i}.example` })),
  Array.from({ length: 21 }, () => ({ value: 5 })),
  [{ value: 5 }, { value: null }, {}, 'x'],
  {},
  { value: 'x', text: 'y' },
  new Date(0),
  { ...base.limits },
  { ...base.takeover },
];

const FIELDS = [
  ['title'],
  ['greeting'],
  ['accent_color'],
  ['position'],
  ['open_on_load'],
  ['show_sources'],
  ['feedback_buttons'],
  ['enabled'],
  ['allowed_origins'],
  ['suggested_questions'],
  ['limits'],
  ['takeover'],
  ['limits', 'visitor_messages_per_hour'],
  ['limits', 'visitor_messages_per_day'],
  ['limits', 'ip_messages_per_hour'],
  ['limits', 'ip_messages_per_day'],
  ['limits', 'limit_message'],
  ['takeover', 'enabled'],
  ['takeover', 'wait_minutes'],
  ['takeover', 'email_owner'],
  ['takeover', 'no_reply_message'],
] as const;

function withField(path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(base) as unknown as Record<string, Record<string, unknown>>;
  if (path.length === 1) (copy as Record<string, unknown>)[path[0]!] = value;
  else copy[path[0]!]![path[1]!] = value;
  return copy;
}

/** A fixed pseudo-random sequence (mulberry32): the same cases on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the widget form check without zod', () => {
  it('accepts and normalises valid settings as ZWidgetForm does', () => {
    const valid: unknown[] = [
      base,
      formValuesOf({ ...settings, allowed_origins: [], suggested_questions: [] }),
      {
        ...base,
        title: '  Trail \ud800 guide ',
        greeting: 'Hi\u0000 there\n\t',
        accent_color: '#ABCDEF',
        extra: 1,
      },
      {
        ...base,
        limits: { ...base.limits, limit_message: ' Slow down \u0007', visitor_messages_per_hour: 10_000 },
      },
      { ...base, takeover: { ...base.takeover, wait_minutes: 1440, no_reply_message: 'x'.repeat(300) } },
    ];
    for (const values of valid) {
      expect(seenByCheck(values)).toEqual(seenByZod(values));
      expect(seenByCheck(values).ok).toBe(true);
    }
  });

  it('refuses every hostile value of every field with the same message as ZWidgetForm', () => {
    let refused = 0;
    for (const path of FIELDS) {
      for (const value of HOSTILE) {
        const values = withField(path, value);
        const zod = seenByZod(values);
        expect(seenByCheck(values), `${path.join('.')} = ${String(value)}`).toEqual(zod);
        if (!zod.ok) refused++;
      }
    }
    // Most of these are refused: the comparison is about errors, not only about valid forms.
    expect(refused).toBeGreaterThan(FIELDS.length * HOSTILE.length * 0.6);
  });

  it('agrees with ZWidgetForm on random mixes of hostile fields and on values that are not a form', () => {
    const next = random(91);
    for (let i = 0; i < 2000; i++) {
      let values = structuredClone(base) as unknown;
      const changes = 1 + Math.floor(next() * 4);
      for (let j = 0; j < changes; j++) {
        const path = FIELDS[Math.floor(next() * FIELDS.length)]!;
        const value = HOSTILE[Math.floor(next() * HOSTILE.length)];
        const copy = values as Record<string, unknown>;
        if (path.length === 2 && (typeof copy[path[0]] !== 'object' || copy[path[0]] === null)) continue;
        values =
          path.length === 1
            ? { ...copy, [path[0]]: value }
            : { ...copy, [path[0]]: { ...(copy[path[0]] as object), [path[1]]: value } };
      }
      expect(seenByCheck(values)).toEqual(seenByZod(values));
    }
    for (const values of [null, undefined, 'form', 3, [], [base]]) {
      expect(seenByCheck(values)).toEqual(seenByZod(values));
    }
  });

  it('checks a new origin as the API’s ZOrigin does', () => {
    const inputs = [
      'https://Shop.Example.com:443/',
      'http://localhost:5173',
      'https://shop.example.com/help',
      'https://*.example.com',
      'shop.example.com',
      'ftp://shop.example.com',
      'https://user:pw@shop.example.com',
      'https://shop.example.com?x=1',
      'https://shop.example.com#top',
      'https://shop.example.com//',
      '  https://shop.example.com  ',
      'https://shop.example.com\u0000',
      'https://sh\ud800op.example.com',
      `https://${'a'.repeat(290)}.example`,
      '',
      '   ',
      'https://[::1]:8080',
      'HTTP://EXAMPLE.COM:80',
    ];
    for (const raw of inputs) {
      const zod = ZOrigin.safeParse(raw);
      const check = checkNewOrigin(raw, []);
      if (zod.success) expect(check, raw).toEqual({ ok: true, origin: zod.data });
      else expect(check, raw).toEqual({ ok: false, message: zod.error.issues[0]!.message });
    }
  });
});
