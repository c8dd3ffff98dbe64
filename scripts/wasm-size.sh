#!/usr/bin/env bash
# Prints the size of the built app's wasm, the figure the README records: the first-screen
# module (the one index.html preloads) and the on-demand chunks together, raw and gzip -9, and
# brotli as served where the build wrote .br files beside them (scripts/build-app.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
shopt -s nullglob
main=(dist/holdbay-app-*_bg.wasm)
if [ ${#main[@]} -ne 1 ]; then
  echo "no dist/holdbay-app-*_bg.wasm: build the app first (scripts/build-app.sh)" >&2
  exit 1
fi
chunks=()
for wasm in dist/*.wasm; do [ "$wasm" = "${main[0]}" ] || chunks+=("$wasm"); done
compressed=0
[ -f "${main[0]}.br" ] && compressed=1
report() { # report LABEL FILE...
  local label=$1 raw=0 gz=0 br=0 file
  shift
  for file in "$@"; do
    raw=$((raw + $(stat -c %s "$file")))
    gz=$((gz + $(gzip -9 -c "$file" | wc -c)))
    # A file too small to gain from compression has no .br and is served as it is.
    if [ -f "$file.br" ]; then br=$((br + $(stat -c %s "$file.br"))); else br=$((br + $(stat -c %s "$file"))); fi
  done
  awk -v l="$label" -v r="$raw" -v g="$gz" -v b="$br" -v c="$compressed" 'BEGIN {
    printf "wasm size: %s %d bytes raw (%.1f KiB), gzip -9 %.1f KiB", l, r, r / 1024, g / 1024
    if (c) printf ", brotli %.1f KiB", b / 1024
    printf "\n" }'
}
report "first screen (${main[0]#dist/})" "${main[@]}"
[ ${#chunks[@]} -eq 0 ] || report "${#chunks[@]} on-demand chunks" "${chunks[@]}"
