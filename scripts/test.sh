#!/usr/bin/env bash
# Command 2: install what is missing, then run every test layer and the code checks:
#   native (engine + server over real HTTP), browser (wasm-bindgen-test in headless Chromium,
#   then the same test binaries in headless Firefox),
#   end-to-end (Playwright + Chromium against the real `holdbay serve`),
#   conformance (@modelcontextprotocol/conformance server scenarios against `holdbay serve`),
#   client conformance (the suite's client scenarios, the app in Chromium as the client).
#
# Everything is built first, one build at a time (they share target/ and both cores); then
# the layers run, those that mostly wait (on browsers, servers and real task durations) side
# by side. Each layer's output is printed whole when it ends; the summary gives its counts
# and its wall time (docs/testing.md#timings-disk-and-ci).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
bash scripts/install-tools.sh

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
step() { printf '\n== %s\n' "$*"; }
started=$SECONDS

# timed NAME COMMAND...: run COMMAND in the foreground, its wall time kept for the summary.
timed() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  printf '%s\t%d\n' "$name" "$((SECONDS - start))" >>"$logs/times"
  return "$status"
}

# Layers run side by side: `layer NAME COMMAND...` starts one in the background, its output
# to $logs/NAME; `layers_end` waits for all of them, prints each log whole in the order they
# were started, and fails if any did.
running=()
layer() {
  local name=$1
  shift
  running+=("$name")
  (
    start=$SECONDS
    status=0
    "$@" >"$logs/$name" 2>&1 || status=$?
    printf '%s\t%d\n' "$name" "$((SECONDS - start))" >>"$logs/times"
    exit "$status"
  ) &
  eval "pid_${name//-/_}=$!"
}
layers_end() {
  local name pid failed=()
  for name in "${running[@]}"; do
    pid_var="pid_${name//-/_}"
    pid=${!pid_var}
    wait "$pid" || failed+=("$name")
  done
  for name in "${running[@]}"; do
    step "$name"
    cat "$logs/$name"
  done
  running=()
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "test.sh: failed: ${failed[*]} (wall times so far:)"
    cat "$logs/times"
    exit 1
  fi
}

step "checks: cargo fmt, clippy (native and wasm32)"
# (Inside a function run under `||`, bash ignores `set -e`: each step returns on failure.)
checks() {
  cargo fmt --all --check || return
  cargo clippy --workspace --all-targets --quiet -- -D warnings || return
  cargo clippy --target wasm32-unknown-unknown -p holdbay --all-targets --quiet -- -D warnings || return
  # Every wire value is named by the engine's types; the app never spells one (the engine's
  # own test `the_fold_spells_no_wire_value` holds the scene's fold to the same rule).
  local wire_values='"(server/discover|tools/(call|list)|prompts/(get|list)|resources/(read|list|templates/list)'
  wire_values+='|tasks/(get|update|cancel)|subscriptions/listen|completion/complete|elicitation/create'
  wire_values+='|sampling/createMessage|roots/list|notifications/[a-z/_]+'
  wire_values+='|complete|input_required|task|working|completed|failed|cancelled)"'
  if grep -rnE "$wire_values" src; then
    echo "the app spells an MCP method, resultType or task status: name it through holdbay_engine"
    return 1
  fi
  bash scripts/check-docs.sh # the README's two commands, table widths, relative links (docs/testing.md)
}
timed checks checks

step "build: native tests, browser tests, the release app, the debug server"
builds() {
  cargo test -p holdbay-engine -p holdbay-scene -p holdbay-server --no-run --quiet || return
  cargo test --target wasm32-unknown-unknown -p holdbay --tests --no-run --quiet || return
  bash scripts/build-app.sh || return
  bash scripts/wasm-size.sh || return
  cargo build -p holdbay-server --quiet
}
timed build builds

ran_in() { # ran_in BROWSER LOG: every test binary in LOG ran headless in BROWSER, none elsewhere
  if ! grep -q "^Running headless tests in $1 " "$2" \
     || grep '^Running headless tests in ' "$2" | grep -qv "^Running headless tests in $1 "; then
    echo "the browser tests did not all run in $1 (see the runner's 'Running headless tests in' lines)"
    return 1
  fi
}

# The runner ends each browser without letting it remove its temporary profile (Chromium's
# org.chromium.Chromium.scoped_dir.*, 50-70 MB per test binary, so about 1 GB a run): give
# the browsers a temporary folder of their own, removed with the logs when this script exits.
browser_run() { # browser_run BROWSER TMP [env...]: the browser tests, built above, in BROWSER
  local browser=$1 tmp=$2
  shift 2
  mkdir -p "$tmp"
  env "$@" TMPDIR="$tmp" \
    cargo test --no-fail-fast --target wasm32-unknown-unknown -p holdbay --tests >"$logs/$browser.out" 2>&1
  local status=$?
  cat "$logs/$browser.out"
  rm -rf "$tmp"
  [ "$status" = 0 ] || return "$status"
  ran_in "$browser" "$logs/$browser.out"
}

