import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ICONS_MODULE, iconNames, iconSprite, SPRITE_FILE } from '../../scripts/icon-sprite';
import { CircleDotIcon, PlusIcon } from './icons';

describe('icons', () => {
  it('the sprite on disk is the one lucide draws for the names icons.tsx asks for (else: npm run icons -w @cairn/web)', () => {
    const names = iconNames(fs.readFileSync(ICONS_MODULE, 'utf8'));
    expect(names).toContain('book-open');
    expect(new Set(names).size).toBe(names.length);
    expect(fs.readFileSync(SPRITE_FILE, 'utf8')).toBe(iconSprite(names));
  });

  it('draws lucide’s paths, its own attributes included', () => {
    const sprite = iconSprite(['plus', 'circle-dot']);
    expect(sprite).toContain(
      '<symbol id="plus" viewBox="0 0 24 24"><path d="M5 12h14"></path><path d="M12 5v14"></path></symbol>',
    );
    expect(sprite).toContain('<symbol id="circle-dot" viewBox="0 0 24 24"><circle cx="12" cy="12" r="1">');
    expect(() => iconSprite(['no-such-icon'])).toThrow('lucide-react has no icon named no-such-icon');
  });

  it('an icon is two elements pointing at its symbol, hidden unless labelled', () => {
    const hidden = renderToStaticMarkup(<PlusIcon className="size-4" />);
    expect(hidden).toMatch(
      /^<svg class="lucide size-4" aria-hidden="true"><use href="[^"]*icons[^"]*#plus"><\/use><\/svg>$/,
    );
    const labelled = renderToStaticMarkup(<CircleDotIcon aria-label="selected" />);
    expect(labelled).toMatch(
      /^<svg class="lucide" role="img" aria-label="selected"><use href="[^"]*#circle-dot">/,
    );
  });

  it('no component draws lucide-react’s own icons (one way to draw an icon)', () => {
    const app = path.resolve(import.meta.dirname, '..');
    // grep exits 1 when nothing matches: the answer wanted.
    const importers = spawnSync(
      'grep',
      ['-rlE', '--include=*.tsx', '--include=*.ts', "from 'lucide-react(/|')", app],
      {
        encoding: 'utf8',
      },
    );
    expect(importers.status, importers.stdout).toBe(1);
  });
});
