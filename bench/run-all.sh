#!/usr/bin/env bash
# `npm run bench`: every benchmark, one after another, on the embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsx bench/web/web-bench.ts
npx tsx bench/models/overhead.ts
npx tsx bench/knowledge-ingest/run.ts
npx tsx bench/parsing/run.ts
npx tsx bench/knowledge-search/run.ts
npx tsx bench/retrieval-quality/run.ts
npx tsx bench/chat/first-token.ts
npx tsx bench/chat/sockets.ts
npx tsx bench/chat/widget.ts
npx tsx bench/widget/open.ts
