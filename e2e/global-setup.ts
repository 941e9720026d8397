import { execFileSync } from 'node:child_process';

/** The e2e server serves the production build: build it when missing or stale (as `npm start` does). */
export default function globalSetup() {
  execFileSync('node', ['apps/web/scripts/ensure-build.mjs'], { stdio: 'inherit' });
}
