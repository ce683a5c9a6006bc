#!/usr/bin/env bash
# hw/ntt/report.sh — cycles (Verilator) and Artix-7 resources (Yosys synth_xilinx) of
# the NTT accelerator, one JSON line per configuration:
#   {"modulus","n","bfu","bfus","ntt_cycles","intt_cycles","batch64_cycles_per_poly",
#    "lut","ff","dsp","bram","lut_levels"}
#
#   hw/ntt/report.sh --json            every configuration: 9 radix-2 (3 (q, n) x BFUS 1, 2,
#                                      4) and 3 Winograd radix-8 (one radix-8 unit per (q, n))
#   hw/ntt/report.sh --json --short    one configuration per modulus: radix-2 (8380417, 256, 4 BFUs), Winograd (12289, 512) (CI)
#   hw/ntt/report.sh --json --only 8380417:256:4   (or 8380417:256:1:w8 for the Winograd core)
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
    -h|--help) sed -n 2,17p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$json" = 1 ] || { echo "usage: $0 --json [--short | --only q:n:bfus[:w8] | --units]" >&2; exit 2; }
for t in yosys verilator python3; do
  command -v "$t" >/dev/null || { echo "report.sh: $t not found" >&2; exit 1; }
done
if [ "$units" = 1 ]; then
  # The 8-point units at equal throughput (8 points through 3 layers per cycle):
  # ntt_wino8 (Winograd radix-8, forward, 11 multipliers) against ntt_r2x8 (12 radix-2
  # BFUs), and the Winograd core's two-direction unit ntt_w8bfu (11 multipliers).
  work="$root/target/hw-ntt-report"; mkdir -p "$work"
  for q in 8380417 12289; do
    rb=$([ "$q" = 8380417 ] && echo 23 || echo 14)
    sc=$([ "$q" = 8380417 ] && echo 3 || echo -1)
    for u in ntt_wino8:winograd8:11 ntt_r2x8:radix2x3:12 ntt_w8bfu:winograd8_bidir:11; do
      IFS=: read -r top name mults <<<"$u"
      tag="unit_${top}_q$q"
      extra=""; [ "$top" = ntt_w8bfu ] && extra="-set SCALE $sc"
      yosys -q -l "$work/$tag.log" -p "read_verilog $here/rtl/$top.v $here/rtl/ntt_cyc8.v $here/rtl/ntt_bfu.v $here/rtl/ntt_modmul.v; \
          chparam -set Q $q -set RB $rb $extra $top; synth_xilinx -family xc7 -top $top -flatten; \
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
  configs="8380417:256:4 12289:512:1:w8"
else
  configs="8380417:256:1 8380417:256:2 8380417:256:4 12289:512:1 12289:512:2 12289:512:4 12289:1024:1 12289:1024:2 12289:1024:4 8380417:256:1:w8 12289:512:1:w8 12289:1024:1:w8"
fi
work="$root/target/hw-ntt-report"
mkdir -p "$work"
cd "$root"
r2_src="ntt_accel ntt_bank ntt_bfu ntt_core ntt_modmul ntt_tw_q12289_n1024 ntt_tw_q12289_n512 ntt_tw_q8380417_n256"
w8_src="ntt_accel ntt_bank ntt_core_w8 ntt_w8bfu ntt_cyc8 ntt_modmul ntt_w8rom_q12289_n1024 ntt_w8rom_q12289_n512 ntt_w8rom_q8380417_n256"
cargo build -q -j1 -p pqsig-hwsim --example cycles >&2
cyc_bin="${CARGO_TARGET_DIR:-$root/target}/debug/examples/cycles"
for c in $configs; do
  IFS=: read -r q n b w <<<"$c"
  if [ "${w:-}" = w8 ]; then kind=1; files="$w8_src"; tag="q${q}_n${n}_b${b}_w8"
  else kind=0; files="$r2_src"; tag="q${q}_n${n}_b${b}"; fi
  # each core's own files only (ABC's result depends slightly on what else is read;
  # a missing module of the other core is never elaborated)
  accel_src="$(for f in $files; do printf '%s ' "$here/rtl/$f.v"; done)"
  cycles="$("$cyc_bin" "$c")"
  [ -n "$cycles" ] || { echo "report.sh: no cycles for $c (model not built? PQSIG_HWSIM_CONFIGS)" >&2; exit 1; }
  yosys -q -l "$work/$tag.log" -p "read_verilog -DSYNTHESIS $accel_src; \
      chparam -set Q $q -set N $n -set BFUS $b -set KIND $kind ntt_accel; \
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
