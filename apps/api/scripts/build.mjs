// Bundles the API process (apps/api/src/server.ts) into apps/api/dist/server.js: our TypeScript and
// the workspace packages (@cairn/contracts, @cairn/db) compiled into one ES module, every package
// from node_modules left as an import. `npm start` runs it with plain node: no loader, no esbuild
// service processes, and a start that does not compile anything.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(apiRoot, 'dist');
export const ENTRY = path.join(OUT_DIR, 'server.js');

/** node_modules packages stay external; the workspace's own packages are compiled in. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@cairn/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Source files compute paths from their own location (the migrations folder from
 * packages/db/src/client.ts, the web app from apps/api/src/plugins/web.ts). In the bundle each such
 * `import.meta.url` is the source file's URL, found relative to the bundle at run time, so every
 * path stays right wherever the checkout lives.
 */
const sourceImportMetaUrl = (outDir) => ({
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(outDir, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
});

/** Where the server finds the PGlite data-dir template (server.ts: next to the bundle). */
const TEMPLATE = 'pglite-template';

/** `outDir` other than apps/api/dist: the test of the built server builds into a directory of its own. */
export async function buildApi(outDir = OUT_DIR) {
  // Everything but the data-dir template, which make-pglite-template keeps while it is current.
  for (const name of fs.existsSync(outDir) ? fs.readdirSync(outDir) : []) {
    if (name !== TEMPLATE) fs.rmSync(path.join(outDir, name), { recursive: true, force: true });
  }
  await esbuild.build({
    absWorkingDir: apiRoot,
    // Files are parsed in worker threads that load parse-worker.js from beside the server's chunks
    // (src/rag/parse/parse-in-worker.ts).
    entryPoints: { server: 'src/server.ts', 'parse-worker': 'src/rag/parse/parse-worker.ts' },
    outdir: outDir,
    bundle: true,
    // Modules imported with import() become chunks of their own, loaded on first use.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.22',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [externalPackages, sourceImportMetaUrl(outDir)],
  });
  // A new data dir is copied from this template instead of running initdb at the server's first
  // start (packages/db/src/make-pglite-template.ts): made here, in a process of its own. A bundle of
  // its own (no chunks shared with the server's, whose layout stays as it was).
  await esbuild.build({
    absWorkingDir: apiRoot,
    entryPoints: { 'make-pglite-template': '../../packages/db/src/make-pglite-template.ts' },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.22',
    logLevel: 'warning',
    plugins: [externalPackages, sourceImportMetaUrl(outDir)],
  });
  const maker = path.join(outDir, 'make-pglite-template.js');
  execFileSync(process.execPath, [maker, path.join(outDir, TEMPLATE)], { stdio: 'inherit' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildApi();
  console.log(
    `Built ${path.relative(process.cwd(), ENTRY)} in ${Math.round(performance.now() - started)} ms`,
  );
}
