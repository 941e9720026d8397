import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The e2e server serves a production build made for this run in a temporary directory, so a
 * rebuild of apps/web/build elsewhere (another terminal, `npm start`) cannot swap assets mid-run.
 * E2E_WEB_BUILD_DIR reuses an existing build instead (faster local iterations).
 */
const WEB_DIR = path.resolve(import.meta.dirname, '../apps/web');

export default async function globalSetup() {
  // The widget's loader and chat bundle (small; built in place, as npm start does).
  const { buildWidget } = await import('../apps/widget/scripts/build.mjs');
  await buildWidget();
  if (process.env.E2E_WEB_BUILD_DIR) {
    process.env.WEB_BUILD_DIR = path.resolve(process.env.E2E_WEB_BUILD_DIR);
    return;
  }
  // Inside apps/web: the server build imports react & co. from the workspace's node_modules.
  const dir = fs.mkdtempSync(path.join(WEB_DIR, '.e2e-build-'));
  execFileSync('npx', ['react-router', 'build'], {
    cwd: WEB_DIR,
    env: { ...process.env, WEB_BUILD_DIR: dir, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.WEB_BUILD_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