# The browsers first, one after the other (each test binary is processed by the runner on
# one core), beside the native tests and the fuzz smoke run. env.sh pins CHROMEDRIVER so
# that geckodriver in ~/.cargo/bin never takes over the Chromium run; the runner prefers
# CHROMEDRIVER over GECKODRIVER, so the Firefox run drops it and names geckodriver.
browsers() {
  browser_run Chrome "$logs/tmp-chrome" || return
  browser_run Firefox "$logs/tmp-firefox" -u CHROMEDRIVER GECKODRIVER="$(command -v geckodriver)"
}
layer browser browsers
layer native cargo test --no-fail-fast -p holdbay-engine -p holdbay-scene -p holdbay-server
# The engine's response path under libFuzzer (stable), must not crash.
layer fuzz env FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash crates/engine/fuzz/smoke.sh
layers_end

# Then the layers that drive the real server from browsers and Node, side by side: they
# mostly wait on real task durations and the network.
layer e2e bash -c 'cd tests/e2e && npm test'
layer conformance bash tests/conformance/run.sh
layer client-conformance bash tests/conformance/client/run.sh
layers_end

# Alone: it moves dist/ aside while the installed binary serves.
step "install: cargo install --path crates/server, then holdbay serve from / with no dist/"
timed install bash tests/install/run.sh 2>&1 | tee "$logs/install"

# One line per layer, then the total, from the runners' own summaries.
cargo_counts() { # passed and failed, summed over every "test result:" line
  awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
       END { printf "%d %d\n", p, f }' "$1"
}
node_counts() {
  awk '/^ℹ pass / { p = $3 } /^ℹ fail / { f = $3 } END { printf "%d %d\n", p, f }' "$1"
}
conformance_counts() { # scenarios, from run.sh's last line "conformance: N passed, N failed"
  awk '/^conformance: [0-9]+ passed/ { p = $2; f = $4 } END { printf "%d %d\n", p, f }' "$1"
}
install_counts() { # checks, from its last line "install: N passed, N failed"
  awk '/^install: [0-9]+ passed/ { p = $2; f = $4 } END { printf "%d %d\n", p, f }' "$1"
}
client_conformance_counts() { # scenarios, from its last line "client conformance: N passed, N failed"
  awk '/^client conformance: [0-9]+ passed/ { p = $3; f = $5 } END { printf "%d %d\n", p, f }' "$1"
}
took() { # took NAME: the wall time of NAME, as "4m 05s"
  local seconds
  seconds=$(awk -F'\t' -v name="$1" '$1 == name { print $2 }' "$logs/times")
  printf '%dm %02ds' "$((seconds / 60))" "$((seconds % 60))"
}
read -r native_pass native_fail < <(cargo_counts "$logs/native")
read -r browser_pass browser_fail < <(cargo_counts "$logs/Chrome.out")
read -r firefox_pass firefox_fail < <(cargo_counts "$logs/Firefox.out")
read -r e2e_pass e2e_fail < <(node_counts "$logs/e2e")
read -r install_pass install_fail < <(install_counts "$logs/install")
read -r conformance_pass conformance_fail < <(conformance_counts "$logs/conformance")
read -r client_pass client_fail < <(client_conformance_counts "$logs/client-conformance")
step "summary"
printf 'checks: %s\n' "$(took checks)"
printf 'build: %s\n' "$(took build)"
printf 'native: %d passed, %d failed (%s; the fuzz smoke run beside it: %s)\n' \
  "$native_pass" "$native_fail" "$(took native)" "$(took fuzz)"
printf 'browser (Chromium): %d passed, %d failed\n' "$browser_pass" "$browser_fail"
printf 'browser (Firefox): %d passed, %d failed (both browsers: %s)\n' \
  "$firefox_pass" "$firefox_fail" "$(took browser)"
printf 'e2e: %d passed, %d failed (%s)\n' "$e2e_pass" "$e2e_fail" "$(took e2e)"
printf 'install: %d passed, %d failed (%s)\n' "$install_pass" "$install_fail" "$(took install)"
printf 'conformance: %d passed, %d failed (%s)\n' "$conformance_pass" "$conformance_fail" "$(took conformance)"
printf 'client conformance: %d passed, %d failed (http-custom-headers through the form and Raw JSON; %s)\n' \
  "$client_pass" "$client_fail" "$(took client-conformance)"
printf 'total: %d passed, %d failed in %dm %02ds\n' \
  "$((native_pass + browser_pass + firefox_pass + e2e_pass + install_pass + conformance_pass + client_pass))" \
  "$((native_fail + browser_fail + firefox_fail + e2e_fail + install_fail + conformance_fail + client_fail))" \
  "$(((SECONDS - started) / 60))" "$(((SECONDS - started) % 60))"
