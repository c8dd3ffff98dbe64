#!/usr/bin/env bash
# The app as it is served, in dist/:
# 1. `trunk build --release`, the wasm split into a first-screen module and on-demand chunks
#    (src/ui/on_demand.rs): Trunk's wasm-bindgen step runs through scripts/split/wasm-bindgen,
#    which splits first; scripts/split/finish-dist.sh adds the chunks under hashed names;
# 2. every file compressed once (gzip -9, brotli 11, zstd 19) beside it by `holdbay
#    precompress`, so the server never compresses per request. That builds the optimised
#    holdbay binary (cargo profile `server`, target/server/holdbay) scripts/serve.sh runs,
#    built again after it with the app (and its compressed copies) inside.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
echo "== build: app (trunk build --release, split)"
# holdbay_split turns the #[lazy] split points on; the splitter needs the linker's
# relocations; erase_components makes Leptos erase view types at component boundaries.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg holdbay_split --cfg erase_components -Clink-args=--emit-relocs"
rm -rf target/wasm-split/dist
# Trunk builds offline (Trunk.toml): the crates come first, so a fresh clone builds too.
cargo fetch --locked --quiet
PATH="$HOLDBAY_ROOT/scripts/split:$PATH" trunk build --release
if ! compgen -G "target/wasm-split/dist/*" >/dev/null; then
  echo "build-app: the wasm was not split (is wasm-split-cli installed?)" >&2
  exit 1
fi
bash scripts/split/finish-dist.sh dist target/wasm-split/dist
echo "== build: holdbay server (cargo build --profile server)"
cargo build --profile server -p holdbay-server --quiet
echo "== build: precompress dist/ (gzip -9, brotli 11, zstd 19)"
target/server/holdbay precompress --dist dist
# The binary carries the app (crates/server/src/embedded_app.rs): built again, so that what
# it carries has the compressed copies (build.rs sees dist/ change; only this crate builds).
echo "== build: holdbay server with the app built in"
cargo build --profile server -p holdbay-server --quiet
