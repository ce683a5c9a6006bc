#!/usr/bin/env bash
# SNOVA portable vs NEON on aarch64 as guest instruction counts under qemu-aarch64 (no ARM
# machine here; docs/REPRODUCING.md section (c)). For each set, backend and operation,
# one operation's instructions = count(--iters 2) - count(--iters 1) of the example
# snova_ticks restricted to that operation (--op): key setup, the warm-up call and the
# process around it cancel. Counts are exact and load-independent; they are not ARM
# cycles. Prints one JSON line per (set, backend, op).
#
#   scripts/snova-neon-icount.sh [SETS] [OPS]      (defaults: SNOVA_I_S,SNOVA_I_S_AES keygen,sign,verify)
#
# Needs the cross-built example:
#   cargo build --release -p pqsig --target aarch64-unknown-linux-gnu --example snova_ticks
# (linker and qemu runner as in .cargo/config.toml: gcc-aarch64-linux-gnu, qemu-user,
# libc6-dev-arm64-cross).
set -euo pipefail
cd "$(dirname "$0")/.."
SETS="${1:-SNOVA_I_S,SNOVA_I_S_AES}"
OPS="${2:-keygen,sign,verify}"
BIN="${CARGO_TARGET_DIR:-target}/aarch64-unknown-linux-gnu/release/examples/snova_ticks"
[ -x "$BIN" ] || { echo "error: $BIN not built (see the header)" >&2; exit 2; }
count() {
  scripts/qemu-insn-count.py qemu-aarch64 -L /usr/aarch64-linux-gnu -- \
    "$BIN" --set "$1" --backend "$2" --op "$3" --iters "$4" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])'
}
for set in ${SETS//,/ }; do
  for op in ${OPS//,/ }; do
    for be in portable neon; do
      a=$(count "$set" "$be" "$op" 1)
      b=$(count "$set" "$be" "$op" 2)
      echo "{\"set\":\"$set\",\"backend\":\"$be\",\"op\":\"$op\",\"instructions\":$((b - a))}"
    done
  done
done
