#!/usr/bin/env bash
# Runs the cargo-fuzz targets (nightly + cargo-fuzz), each for a bounded time, and prints
# one line per target with its execution count (docs/FUZZING.md).
#
#   fuzz/run.sh [--short SECONDS] [--target T] [--jobs N] [--fast]
#
# --short S   seconds per target (default 600; CI's short form uses 15)
# --target T  only target T (repeatable); default every target in fuzz/Cargo.toml
# --jobs N    parallel libFuzzer workers per target (default 1)
# --fast      build optimised without AddressSanitizer and debug assertions (cargo fuzz
#             -O -s none, in CARGO_TARGET_DIR or fuzz/target-fast), for long campaigns of
#             the compute-bound targets (sign_roundtrip, signing_key: about 8x the
#             executions a second). The default build, with both, is what CI runs.
# The corpus in fuzz/corpus/<target> is only read: new inputs go to a scratch copy
# (fuzz/corpus-work, git-ignored), so a run leaves the repository unchanged. A crash stops
# the script with exit 1 and leaves the input under fuzz/artifacts/<target>/.
# Build: CARGO_TARGET_DIR (default fuzz/target) holds the instrumented build.
set -euo pipefail
cd "$(dirname "$0")"
SECS=600
JOBS=1
FAST=0
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short) SECS="$2"; shift 2 ;;
    --target) TARGETS+=("$2"); shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --fast) FAST=1; shift ;;
    -h|--help) sed -n '2,17p' "$(basename "$0")"; exit 0 ;;
    *) echo "fuzz/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz/run.sh: needs the nightly toolchain and cargo-fuzz" >&2
  echo "  (rustup toolchain install nightly --profile minimal; cargo install cargo-fuzz)" >&2
  exit 3
fi
[ ${#TARGETS[@]} -gt 0 ] || mapfile -t TARGETS < <(cargo +nightly fuzz list)
BUILD=(--features server)
if [ "$FAST" = 1 ]; then
  BUILD=(--features server -O -s none)
  TD="${CARGO_TARGET_DIR:-target-fast}"
else
  TD="${CARGO_TARGET_DIR:-target}"
fi
cargo +nightly fuzz build "${BUILD[@]}" --target-dir "$TD"
for t in "${TARGETS[@]}"; do
  work="corpus-work/$t"
  mkdir -p "$work" "artifacts/$t"
  log="$(mktemp)"
  # -timeout: a single input taking over 60 s is reported as a hang (a crash here).
  if ! cargo +nightly fuzz run "${BUILD[@]}" --target-dir "$TD" "$t" "$work" "corpus/$t" -- \
      -max_total_time="$SECS" -timeout=60 -rss_limit_mb=4096 -jobs="$JOBS" \
      -workers="$JOBS" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FUZZ CRASH: $t (input under fuzz/artifacts/$t/)"
    exit 1
  fi
  # With -jobs > 1 the stats are in fuzz-<n>.log files.
  execs=$({ cat "$log"; cat fuzz-*.log 2>/dev/null || true; } \
    | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
  cov=$({ grep -o 'cov: [0-9]*' "$log" || true; } | tail -n 1 | cut -d' ' -f2)
  rm -f fuzz-*.log "$log"
  printf '%-24s %12s executions in %ss, cov %s, no crash\n' "$t" "$execs" "$SECS" "${cov:-?}"
done
