#!/usr/bin/env bash
# Measures the offload path on this machine and writes JSON lines into OUTDIR:
#   kernel.jsonl   `pqsig bench` ntt / intt rows, both driver modes, batches 1..4096, for
#                  each accelerator of ACCELS (rtl: RTL_BATCHES, fewer iterations)
#   ops.jsonl      verify_batch / sign_batch rows with the NTTs on the card (both modes,
#                  both accelerators), whole jobs on the card (card-verify), and the CPU
#   cpu_ntt.jsonl  the CPU backends' NTT per polynomial (examples/cpu_ntt): the crossover
#   stream.jsonl   the card's sustained rate against the cycle model (examples/stream)
#   doorbell.jsonl no-op round trips (examples/doorbell), polling and futex paths
#   env.txt        machine (lscpu model), load average before and after, settings, and
#                  each card's counters when it stopped
# It starts and stops its own cards (125 MHz unless CLOCK_MHZ is set). Plots and tables:
#   python3 crates/pqsig-card/scripts/offload-plots.py OUTDIR docs/plots
#   python3 crates/pqsig-card/scripts/summary.py OUTDIR
#
#   cargo build -p pqsig-cli --features hw-sim && cargo build -p pqsig-card --examples
#   crates/pqsig-card/scripts/measure.sh /tmp/offload        # from the repository root
#
# ACCELS="timed" skips the rtl card (a CLI without hw-sim cannot start it; the script
# then records that and goes on). PRIO=-10 runs the card and the clients at that nice
# level (root only): on a machine shared with other work, a timed card is only as
# punctual as the scheduler lets it be.
set -euo pipefail
OUT=${1:?usage: measure.sh OUTDIR}
mkdir -p "$OUT"
TGT=${CARGO_TARGET_DIR:-target}
BIN=${PQSIG_BIN:-$TGT/debug/pqsig}
EX=${PQSIG_EXAMPLES:-$TGT/debug/examples}
BACKEND=${BACKEND:-avx2}
CLOCK_MHZ=${CLOCK_MHZ:-125}
PRIO=${PRIO:-0}
ITERS=${ITERS:-200}
ACCELS=${ACCELS:-timed rtl}
BATCHES=${BATCHES:-1 4 16 64 256 1024 4096}
RTL_BATCHES=${RTL_BATCHES:-1 4 16 64 256 1024 4096}
OP_BATCHES=${OP_BATCHES:-4 16 64 256}
run() { nice -n "$PRIO" "$@"; }

CARD=
start_card() { # accel
  SOCK="$OUT/card-$1.sock"
  rm -f "$SOCK"
  setsid nice -n "$PRIO" "$BIN" card --accel "$1" --clock-mhz "$CLOCK_MHZ" --socket "$SOCK" 2>"$OUT/card-$1.log" &
  CARD=$!
  for _ in $(seq 200); do [ -S "$SOCK" ] && break; kill -0 $CARD 2>/dev/null || break; sleep 0.05; done
  [ -S "$SOCK" ] || { CARD=; return 1; }
  export PQSIG_CARD="$SOCK"
}
stop_card() {
  [ -n "$CARD" ] || return 0
  kill -TERM "$CARD"; wait "$CARD" || true
  CARD=
}
trap 'stop_card' EXIT

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1) x $(nproc)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "backend: $BACKEND  clock_mhz: $CLOCK_MHZ  nice: $PRIO  iters: $ITERS  accels: $ACCELS"
} >"$OUT/env.txt"

: >"$OUT/kernel.jsonl"
: >"$OUT/ops.jsonl"
for accel in $ACCELS; do
  if ! start_card "$accel"; then
    echo "no $accel card: $(cat "$OUT/card-$accel.log")" >>"$OUT/env.txt"
    continue
  fi
  if [ "$accel" = rtl ]; then batches=$RTL_BATCHES; iters=5; t=1; else batches=$BATCHES; iters=$ITERS; t=1; fi
  for dev in card card-per-call; do
    for n in $batches; do
      run "$BIN" --device "$dev" --backend "$BACKEND" bench --alg ML-DSA-44 --batch "$n" \
        --op ntt --op intt --json --iters "$iters" --time "$t" | grep '"type":"batch"' >>"$OUT/kernel.jsonl"
    done
  done
  for dev in card card-per-call; do
    for alg in ML-DSA-44 ML-DSA-65; do
      for n in $OP_BATCHES; do
        run "$BIN" --device "$dev" --backend "$BACKEND" bench --alg "$alg" --batch "$n" \
          --op verify_batch --op sign_batch --json --iters 5 --time 1 | grep '"type":"batch"' >>"$OUT/ops.jsonl"
      done
    done
  done
  if [ "$accel" = timed ]; then
    for alg in ML-DSA-44 ML-DSA-65; do
      for n in $OP_BATCHES; do
        run "$BIN" --device card-verify --backend "$BACKEND" bench --alg "$alg" --batch "$n" \
          --op verify_batch --json --iters 5 --time 1 | grep '"type":"batch"' >>"$OUT/ops.jsonl"
      done
    done
    : >"$OUT/stream.jsonl"
    for n in 16 64 256 512; do run "$EX/stream" "$n" 2 >>"$OUT/stream.jsonl"; done
    : >"$OUT/doorbell.jsonl"
    run "$EX/doorbell" 20000 >>"$OUT/doorbell.jsonl"
    PQSIG_CARD_SPIN_US=0 run "$EX/doorbell" 20000 >>"$OUT/doorbell.jsonl"
    # Both sides asleep between rounds: the futex wake paths (card doorbell, host completion).
    PQSIG_CARD_SPIN_US=0 run "$EX/doorbell" 500 8000 >>"$OUT/doorbell.jsonl"
  fi
  echo "card $accel stats: $("$BIN" card --stats --socket "$SOCK")" >>"$OUT/env.txt"
  stop_card
  cat "$OUT/card-$accel.log" >>"$OUT/env.txt"
done
unset PQSIG_CARD

# The CPU, for the crossover: the same operations with no card, and the NTT alone.
for alg in ML-DSA-44 ML-DSA-65; do
  for n in $OP_BATCHES; do
    run "$BIN" --device cpu --backend "$BACKEND" bench --alg "$alg" --batch "$n" \
      --op verify_batch --op sign_batch --json --iters 5 --time 1 | grep '"type":"batch"' >>"$OUT/ops.jsonl"
  done
done
run "$EX/cpu_ntt" 4096 >"$OUT/cpu_ntt.jsonl"

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/env.txt"
echo "measure.sh: results in $OUT"
