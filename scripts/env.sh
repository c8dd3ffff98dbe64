# Sourced by the scripts: where the pinned tools live and how they are found.
# shellcheck shell=bash
HOLDBAY_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export HOLDBAY_ROOT
# The npm wasm-opt (binaryen 132) first, so Debian's broken wasm-opt 108 is never picked.
export PATH="$HOLDBAY_ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_OFFLINE=true TRUNK_SKIP_VERSION_CHECK=true
# Browser tests run in Debian's Chromium even if a geckodriver is on PATH.
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-60}
