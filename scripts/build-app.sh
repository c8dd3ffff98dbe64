#!/usr/bin/env bash
# The app as it is served: `trunk build --release` into dist/, then every file compressed
# once (gzip -9, brotli 11, zstd 19) beside it by `holdbay precompress`, so the server never
# compresses per request. Builds the optimised holdbay binary (cargo profile `server`,
# target/server/holdbay) that does the compressing and that scripts/serve.sh runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
echo "== build: app (trunk build --release)"
trunk build --release
echo "== build: holdbay server (cargo build --profile server)"
cargo build --profile server -p holdbay-server --quiet
echo "== build: precompress dist/ (gzip -9, brotli 11, zstd 19)"
target/server/holdbay precompress --dist dist
