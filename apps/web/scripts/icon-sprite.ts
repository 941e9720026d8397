/**
 * Builds `app/components/icons.svg` from lucide-react: one `<symbol>` per icon that
 * `app/components/icons.tsx` names (`spriteIcon('book-open')`), drawn by lucide's own component.
 *
 *   npm run icons -w @cairn/web
 *
 * `icons.test.tsx` fails when the file on disk is not what this script would write.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as lucide from 'lucide-react';
import lucidePackage from 'lucide-react/package.json' with { type: 'json' };
import { createElement, type ElementType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const COMPONENTS = path.resolve(import.meta.dirname, '../app/components');
export const ICONS_MODULE = path.join(COMPONENTS, 'icons.tsx');
export const SPRITE_FILE = path.join(COMPONENTS, 'icons.svg');

/** The lucide names `icons.tsx` asks for, in its order. */
export function iconNames(source: string): string[] {
  return [...source.matchAll(/spriteIcon\('([a-z0-9-]+)'\)/g)].map((m) => m[1]!);
}

const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

export function iconSprite(names: string[]): string {
  const symbols = names.map((name) => {
    const component = (lucide as unknown as Record<string, ElementType | undefined>)[`${pascal(name)}Icon`];
    if (!component) throw new Error(`lucide-react has no icon named ${name}`);
    const inner = renderToStaticMarkup(createElement(component))
      .replace(/^<svg[^>]*>/, '')
      .replace(/<\/svg>$/, '');
    return `<symbol id="${name}" viewBox="0 0 24 24">${inner}</symbol>`;
  });
  return [
    `<!-- Built by apps/web/scripts/icon-sprite.ts from lucide-react ${lucidePackage.version} (ISC license, lucide.dev). -->`,
    '<svg xmlns="http://www.w3.org/2000/svg">',
    ...symbols,
    '</svg>',
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  fs.writeFileSync(SPRITE_FILE, iconSprite(iconNames(fs.readFileSync(ICONS_MODULE, 'utf8'))));
  console.log(`wrote ${path.relative(process.cwd(), SPRITE_FILE)}`);
}
