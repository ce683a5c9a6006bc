#!/usr/bin/env bash
# hw/falcon/report.sh — Artix-7 resources (Yosys synth_xilinx) and cycles (Verilator) of
# the Falcon binary64 units and FFT engine, one JSON line per unit:
#   {"unit","lut","ff","dsp","bram","lut_levels","cycles"}
# units: fpadd, fpmul (cycles = latency; both run at II = 1), fft512, fft1024 (the engine
# with one adder and one multiplier, as in the paper), fft512x2, fft1024x2 (UNITS = 2: two
# of each); for the engines cycles = one forward transform, "ifft_cycles" = one inverse
# transform (scaling included); samplerz (the SamplerZ device: its own fpadd and fpmul,
# int<->fp units, the exp polynomial's multiplier, the base sampler's table and the
# 4-window RAM), cycles = mean cycles per sample over Falcon-512-shaped requests, with
# "cycles_p50" and "cycles_p99".
#
#   hw/falcon/report.sh --json           all seven
#   hw/falcon/report.sh --json --short   fpadd, fpmul (CI)
#
# Cycles: crates/pqsig-hwsim example `falcon_cycles` (every figure from a run checked
# against the library). Resources: yosys -p "synth_xilinx -family xc7 -flatten", counted
# by hw/ntt/gen/netlist_stats.py (LUT = logic + LUTs as memory; BRAM in 36 Kb units;
# lut_levels = most LUTs on a register-to-register path, carry chains counted as 0). No
# Fmax is claimed: Yosys has no timing model of the part. Logs: target/hw-falcon-report/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
short=0; json=0
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --short) short=1 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$json" = 1 ] || { echo "usage: $0 --json [--short]" >&2; exit 2; }
for t in yosys verilator python3 cargo; do
  command -v "$t" >/dev/null || { echo "report.sh: $t not found" >&2; exit 1; }
done
cd "$root"
work="$root/target/hw-falcon-report"
mkdir -p "$work"
cargo build -q -j1 -p pqsig-hwsim --example falcon_cycles >&2
cycles="$("${CARGO_TARGET_DIR:-$root/target}/debug/examples/falcon_cycles")"
rtl="$here/rtl"
units_src="$rtl/falcon_fpadd.v $rtl/falcon_fpmul.v $rtl/falcon_round_pack.v"
if [ "$short" = 1 ]; then list="fpadd fpmul"; else list="fpadd fpmul samplerz fft512 fft1024 fft512x2 fft1024x2"; fi
engine_src="$units_src $rtl/falcon_delay.v $rtl/falcon_fft.v $rtl/falcon_fft_u1.v $rtl/falcon_fft_u2.v"
for u in $list; do
  case "$u" in
    fpadd) src="$units_src"; top=falcon_fpadd; param="" ;;
    fpmul) src="$units_src"; top=falcon_fpmul; param="" ;;
    samplerz)
      src="$units_src $rtl/falcon_i2f.v $rtl/falcon_fp_toint.v $rtl/falcon_mulhi64.v $rtl/falcon_rcdt.v $rtl/falcon_samplerz.v"
      top=falcon_samplerz; param="" ;;
    fft512|fft512x2|fft1024|fft1024x2)
      n="${u#fft}"; n="${n%x2}"; logn=$([ "$n" = 512 ] && echo 9 || echo 10)
      units=$([ "${u%x2}" != "$u" ] && echo 2 || echo 1)
      # both ROMs: Yosys also elaborates the cores at their default LOGN (the unused ROM
      # is dropped with the rest of the unused hierarchy)
      src="$engine_src $rtl/falcon_fft_tw_n512.v $rtl/falcon_fft_tw_n1024.v"; top=falcon_fft
      param="chparam -set LOGN $logn -set UNITS $units falcon_fft;" ;;
  esac
  yosys -q -l "$work/$u.log" -p "read_verilog $src; $param \
      synth_xilinx -family xc7 -top $top -flatten; write_json $work/$u.json" >/dev/null 2>>"$work/$u.log"
  res="$(python3 "$root/hw/ntt/gen/netlist_stats.py" "$work/$u.json")"
  python3 - "$u" "$cycles" "$res" <<'PY'
import json, sys
u = sys.argv[1]; c = json.loads(sys.argv[2]); r = json.loads(sys.argv[3])
out = {"unit": u}
out.update({k: r[k] for k in ("lut", "ff", "dsp", "bram", "lut_levels")})
out["cycles"] = c[u]
if u.startswith("fft"):
    out["ifft_cycles"] = c["i" + u]
if u == "samplerz":
    out["cycles_p50"] = c["samplerz_p50"]
    out["cycles_p99"] = c["samplerz_p99"]
print(json.dumps(out, separators=(",", ":")))
PY
done
