// `npm start`: builds what is missing, or older than its sources, so the server runs built JavaScript
// (the API bundle, apps/api/dist) and serves the web app's build (apps/web/build) and the widget's
// (apps/widget/dist). A built checkout
// starts without compiling anything; this check costs a few tens of milliseconds.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contracts = ['packages/contracts/src', 'packages/contracts/package.json'];

const builds = [
  {
    name: 'the API',
    entry: 'apps/api/dist/server.js',
    sources: [
      'apps/api/src',
      'apps/api/scripts/build.mjs',
      'apps/api/package.json',
      'packages/db/src',
      // The build makes a migrated PGlite data-dir template (apps/api/dist/pglite-template).
      'packages/db/migrations',
      'packages/db/package.json',
      ...contracts,
    ],
    async build() {
      const { buildApi } = await import('../apps/api/scripts/build.mjs');
      await buildApi();
    },
  },
  {
    name: 'the website widget',
    entry: 'apps/widget/dist/widget.js',
    sources: ['apps/widget/src', 'apps/widget/scripts/build.mjs', 'apps/widget/package.json', ...contracts],
    async build() {
      const { buildWidget } = await import('../apps/widget/scripts/build.mjs');
      await buildWidget();
    },
  },
  {
    name: 'the web app',
    entry: 'apps/web/build/server/index.js',
    sources: [
      'apps/web/app',
      'apps/web/public',
      'apps/web/vite.config.ts',
      'apps/web/react-router.config.ts',
      ...contracts,
    ],
    async build() {
      // Its file-by-file report is noise on a first start; it is shown when the build fails.
      try {
        execFileSync('npx', ['react-router', 'build'], { cwd: path.join(root, 'apps/web'), stdio: 'pipe' });
      } catch (error) {
        process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
        throw error;
      }
    },
  },
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

for (const { name, entry, sources, build } of builds) {
  const entryPath = path.join(root, entry);
  const built = fs.existsSync(entryPath) ? fs.statSync(entryPath).mtimeMs : 0;
  const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (built === 0 || changed > built) {
    console.log(built === 0 ? `Building ${name} (first start)…` : `Sources of ${name} changed; rebuilding…`);
    await build();
  }
}
