// `npm start` on a fresh clone: build the web app when there is no build yet, or when a source file
// is newer than it. Skips the ~10 s build on every other start.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(webRoot, 'build', 'server', 'index.js');
const sources = ['app', 'public', 'vite.config.ts', 'react-router.config.ts', '../../packages/contracts/src'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
const changed = Math.max(...sources.map((s) => newestMtime(path.join(webRoot, s))));
if (built === 0 || changed > built) {
  console.log(built === 0 ? 'Building the web app (first start)…' : 'Web sources changed; rebuilding…');
  execFileSync('npx', ['react-router', 'build'], { cwd: webRoot, stdio: 'inherit' });
}
