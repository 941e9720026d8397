// Builds the website widget into apps/widget/dist, which the API serves:
// - widget.js: the loader a host page includes (no dependencies; its budget is 5 KB gzip);
// - embed.js + embed.css: the chat inside the iframe (Preact; its budget is 80 KB gzip of JS).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const widgetRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(widgetRoot, 'dist');

/** Old browsers still visit the sites the widget lives on: the loader avoids newer syntax. */
const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2019'],
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

export async function buildWidget(outDir = OUT_DIR) {
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: { widget: path.join(widgetRoot, 'src/loader/widget.ts') },
      outdir: outDir,
    }),
    esbuild.build({
      ...common,
      entryPoints: { embed: path.join(widgetRoot, 'src/embed/main.tsx') },
      outdir: outDir,
      jsx: 'automatic',
      jsxImportSource: 'preact',
    }),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWidget();
}
