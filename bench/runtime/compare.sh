#!/usr/bin/env bash
# Issue 19, item 5: the benches that matter on two runtimes, each from its own checkout, taking turns
# (old, new, old, new …) so whatever else the machine does falls on both alike.
#
#   bash bench/runtime/compare.sh OLD_CHECKOUT OLD_NODE_BIN_DIR NEW_CHECKOUT NEW_NODE_BIN_DIR [RUNS] [OUT_DIR]
#
# e.g. a checkout of the last Node 20 commit with the system's Node against this one on Node 26:
#   bash bench/runtime/compare.sh ../cairn-node20 /usr/bin . "$(bash .ci/install-node.sh 26)" 3
# Logs go to OUT_DIR (default /tmp/runtime-compare), one per bench, side and run; read the medians there.
set -euo pipefail
old_dir=$(cd "$1" && pwd) old_bin=$2 new_dir=$(cd "$3" && pwd) new_bin=$4 runs=${5:-3}
out=${6:-/tmp/runtime-compare}
mkdir -p "$out"

benches=(
  "first-token|npx tsx bench/chat/first-token.ts --rounds 30 --chunks 3000 --data-dir $out/ft-SIDE"
  "ssr-ttfb|npx tsx bench/web/web-bench.ts --requests 100"
  "ingest|npx tsx bench/knowledge-ingest/run.ts --pages 20 --texts 500"
  "rss-at-rest|npx tsx bench/memory/at-rest.ts --runs 1"
)

for run in $(seq 1 "$runs"); do
  for entry in "${benches[@]}"; do
    name=${entry%%|*} command=${entry#*|}
    for side in old new; do
      dir=$old_dir bin=$old_bin
      [ "$side" = new ] && dir=$new_dir bin=$new_bin
      log="$out/$name-$side-$run.log"
      echo "== $name, $side ($(PATH="$bin:$PATH" node -v)), run $run → $log"
      (cd "$dir" && PATH="$bin:$PATH" node scripts/ensure-build.mjs >/dev/null &&
        PATH="$bin:$PATH" bash -c "${command//SIDE/$side}") >"$log" 2>&1 || echo "   failed: see $log"
    done
  done
done
