#!/usr/bin/env bash
# A short fuzz run of the engine's `response_path` target, on stable Rust. Exits non-zero on a
# crash (the input is kept under crates/engine/fuzz/artifacts/response_path/).
#
#   bash crates/engine/fuzz/smoke.sh            # libFuzzer via cargo-fuzz, 30 s (default)
#   bash crates/engine/fuzz/smoke.sh --stable   # no libFuzzer: corpus replay + random inputs
#   FUZZ_SECONDS=300 bash crates/engine/fuzz/smoke.sh
#
# libFuzzer mode: `cargo fuzz run --sanitizer none` needs no nightly (the sanitizer is the only
# nightly-only part; Rust's own checks, debug assertions and overflow checks stay on). It
# installs cargo-fuzz once (~1 min) and builds libFuzzer with the system C++ compiler (~2 min
# the first time, cached in crates/engine/fuzz/target). The run itself is FUZZ_SECONDS.
# Stable mode: a plain `cargo run --example smoke`; not coverage-guided, no C++ needed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/../../../scripts/env.sh"
seconds=${FUZZ_SECONDS:-30}
mode=libfuzzer
[ "${1:-}" = "--stable" ] && mode=stable
cd "$here"
mkdir -p corpus/response_path artifacts/response_path

if [ "$mode" = stable ]; then
  cargo build --quiet --release --no-default-features --example smoke
  exec ./target/release/examples/smoke --seconds "$seconds" seeds/response_path corpus/response_path
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2 --locked --quiet
fi
# The corpus only grows; minimise it now and then (~40 s) so the smoke run stays short.
if [ "$(find corpus/response_path -type f | wc -l)" -gt 10000 ]; then
  cargo fuzz cmin --fuzz-dir "$here" --sanitizer none response_path corpus/response_path \
    >/dev/null 2>&1 && echo "fuzz smoke: corpus minimised to $(find corpus/response_path -type f | wc -l) files"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The first corpus directory is the one libFuzzer writes to; the seeds stay read-only.
status=0
RUST_BACKTRACE=1 RUST_LIB_BACKTRACE=0 cargo fuzz run --fuzz-dir "$here" --sanitizer none response_path \
  corpus/response_path seeds/response_path -- \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  # libFuzzer's crash report (panic message, backtrace, saved input) or the build error.
  report=$(awk '/panicked at|ERROR: libFuzzer|^error/ { p = 1 } p' "$log" | head -n 100)
  if [ -n "$report" ]; then echo "$report" >&2; else tail -n 60 "$log" >&2; fi
  echo "fuzz smoke: FAILED (exit $status)" >&2
  exit "$status"
fi
runs=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$log" | tail -n 1)
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" || true
printf 'fuzz smoke: ran %s inputs in %s s (libFuzzer, corpus %s files): no crash\n' \
  "${runs:-?}" "$seconds" "$(find corpus/response_path -type f | wc -l)"
