#!/usr/bin/env bash
# hw/falcon/test.sh — tests of the Falcon binary64 units, FFT engine and SamplerZ device
# (hw/falcon): the Verilator co-simulation against the library (crates/pqsig-hwsim tests
# fpu_vs_emulation, fft_vs_kernels, samplerz_vs_cpu) and the Icarus Verilog benches
# (directed subset).
#
#   hw/falcon/test.sh          short form (CI): 10^6 random operand pairs per operation
#                              (add, sub, mul) + directed pairs + 2.5*10^5 arbitrary bit
#                              patterns, FFT/iFFT n = 512, 1024 against the kernels; Icarus:
#                              directed unit cases and one n = 512 fft + ifft on each engine (UNITS 1, 2);
#                              SamplerZ: 5,000 random requests + out-of-domain + directed cases
#                              against serve_on_cpu, 3 Falcon-512 KAT signatures through the RTL;
#                              Icarus: 48 directed SamplerZ batches
#   hw/falcon/test.sh --full   the same with 4*10^6 random pairs per operation, 10^5 SamplerZ
#                              requests, 100 Falcon-512 + 10 Falcon-1024 KAT signatures
#
# Prints SKIPPED (and exits 0) for a part whose simulator is not installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
full=0
[ "${1:-}" = "--full" ] && full=1
cd "$root"
status=0

if command -v verilator >/dev/null; then
  echo "== hw/falcon: Verilator co-simulation against fpr::emulated, the FFT kernels and samplerz::device::serve_on_cpu$([ $full = 1 ] && echo ' (full)')"
  start=$(date +%s)
  if [ $full = 1 ]; then export PQSIG_HWSIM_FULL=1; fi
  cargo test -j1 -p pqsig-hwsim --test fpu_vs_emulation --test fft_vs_kernels \
    --test samplerz_vs_cpu -- --nocapture || status=1
  echo "   ($(( $(date +%s) - start )) s)"
else
  echo "== hw/falcon: Verilator co-simulation SKIPPED (verilator not installed)"
fi

if command -v iverilog >/dev/null && command -v vvp >/dev/null; then
  echo "== hw/falcon: Icarus Verilog benches"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  rtl="$here/rtl"
  units="$rtl/falcon_fpadd.v $rtl/falcon_fpmul.v $rtl/falcon_round_pack.v"
  iverilog -g2005 -DVEC_DIR=\""$here/tb/vectors"\" -o "$tmp/tb_fpu" "$here/tb/tb_fpu.v" $units
  out="$(vvp -n "$tmp/tb_fpu")"
  echo "$out" | sed 's/^/   /'
  echo "$out" | grep -qx PASS || { echo "   FAILED: tb_fpu"; status=1; }
  for u in 1 2; do
    iverilog -g2005 -P tb_fft.UNITS=$u -DVEC_DIR=\""$here/tb/vectors"\" -o "$tmp/tb_fft$u" \
      "$here/tb/tb_fft.v" $units "$rtl/falcon_delay.v" "$rtl/falcon_fft.v" \
      "$rtl/falcon_fft_u1.v" "$rtl/falcon_fft_u2.v" "$rtl/falcon_fft_tw_n512.v"
    out="$(vvp -n "$tmp/tb_fft$u")"
    echo "$out" | sed 's/^/   /'
    echo "$out" | grep -qx PASS || { echo "   FAILED: tb_fft UNITS=$u"; status=1; }
  done
  iverilog -g2005 -DVEC_DIR=\""$here/tb/vectors"\" -o "$tmp/tb_samplerz" "$here/tb/tb_samplerz.v" \
    $units "$rtl/falcon_i2f.v" "$rtl/falcon_fp_toint.v" "$rtl/falcon_mulhi64.v" \
    "$rtl/falcon_rcdt.v" "$rtl/falcon_samplerz.v"
  out="$(vvp -n "$tmp/tb_samplerz")"
  echo "$out" | sed 's/^/   /'
  echo "$out" | grep -qx PASS || { echo "   FAILED: tb_samplerz"; status=1; }
else
  echo "== hw/falcon: Icarus Verilog benches SKIPPED (iverilog not installed)"
fi
exit $status
