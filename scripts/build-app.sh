#!/usr/bin/env bash
# Build the release app into dist/ with Trunk, the wasm split into a first-screen module and
# on-demand chunks (src/ui/on_demand.rs): Trunk's wasm-bindgen step runs through
# scripts/split/wasm-bindgen, which splits first; scripts/split/finish-dist.sh adds the chunks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
# holdbay_split turns the #[lazy] split points on; the splitter needs the linker's
# relocations; erase_components makes Leptos erase view types at component boundaries.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg holdbay_split --cfg erase_components -Clink-args=--emit-relocs"
rm -rf target/wasm-split/dist
PATH="$HOLDBAY_ROOT/scripts/split:$PATH" trunk build --release
if ! compgen -G "target/wasm-split/dist/*" >/dev/null; then
  echo "build-app: the wasm was not split (is wasm-split-cli installed?)" >&2
  exit 1
fi
bash scripts/split/finish-dist.sh dist target/wasm-split/dist
