#!/usr/bin/env bash
# Command 2: install what is missing, then run every test layer and the code checks:
#   native (engine + server over real HTTP), browser (wasm-bindgen-test in headless Chromium,
#   then the same test binaries in headless Firefox),
#   end-to-end (Playwright + Chromium against the real `holdbay serve`),
#   conformance (@modelcontextprotocol/conformance server scenarios against `holdbay serve`),
#   client conformance (the suite's client scenarios, the app in Chromium as the client).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLDBAY_ROOT"
bash scripts/install-tools.sh

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "checks: cargo fmt, clippy (native and wasm32)"
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo clippy --target wasm32-unknown-unknown -p holdbay --all-targets --quiet -- -D warnings
# Every wire value is named by the engine's types; the app never spells one (the engine's own
# test `the_fold_spells_no_wire_value` holds the scene's fold to the same rule).
wire_values='"(server/discover|tools/(call|list)|prompts/(get|list)|resources/(read|list|templates/list)'
wire_values+='|tasks/(get|update|cancel)|subscriptions/listen|completion/complete|elicitation/create'
wire_values+='|sampling/createMessage|roots/list|notifications/[a-z/_]+'
wire_values+='|complete|input_required|task|working|completed|failed|cancelled)"'
if grep -rnE "$wire_values" src; then
  echo "the app spells an MCP method, resultType or task status: name it through holdbay_engine"
  exit 1
fi
bash scripts/check-docs.sh # the README's two commands, table widths, relative links (docs/testing.md)

step "native: cargo test (engine, server)"
cargo test -p holdbay-engine -p holdbay-server 2>&1 | tee "$logs/native"

step "fuzz smoke: the engine's response path under libFuzzer (stable, ${FUZZ_SECONDS:=20} s)"
FUZZ_SECONDS=$FUZZ_SECONDS bash crates/engine/fuzz/smoke.sh

ran_in() { # ran_in BROWSER LOG: every test binary in LOG ran headless in BROWSER, none elsewhere
  if ! grep -q "^Running headless tests in $1 " "$2" \
     || grep '^Running headless tests in ' "$2" | grep -qv "^Running headless tests in $1 "; then
    echo "the browser tests did not all run in $1 (see the runner's 'Running headless tests in' lines)"
    exit 1
  fi
}

# Line tables only in the browser tests' wasm: full debug info made each of the 13 test
# binaries about 440 MB, which the runner processes again for every browser (about 30 s a
# binary); with line tables a binary is about 59 MB and a panic still names its line. Set
# for these two commands only (the wasm32 target), so the native builds keep their own.
browser_test_env=(env CARGO_PROFILE_TEST_DEBUG=line-tables-only)
# The runner ends each browser without letting it remove its temporary profile (Chromium's
# org.chromium.Chromium.scoped_dir.*, 50-70 MB per test binary, so about 1 GB a run): give
# the browsers a temporary folder of their own, removed with the logs when this script exits.
browser_tmp="$logs/browser-tmp"
mkdir -p "$browser_tmp"
browser_test_env+=(TMPDIR="$browser_tmp")

step "browser (Chromium): cargo test --target wasm32-unknown-unknown (headless Chromium)"
"${browser_test_env[@]}" cargo test --target wasm32-unknown-unknown -p holdbay --tests 2>&1 | tee "$logs/browser"
ran_in Chrome "$logs/browser"
rm -rf "${browser_tmp:?}"/*

# The same test binaries (cargo builds nothing again) in headless Firefox ESR. env.sh pins
# CHROMEDRIVER so that geckodriver in ~/.cargo/bin never takes over the run above; the runner
# prefers CHROMEDRIVER over GECKODRIVER, so this one command drops it and names geckodriver.
step "browser (Firefox): the same tests in headless Firefox ESR through geckodriver"
"${browser_test_env[@]}" env -u CHROMEDRIVER GECKODRIVER="$(command -v geckodriver)" \
  cargo test --target wasm32-unknown-unknown -p holdbay --tests 2>&1 | tee "$logs/browser-firefox"
ran_in Firefox "$logs/browser-firefox"

step "end-to-end: release app + holdbay serve + Playwright"
bash scripts/build-app.sh
bash scripts/wasm-size.sh
cargo build -p holdbay-server --quiet
(cd tests/e2e && { [ -d node_modules/playwright-core ] && [ -d node_modules/axe-core ] || npm ci --no-audit --no-fund; } && npm test) \
  2>&1 | tee "$logs/e2e"

step "install: cargo install --path crates/server, then holdbay serve from / with no dist/"
bash tests/install/run.sh 2>&1 | tee "$logs/install"

step "conformance: @modelcontextprotocol/conformance server scenarios (Node 22, 127.0.0.1)"
bash tests/conformance/run.sh 2>&1 | tee "$logs/conformance"

step "client conformance: the suite's client scenarios, the release app in Chromium as the client (via the relay)"
bash tests/conformance/client/run.sh 2>&1 | tee "$logs/client-conformance"

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
read -r native_pass native_fail < <(cargo_counts "$logs/native")
read -r browser_pass browser_fail < <(cargo_counts "$logs/browser")
read -r firefox_pass firefox_fail < <(cargo_counts "$logs/browser-firefox")
read -r e2e_pass e2e_fail < <(node_counts "$logs/e2e")
read -r install_pass install_fail < <(install_counts "$logs/install")
read -r conformance_pass conformance_fail < <(conformance_counts "$logs/conformance")
read -r client_pass client_fail < <(client_conformance_counts "$logs/client-conformance")
step "summary"
printf 'native: %d passed, %d failed\n' "$native_pass" "$native_fail"
printf 'browser (Chromium): %d passed, %d failed\n' "$browser_pass" "$browser_fail"
printf 'browser (Firefox): %d passed, %d failed\n' "$firefox_pass" "$firefox_fail"
printf 'e2e: %d passed, %d failed\n' "$e2e_pass" "$e2e_fail"
printf 'install: %d passed, %d failed\n' "$install_pass" "$install_fail"
printf 'conformance: %d passed, %d failed\n' "$conformance_pass" "$conformance_fail"
printf 'client conformance: %d passed, %d failed (http-custom-headers through the form and Raw JSON)\n' \
  "$client_pass" "$client_fail"
printf 'total: %d passed, %d failed\n' \
  "$((native_pass + browser_pass + firefox_pass + e2e_pass + install_pass + conformance_pass + client_pass))" \
  "$((native_fail + browser_fail + firefox_fail + e2e_fail + install_fail + conformance_fail + client_fail))"
