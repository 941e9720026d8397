import { describe, expect, it } from 'vitest';
import { safeRedirect } from './session.server';

describe('safeRedirect (where sign-in returns to)', () => {
  it('keeps paths of this origin, query and fragment included', () => {
    for (const to of ['/', '/applications/1f0e/knowledge-base', '/settings/models?tab=a%20b#x', '/a//b']) {
      expect(safeRedirect(to), to).toBe(to);
    }
  });

  it('refuses anything that could leave the origin', () => {
    const hostile = [
      '//evil.com',
      '/\\evil.com',
      '\\\\evil.com',
      '/\t/evil.com',
      '/\n/evil.com',
      '/\r/evil.com',
      '\t//evil.com',
      '/\u0000/evil.com',
      '/\u007f/evil.com',
      ' /evil',
      '/ /evil.com',
      'https://evil.com',
      'javascript:alert(1)',
      'evil.com',
      '',
    ];
    for (const to of hostile) expect(safeRedirect(to), JSON.stringify(to)).toBe('/');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect(undefined, '/home')).toBe('/home');
  });
});
