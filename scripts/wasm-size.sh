#!/usr/bin/env bash
# Prints the size of the built app's wasm (raw and gzip -9), the figure the README records.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
shopt -s nullglob
files=(dist/*.wasm)
if [ ${#files[@]} -eq 0 ]; then
  echo "no dist/*.wasm: build the app first" >&2
  exit 1
fi
for wasm in "${files[@]}"; do
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  awk -v f="$wasm" -v r="$raw" -v g="$gz" \
    'BEGIN { printf "wasm size: %s raw %d bytes (%.1f KiB), gzip -9 %d bytes (%.1f KiB)\n", f, r, r / 1024, g, g / 1024 }'
done
