#!/usr/bin/env bash
# One binary: after scripts/build-app.sh, `cargo install --path crates/server` gives a
# holdbay that serves the app it was built with from any directory, with no dist/ beside it.
# Installs into a temporary root (reusing target/'s `server` profile build), starts it from
# `/` as `holdbay` with no subcommand (it serves, as `holdbay serve` does), and checks the
# page, its wasm (brotli, as built) and /mcp. Prints one line per check, then exactly
# "install: N passed, M failed".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/scripts/env.sh"
work=$(mktemp -d)
pid=
aside="$root/dist.install-check"
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  [ ! -d "$aside" ] || mv "$aside" "$root/dist"
  rm -rf "$work"
}
trap cleanup EXIT

cargo install --path "$root/crates/server" --root "$work/root" --profile server \
  --target-dir "$root/target" --locked --quiet
# The checkout's dist/ is moved aside while the binary serves: what it serves is its own.
mv "$root/dist" "$aside"
cd /
"$work/root/bin/holdbay" --port 0 --data-dir "$work/data" >"$work/out" 2>"$work/err" &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/out" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done

passed=0
failed=0
check() { # check NAME COMMAND...: one line, PASS or FAIL
  local name=$1
  shift
  if "$@" >/dev/null 2>&1; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}
page="$work/page.html"
curl -sf "$url" -o "$page" || true
wasm=$(grep -o 'holdbay-app-[0-9a-f]*_bg\.wasm' "$page" | head -1 || true)
check "holdbay alone started from / and printed its URL" test -n "$url"
check "the page is the built app, with this launch's relay token" \
  grep -q 'name="holdbay-relay-token"' "$page"
check "the page names its first-screen wasm" test -n "$wasm"
check "the wasm comes as the brotli copy built in" \
  sh -c "curl -sf -D - -o /dev/null -H 'Accept-Encoding: br' '$url$wasm' | grep -qi '^content-encoding: br'"
check "the wasm as it is, for a client that accepts no encoding" \
  sh -c "curl -sf -D - -o /dev/null '$url$wasm' | grep -qi '^content-type: application/wasm'"
check "a deep link gets the page" grep -q 'holdbay-relay-token' <(curl -sf "${url}some/deep/link")
check "/mcp answers JSON-RPC" sh -c "curl -s -X POST '${url}mcp' -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
  -H 'Mcp-Method: tools/list' -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}' | grep -q jsonrpc"
check "no warning of a missing dist/ or an uncompressed file" \
  sh -c "! grep -Eq 'no index.html|no precompressed copy' '$work/err'"
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
