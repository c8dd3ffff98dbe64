#!/usr/bin/env bash
# Command 1: install what is missing, build the app (release, precompressed) and the
# optimised holdbay binary, then serve both at http://127.0.0.1:${PORT:-8080} with the demo
# MCP server at /mcp.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
bash scripts/install-tools.sh
bash scripts/build-app.sh
bash scripts/wasm-size.sh
# The binary serves the app built into it (no --dist: that stays for development).
exec target/server/holdbay serve --port "${PORT:-8080}"
