#!/usr/bin/env bash
# `npm test`: every test that proves behaviour.
#   1. unit + API integration tests (vitest) on embedded PGlite;
#   2. the same suite on PostgreSQL + pgvector when TEST_DATABASE_URL is set;
#   3. browser end-to-end tests (Playwright driving Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== vitest on PGlite"
env -u TEST_DATABASE_URL npx vitest run

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== vitest on PostgreSQL (${TEST_DATABASE_URL%%\?*})"
  npx vitest run
fi

if [ -f playwright.config.ts ]; then
  echo "== end-to-end (Playwright + Chromium)"
  npx playwright test
fi
