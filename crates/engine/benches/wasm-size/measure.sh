#!/usr/bin/env bash
# What the engine adds to the release wasm, two ways (docs/benchmarks.md explains both):
#  1. attribution in the real app: the app's pre-wasm-opt module (trunk's wasm-bindgen output)
#     optimised exactly like trunk does (`wasm-opt -Oz`, checked byte-identical to dist/) and
#     once more with `-g` to keep names, then twiggy top/dominators grouped by crate;
#  2. a differential build of a tiny probe host without / with the engine.
# Run `trunk build --release` first. Writes nothing in the repo except ./target (ignored).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/../../../../scripts/env.sh"
command -v twiggy >/dev/null || cargo install twiggy --version 0.8.0 --locked --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
size() { printf 'raw %7d  gzip -9 %7d' "$(stat -c %s "$1")" "$(gzip -9 -c "$1" | wc -c)"; }

echo "== 1. the app (dist/ from trunk build --release)"
bindgen="$HOLDBAY_ROOT/target/wasm-bindgen/release/holdbay-app_bg.wasm"
dist=$(ls "$HOLDBAY_ROOT"/dist/*_bg.wasm)
wasm-opt --output="$work/app.wasm" -Oz "$bindgen"
wasm-opt --output="$work/app-names.wasm" -Oz -g "$bindgen"
cmp -s "$work/app.wasm" "$dist" && echo "wasm-opt -Oz of trunk's wasm-bindgen output == $dist"
echo "app:      $(size "$dist")"
twiggy top -f csv "$work/app-names.wasm" >"$work/top.csv"
twiggy dominators -f csv "$work/app-names.wasm" >"$work/dom.csv"
python3 "$here/attribute.py" "$work/top.csv" "$work/dom.csv"

echo "== 2. probe host, same profile and pipeline"
export CARGO_TARGET_DIR="$here/target"
cd "$here"
for variant in baseline app full; do
  features=()
  [ "$variant" != baseline ] && features=(--features "$variant")
  cargo build --quiet --release --target wasm32-unknown-unknown "${features[@]}"
  rm -rf "$work/$variant" && mkdir -p "$work/$variant"
  wasm-bindgen --target=web --out-dir="$work/$variant" --out-name=probe --no-typescript \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/engine_wasm_probe.wasm"
  wasm-opt --output="$work/$variant/opt.wasm" -Oz "$work/$variant/probe_bg.wasm"
  printf '%-9s %s\n' "$variant:" "$(size "$work/$variant/opt.wasm")"
done
