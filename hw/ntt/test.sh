#!/usr/bin/env bash
# hw/ntt/test.sh — the NTT accelerator's tests: the Winograd core's schedule check
# (hw/ntt/gen/wino_check.py), the Verilator co-simulation against the library kernels
# (cargo test -p pqsig-hwsim: 9 radix-2 + 3 Winograd radix-8 configurations) and the
# Icarus Verilog self-checking bench (one configuration per modulus and unit kind).
#
#   hw/ntt/test.sh          short form (CI): every config, batch sizes 0,1,2,3,9 + 64 per
#                           (q, n) and kind
#   hw/ntt/test.sh --full   every batch size 0..64 for every config and mode, every
#                           stall/offset case, the Icarus bench at BFUS 1, 2 and 4 and
#                           both Winograd (q, n)
#
# Prints SKIPPED (and exits 0) for a part whose simulator is not installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
full=0
[ "${1:-}" = "--full" ] && full=1
cd "$root"
status=0

if command -v python3 >/dev/null; then
  echo "== hw/ntt: Winograd core schedule (banks, read-after-write distance, arithmetic model)"
  python3 "$here/gen/wino_check.py" | sed 's/^/   /' || status=1
else
  echo "== hw/ntt: Winograd schedule check SKIPPED (python3 not installed)"
fi

# The NTT tests of pqsig-hwsim only (and its unit tests); the Falcon units' tests run in
# hw/falcon/test.sh.
ntt_tests="--lib --test rtl_vs_kernels --test acvp_rtl_ntt --test device_seam"
if command -v verilator >/dev/null; then
  echo "== hw/ntt: Verilator co-simulation (cargo test -p pqsig-hwsim$([ $full = 1 ] && echo ', full'))"
  start=$(date +%s)
  if [ $full = 1 ]; then
    PQSIG_HWSIM_FULL=1 cargo test -j1 -p pqsig-hwsim $ntt_tests || status=1
  else
    cargo test -j1 -p pqsig-hwsim $ntt_tests || status=1
  fi
  echo "   ($(( $(date +%s) - start )) s)"
else
  echo "== hw/ntt: Verilator co-simulation SKIPPED (verilator not installed)"
fi

if command -v iverilog >/dev/null && command -v vvp >/dev/null; then
  echo "== hw/ntt: Icarus Verilog bench"
  if [ $full = 1 ]; then
    configs="8380417:256:1 8380417:256:2 8380417:256:4 12289:1024:1 12289:1024:2 12289:1024:4 8380417:256:1:w8 12289:1024:1:w8"
  else
    configs="8380417:256:2 12289:1024:4 8380417:256:1:w8 12289:1024:1:w8"
  fi
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  for c in $configs; do
    IFS=: read -r q n b w <<<"$c"
    kind=0; [ "${w:-}" = w8 ] && kind=1
    iverilog -g2005 -P tb_ntt.Q="$q" -P tb_ntt.N="$n" -P tb_ntt.BFUS="$b" -P tb_ntt.KIND="$kind" \
      -DVEC_DIR=\""$here/tb/vectors"\" -o "$tmp/tb_${q}_${n}_${b}_$kind" "$here/tb/tb_ntt.v" "$here"/rtl/*.v
    out="$(vvp -n "$tmp/tb_${q}_${n}_${b}_$kind")"
    echo "$out" | sed 's/^/   /'
    echo "$out" | grep -qx PASS || { echo "   FAILED: q=$q n=$n bfus=$b kind=$kind"; status=1; }
  done
  for q in 8380417 12289; do
    iverilog -g2005 -P tb_units.Q="$q" -DVEC_DIR=\""$here/tb/vectors"\" -o "$tmp/tbu_$q" \
      "$here/tb/tb_units.v" "$here/rtl/ntt_wino8.v" "$here/rtl/ntt_cyc8.v" "$here/rtl/ntt_r2x8.v" \
      "$here/rtl/ntt_bfu.v" "$here/rtl/ntt_modmul.v"
    out="$(vvp -n "$tmp/tbu_$q")"
    echo "$out" | sed 's/^/   /'
    echo "$out" | grep -q '^PASS' || { echo "   FAILED: units q=$q"; status=1; }
    for inv in 0 1; do
      iverilog -g2005 -P tb_w8bfu.Q="$q" -P tb_w8bfu.INV="$inv" -DVEC_DIR=\""$here/tb/vectors"\" \
        -o "$tmp/tbw_${q}_$inv" "$here/tb/tb_w8bfu.v" "$here/rtl/ntt_w8bfu.v" \
        "$here/rtl/ntt_cyc8.v" "$here/rtl/ntt_modmul.v"
      out="$(vvp -n "$tmp/tbw_${q}_$inv")"
      echo "$out" | sed 's/^/   /'
      echo "$out" | grep -q '^PASS' || { echo "   FAILED: w8bfu q=$q inv=$inv"; status=1; }
    done
  done
else
  echo "== hw/ntt: Icarus Verilog bench SKIPPED (iverilog not installed)"
fi
exit $status
