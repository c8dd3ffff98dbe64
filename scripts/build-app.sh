#!/usr/bin/env bash
# The app as it is served, in dist/:
# 1. `trunk build --release`, the wasm split into a first-screen module and on-demand chunks
#    (src/ui/on_demand.rs): Trunk's wasm-bindgen step runs through scripts/split/wasm-bindgen,
#    which splits first; scripts/split/finish-dist.sh adds the chunks under hashed names;
# 2. every file compressed once (gzip -9, brotli 11, zstd 19) beside it by `holdbay
#    precompress`, so the server never compresses per request. That builds the optimised
#    holdbay binary (cargo profile `server`, target/server/holdbay) scripts/serve.sh runs,
#    built again after it with the app (and its compressed copies) inside.
# When nothing the app is built from changed since the last build, dist/ is kept as it is
# and only the server build is checked (a warm test run takes seconds here, not minutes).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
# What the app is built from; when none of it changed since dist/ was last built, that
# build stands (Trunk would run wasm-bindgen, the splitter and wasm-opt again, every file
# would be compressed again, and the server rebuilt around the new copies: minutes, for
# the same bytes).
app_inputs() {
  {
    find src style assets crates/engine/src crates/scene/src scripts/split -type f -print0 | sort -z | xargs -0 sha256sum
    sha256sum index.html Trunk.toml Cargo.toml Cargo.lock crates/engine/Cargo.toml crates/scene/Cargo.toml scripts/build-app.sh
    rustc --version
    trunk --version
    wasm-bindgen --version
    wasm-opt --version
  } | sha256sum | cut -d' ' -f1
}
stamp=target/app-inputs.sha256
inputs=$(app_inputs)
if [ -f dist/index.html ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
  echo "== build: app unchanged since dist/ was built ($stamp): kept"
  built_app=no
else
  rm -f "$stamp"
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
  built_app=yes
fi
echo "== build: holdbay server (cargo build --profile server)"
cargo build --profile server -p holdbay-server --quiet
if [ "$built_app" = yes ]; then
  echo "== build: precompress dist/ (gzip -9, brotli 11, zstd 19)"
  target/server/holdbay precompress --dist dist
  # The binary carries the app (crates/server/src/embedded_app.rs): built again, so that what
  # it carries has the compressed copies (build.rs sees dist/ change; only this crate builds).
  echo "== build: holdbay server with the app built in"
  cargo build --profile server -p holdbay-server --quiet
  mkdir -p target
  echo "$inputs" >"$stamp"
fi
