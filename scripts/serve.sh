#!/usr/bin/env bash
# Command 1: install what is missing, build the app (release) and the holdbay binary, then
# serve both at http://127.0.0.1:${PORT:-8080} with the demo MCP server at /mcp.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
bash scripts/install-tools.sh
echo "== build: app (trunk build --release)"
trunk build --release
bash scripts/wasm-size.sh
echo "== build: holdbay server"
cargo build -p holdbay-server
exec target/debug/holdbay serve --port "${PORT:-8080}" --dist dist
