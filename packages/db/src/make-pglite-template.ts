/**
 * Makes the PGlite data-dir template a new data dir is copied from (`OpenOptions.templateDir`):
 * initdb, then every migration. Run by the API build as its own process,
 * `node apps/api/dist/make-pglite-template.js <dir>`, so initdb's ~0.7 GB peak is that short-lived
 * process's and not the server's. Writes `<dir>/pglite` (the data dir) and `<dir>/key` (the PGlite
 * and settings it needs, then the migrations it holds); a template whose key still matches is kept,
 * so a rebuild after a source change does not redo it. The server migrates a copy made before a
 * newer migration like any older data dir.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, pgliteTemplateKey } from './client.ts';
import { migrationsFingerprint } from './testing.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node make-pglite-template.js <template dir>');
const key = `${pgliteTemplateKey()}\nmigrations ${migrationsFingerprint()}\n`;
const keyFile = path.join(dir, 'key');
if (!fs.existsSync(keyFile) || fs.readFileSync(keyFile, 'utf8') !== key) {
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: partial });
  await database.migrate();
  await database.close();
  fs.writeFileSync(path.join(partial, 'key'), key);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
}
