#!/usr/bin/env bash
# hw/ntt/report.sh — cycles (Verilator) and Artix-7 resources (Yosys synth_xilinx) of
# the NTT accelerator, one JSON line per configuration:
#   {"modulus","n","bfu","bfus","ntt_cycles","intt_cycles","batch64_cycles_per_poly",
#    "lut","ff","dsp","bram","lut_levels"}
#
#   hw/ntt/report.sh --json            every configuration (9: 3 (q, n) x BFUS 1, 2, 4)
#   hw/ntt/report.sh --json --short    one configuration per modulus (CI)
#   hw/ntt/report.sh --json --only 8380417:256:4
#   hw/ntt/report.sh --json --units    the Winograd radix-8 unit vs 3 radix-2 layers
#
# Cycles: crates/pqsig-hwsim example `cycles` (checked against the library kernels).
# Resources: yosys -p "synth_xilinx -family xc7 -flatten" on ntt_accel; counted by
# hw/ntt/gen/netlist_stats.py (LUT = logic + LUTs as memory; BRAM in 36 Kb units;
# lut_levels = most LUTs on a register-to-register path). No Fmax is claimed: Yosys has
# no timing model of the part. Synthesis logs go to target/hw-ntt-report/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
short=0; only=""; json=0; units=0
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --short) short=1 ;;
    --only) only="$2"; shift ;;
    --units) units=1 ;;
    -h|--help) sed -n 2,15p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$json" = 1 ] || { echo "usage: $0 --json [--short | --only q:n:bfus]" >&2; exit 2; }
for t in yosys verilator python3; do
  command -v "$t" >/dev/null || { echo "report.sh: $t not found" >&2; exit 1; }
done
if [ "$units" = 1 ]; then
  # The 8-point units at equal throughput (8 points through 3 layers per cycle):
  # ntt_wino8 (Winograd radix-8, 11 multipliers) against ntt_r2x8 (12 radix-2 BFUs).
  work="$root/target/hw-ntt-report"; mkdir -p "$work"
  for q in 8380417 12289; do
    rb=$([ "$q" = 8380417 ] && echo 23 || echo 14)
    for u in ntt_wino8:winograd8:11 ntt_r2x8:radix2x3:12; do
      IFS=: read -r top name mults <<<"$u"
      tag="unit_${top}_q$q"
      yosys -q -l "$work/$tag.log" -p "read_verilog $here/rtl/$top.v $here/rtl/ntt_bfu.v $here/rtl/ntt_modmul.v; \
          chparam -set Q $q -set RB $rb $top; synth_xilinx -family xc7 -top $top -flatten; \
          write_json $work/$tag.json" >/dev/null 2>>"$work/$tag.log"
      res="$(python3 "$here/gen/netlist_stats.py" "$work/$tag.json")"
      python3 - "$q" "$name" "$mults" "$res" <<'PY'
import json, sys
r = json.loads(sys.argv[4])
print(json.dumps({"unit": sys.argv[2], "modulus": int(sys.argv[1]), "points_per_cycle": 8,
                  "layers": 3, "modmuls": int(sys.argv[3]),
                  **{k: r[k] for k in ("lut", "ff", "dsp", "lut_levels")}},
                 separators=(",", ":")))
PY
    done
  done
  exit 0
fi
if [ -n "$only" ]; then
  configs="$only"
elif [ "$short" = 1 ]; then
  configs="8380417:256:4 12289:512:4 12289:1024:4"
else
  configs="8380417:256:1 8380417:256:2 8380417:256:4 12289:512:1 12289:512:2 12289:512:4 12289:1024:1 12289:1024:2 12289:1024:4"
fi
work="$root/target/hw-ntt-report"
mkdir -p "$work"
cd "$root"
accel_src="$(for f in ntt_accel ntt_bank ntt_bfu ntt_core ntt_modmul ntt_tw_q12289_n1024 \
  ntt_tw_q12289_n512 ntt_tw_q8380417_n256; do printf '%s ' "$here/rtl/$f.v"; done)"
cargo build -q -j1 -p pqsig-hwsim --example cycles >&2
cyc_bin="$root/target/debug/examples/cycles"
for c in $configs; do
  IFS=: read -r q n b <<<"$c"
  cycles="$("$cyc_bin" "$q:$n:$b")"
  tag="q${q}_n${n}_b${b}"
  # the accelerator's files only (ABC's result depends slightly on what else is read)
  yosys -q -l "$work/$tag.log" -p "read_verilog -DSYNTHESIS $accel_src; \
      chparam -set Q $q -set N $n -set BFUS $b -set KIND 0 ntt_accel; \
      synth_xilinx -family xc7 -top ntt_accel -flatten; write_json $work/$tag.json" >/dev/null 2>>"$work/$tag.log"
  res="$(python3 "$here/gen/netlist_stats.py" "$work/$tag.json")"
  python3 - "$cycles" "$res" <<'PY'
import json, sys
c = json.loads(sys.argv[1]); r = json.loads(sys.argv[2])
out = {k: c[k] for k in ("modulus", "n", "bfu", "bfus", "ntt_cycles", "intt_cycles",
                         "batch64_cycles_per_poly")}
out.update({k: r[k] for k in ("lut", "ff", "dsp", "bram", "lut_levels")})
print(json.dumps(out, separators=(",", ":")))
PY
done
