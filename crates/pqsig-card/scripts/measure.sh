#!/usr/bin/env bash
# Measures the offload path on this machine and writes JSON lines into OUTDIR:
#   kernel.jsonl   `pqsig bench` ntt / intt rows, both driver modes, batches 1..4096
#   ops.jsonl      verify_batch / sign_batch rows with the NTTs on the card, and
#                  verify_batch rows of whole jobs on the card (card-verify)
#   stream.jsonl   the card's sustained rate against the cycle model (examples/stream)
#   doorbell.jsonl no-op round trips (examples/doorbell), polling and futex paths
#   env.txt        machine, load average before and after, settings
# It starts and stops its own `timed` card (125 MHz unless CLOCK_MHZ is set).
#
#   cargo build -p pqsig-cli && cargo build -p pqsig-card --examples
#   crates/pqsig-card/scripts/measure.sh /tmp/offload        # from the repository root
#
# PRIO=-10 runs the card and the clients at that nice level (root only): on a machine
# shared with other work, a timed card is only as punctual as the scheduler lets it be.
set -euo pipefail
OUT=${1:?usage: measure.sh OUTDIR}
mkdir -p "$OUT"
BIN=${PQSIG_BIN:-target/debug/pqsig}
EX=${PQSIG_EXAMPLES:-target/debug/examples}
BACKEND=${BACKEND:-avx2}
CLOCK_MHZ=${CLOCK_MHZ:-125}
PRIO=${PRIO:-0}
ITERS=${ITERS:-200}
run() { nice -n "$PRIO" "$@"; }

SOCK="$OUT/card.sock"
rm -f "$SOCK"
setsid nice -n "$PRIO" "$BIN" card --accel timed --clock-mhz "$CLOCK_MHZ" --socket "$SOCK" 2>"$OUT/card.log" &
CARD=$!
trap 'kill -TERM $CARD 2>/dev/null; wait $CARD 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || { echo "measure.sh: the card did not start" >&2; exit 1; }
export PQSIG_CARD="$SOCK"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "backend: $BACKEND  clock_mhz: $CLOCK_MHZ  nice: $PRIO  iters: $ITERS"
} >"$OUT/env.txt"

: >"$OUT/kernel.jsonl"
for dev in card card-per-call; do
  for n in 1 4 16 64 256 1024 4096; do
    run "$BIN" --device "$dev" --backend "$BACKEND" bench --alg ML-DSA-44 --batch "$n" \
      --op ntt --op intt --json --iters "$ITERS" --time 1 | grep '"type":"batch"' >>"$OUT/kernel.jsonl"
  done
done

: >"$OUT/ops.jsonl"
for dev in card card-per-call; do
  for alg in ML-DSA-44 ML-DSA-65; do
    for n in 4 64; do
      run "$BIN" --device "$dev" --backend "$BACKEND" bench --alg "$alg" --batch "$n" \
        --op verify_batch --op sign_batch --json --iters 10 --time 2 | grep '"type":"batch"' >>"$OUT/ops.jsonl"
    done
  done
done

for alg in ML-DSA-44 ML-DSA-65; do
  for n in 4 64 256; do
    run "$BIN" --device card-verify --backend "$BACKEND" bench --alg "$alg" --batch "$n" \
      --op verify_batch --json --iters 10 --time 2 | grep '"type":"batch"' >>"$OUT/ops.jsonl"
  done
done

: >"$OUT/stream.jsonl"
for n in 16 64 256 512; do run "$EX/stream" "$n" 2 >>"$OUT/stream.jsonl"; done

: >"$OUT/doorbell.jsonl"
run "$EX/doorbell" 20000 >>"$OUT/doorbell.jsonl"
PQSIG_CARD_SPIN_US=0 run "$EX/doorbell" 20000 >>"$OUT/doorbell.jsonl"
# Both sides asleep between rounds: the futex wake paths (card doorbell, host completion).
PQSIG_CARD_SPIN_US=0 run "$EX/doorbell" 500 8000 >>"$OUT/doorbell.jsonl"

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/env.txt"
kill -TERM $CARD; wait $CARD || true
trap - EXIT
cat "$OUT/card.log" >>"$OUT/env.txt"
echo "measure.sh: results in $OUT"
