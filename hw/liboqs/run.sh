#!/usr/bin/env bash
# hw/liboqs/run.sh — liboqs with its ML-DSA NTTs on the card (issue 17, deliverable 3):
# the design's integration, liboqs's API unchanged.
#
#   hw/liboqs/run.sh OUTDIR           full form: ML-DSA-44, -65, -87
#   hw/liboqs/run.sh --short OUTDIR   short form (the test command): ML-DSA-44 only, and
#                                     test_sig with 5 + 5 bit flips instead of 50 + 50
#
# 1. The liboqs tree shipped in the oqs-sys crate (fetch-source.sh) is copied to
#    OUTDIR/build/liboqs and liboqs-pqsig.patch applied to the copy: the reference
#    ML-DSA code's polynomial-vector NTTs become one pqsig_mldsa_ntt_batch request of l
#    or k polynomials (README.md).
# 2. libpqsig_ffi.a and the pqsig CLI are built (cargo, profile $PQSIG_PROFILE: dev by
#    default, which is optimised; or taken from $PQSIG_FFI_LIB and $PQSIG_CLI); liboqs is built with only ML-DSA, without OpenSSL,
#    for the generic target (so the patched ref code runs, not the AVX2 code).
# 3. The script starts its own card (`pqsig card --accel timed`), and runs liboqs's
#    test_sig and `kat_sig ALG --all` for each set with PQSIG_CARD and PQSIG_DEVICE=card:
#    OUTDIR/kat_ALG.rsp is kat_sig's output byte for byte, and its sha256 must be the
#    one liboqs records in tests/KATs/sig/kats.json. The card must have served requests,
#    and no offload may have fallen back to the reference code.
# 4. Full form only: liboqs's speed_sig on the card, on pqsig's CPU kernels (the patched
#    build without a device) and unpatched (OUTDIR/speed_*.txt, summary in
#    OUTDIR/summary.txt).
# Exits non-zero when anything fails. Needs cmake and a C compiler (ninja if present).
set -euo pipefail

short=0
if [ "${1:-}" = "--short" ]; then short=1; shift; fi
if [ $# -ne 1 ]; then
  echo "usage: $0 [--short] OUTDIR" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
jobs="${PQSIG_LIBOQS_JOBS:-2}"
profile="${PQSIG_PROFILE:-dev}"
if [ $short = 1 ]; then algs="ML-DSA-44"; flips="5 5"; else algs="ML-DSA-44 ML-DSA-65 ML-DSA-87"; flips=""; fi

for tool in cmake cc cargo python3 patch nm tar sha256sum; do
  command -v $tool >/dev/null || { echo "run.sh: $tool not found" >&2; exit 2; }
done

echo "== liboqs on the card: source"
src="$("$here/fetch-source.sh")"
echo "   $src"

if [ -n "${PQSIG_FFI_LIB:-}" ] && [ -n "${PQSIG_CLI:-}" ]; then
  # Built already (the test command passes what its `cargo test` stage built).
  ffi_lib="$(cd "$(dirname "$PQSIG_FFI_LIB")" && pwd)/$(basename "$PQSIG_FFI_LIB")"
  pqsig="$(cd "$(dirname "$PQSIG_CLI")" && pwd)/$(basename "$PQSIG_CLI")"
  echo "== pqsig: $ffi_lib and $pqsig (PQSIG_FFI_LIB, PQSIG_CLI)"
else
  echo "== pqsig: libpqsig_ffi.a and the CLI (cargo, profile $profile)"
  (cd "$root" && cargo build --profile "$profile" -p pqsig-ffi -p pqsig-cli)
  tgt="${CARGO_TARGET_DIR:-$root/target}"
  case "$tgt" in /*) ;; *) tgt="$root/$tgt" ;; esac
  pdir="$tgt/$([ "$profile" = dev ] && echo debug || echo "$profile")"
  ffi_lib="$pdir/libpqsig_ffi.a"
  pqsig="$pdir/pqsig"
fi
[ -f "$ffi_lib" ] && [ -x "$pqsig" ] || { echo "run.sh: $ffi_lib or $pqsig missing" >&2; exit 1; }

gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
oqs_opts=(-DCMAKE_BUILD_TYPE=Release -DOQS_USE_OPENSSL=OFF -DOQS_DIST_BUILD=OFF
          -DOQS_OPT_TARGET=generic -DOQS_BUILD_ONLY_LIB=OFF
          "-DOQS_MINIMAL_BUILD=SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87")
targets=(test_sig kat_sig)
[ $short = 0 ] && targets+=(speed_sig)

# A copy of the tree at $2 with the patch applied (once; the build directory and its
# objects are kept between runs, so a second run only relinks).
prepare() {
  local dst="$1" patch="$2" stamp
  stamp="$src $(sha256sum "$here/liboqs-pqsig.patch" | cut -d' ' -f1) $patch"
  if [ ! -f "$dst/.pqsig-stamp" ] || [ "$(cat "$dst/.pqsig-stamp")" != "$stamp" ]; then
    rm -rf "$dst" && mkdir -p "$dst"
    # Everything but the test vectors of other algorithms (the KAT hashes are kept).
    (cd "$src" && tar --exclude=./tests/ACVP_Vectors -cf - .) | (cd "$dst" && tar -xf -)
    chmod -R u+w "$dst"
    if [ "$patch" = patched ]; then
      patch -s -p1 -d "$dst" < "$here/liboqs-pqsig.patch"
    fi
    echo "$stamp" > "$dst/.pqsig-stamp"
  fi
}

build() {
  local tree="$1" bdir="$2"; shift 2
  cmake -S "$tree" -B "$bdir" "${gen[@]}" "${oqs_opts[@]}" "$@" > "$bdir.cmake.log" 2>&1 \
    || { cat "$bdir.cmake.log" >&2; return 1; }
  cmake --build "$bdir" -j "$jobs" --target "${targets[@]}" > "$bdir.build.log" 2>&1 \
    || { tail -40 "$bdir.build.log" >&2; return 1; }
}

echo "== liboqs: patched copy, build ($(echo ${targets[*]}))"
mkdir -p "$out/build"
prepare "$out/build/liboqs" patched
start=$(date +%s)
build "$out/build/liboqs" "$out/build/oqs-pqsig" \
  -DPQSIG_FFI_INCLUDE_DIR="$root/crates/pqsig-ffi/include" -DPQSIG_FFI_LIBRARY="$ffi_lib"
echo "   built in $(( $(date +%s) - start )) s"
bin="$out/build/oqs-pqsig/tests"
# The patched objects really call pqsig (and the AVX2 code, which is not patched, is out).
calls="$(nm "$out/build/oqs-pqsig/lib/liboqs.a" | grep -c ' U pqsig_mldsa_ntt_batch' || true)"
[ "$calls" -gt 0 ] \
  || { echo "run.sh: liboqs.a does not call pqsig_mldsa_ntt_batch" >&2; exit 1; }
if grep -q '^#define OQS_ENABLE_SIG_ml_dsa_44_avx2' "$out/build/oqs-pqsig/include/oqs/oqsconfig.h"; then
  echo "run.sh: the AVX2 ML-DSA code is enabled: the patched ref code would not run" >&2; exit 1
fi

# The card: started here, stopped by the trap (SIGTERM), its counters read from its log.
sock="$out/build/card.sock"
card_log=""
card_pid=""
stop_card() {
  if [ -n "$card_pid" ]; then
    kill -TERM "$card_pid" 2>/dev/null || true
    wait "$card_pid" 2>/dev/null || true
    card_pid=""
  fi
}
trap stop_card EXIT
start_card() {
  card_log="$1"
  "$pqsig" card --accel timed --socket "$sock" 2> "$card_log" &
  card_pid=$!
  for _ in $(seq 100); do
    [ -S "$sock" ] && grep -q 'accelerator at' "$card_log" && return 0
    kill -0 "$card_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$card_log" >&2
  echo "run.sh: the card did not start" >&2
  return 1
}

echo "== card: $pqsig card --accel timed --socket $sock"
start_card "$out/card.log"
sed 's/^/   /' "$card_log"

kats="$src/tests/KATs/sig/kats.json"
fail=0
offload_failed() { grep -q 'pqsig offload failed' "$1"; }
for alg in $algs; do
  log="$out/test_sig_$alg.log"
  # test_sig signs and verifies under 256 contexts, each with 50 + 50 bit-flipped
  # verifications by default (about 110 000 card requests for ML-DSA-44); the short
  # form flips 5 + 5.
  if PQSIG_CARD="$sock" PQSIG_DEVICE=card "$bin/test_sig" "$alg" $flips > "$log" 2>&1 \
     && ! offload_failed "$log"; then
    echo "   test_sig $alg${flips:+ (bit flips $flips)}: passed"
  else
    echo "   test_sig $alg: FAILED ($log)"; tail -5 "$log" | sed 's/^/     /'; fail=1
  fi
  rsp="$out/kat_$alg.rsp"
  err="$out/kat_sig_$alg.log"
  t0=$(date +%s.%N)
  if PQSIG_CARD="$sock" PQSIG_DEVICE=card "$bin/kat_sig" "$alg" --all > "$rsp" 2> "$err" \
     && ! offload_failed "$err"; then
    t1=$(date +%s.%N)
    got="$(sha256sum "$rsp" | cut -d' ' -f1)"
    want="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["all"])' "$kats" "$alg")"
    if [ "$got" = "$want" ]; then
      echo "   kat_sig $alg --all: ${got:0:16}… matches kats.json ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
    else
      echo "   kat_sig $alg --all: sha256 $got, kats.json says $want: FAILED"; fail=1
    fi
  else
    echo "   kat_sig $alg: FAILED ($err)"; tail -5 "$err" | sed 's/^/     /'; fail=1
  fi
done
stop_card
# The card's counters from its last line: "stopped; C clients, R requests, P polynomials,
# E errors, ...".
counter() { sed -n "s/.*stopped;.* \([0-9][0-9]*\) $2.*/\1/p" "$1"; }
line="$(grep 'stopped;' "$card_log" || true)"
echo "   ${line:-card log has no counters}"
requests="$(counter "$card_log" requests)"
errors="$(counter "$card_log" errors)"
if [ -z "$requests" ] || [ "$requests" -eq 0 ]; then
  echo "run.sh: the card served no requests: the NTTs did not reach it" >&2; fail=1
fi
if [ -n "$errors" ] && [ "$errors" -ne 0 ]; then
  echo "run.sh: the card reported $errors errors" >&2; fail=1
fi

if [ $short = 0 ] && [ $fail = 0 ]; then
  echo "== speed_sig (liboqs's own timer, ${PQSIG_SPEED_SECONDS:-3} s per operation)"
  prepare "$out/build/liboqs-plain" plain
  build "$out/build/liboqs-plain" "$out/build/oqs-plain"
  secs="${PQSIG_SPEED_SECONDS:-3}"
  start_card "$out/card-speed.log"
  for alg in $algs; do
    PQSIG_CARD="$sock" PQSIG_DEVICE=card "$bin/speed_sig" -d "$secs" "$alg" > "$out/speed_card_$alg.txt" 2>&1
    PQSIG_DEVICE=cpu "$bin/speed_sig" -d "$secs" "$alg" > "$out/speed_pqsig-cpu_$alg.txt" 2>&1
    "$out/build/oqs-plain/tests/speed_sig" -d "$secs" "$alg" > "$out/speed_ref_$alg.txt" 2>&1
  done
  stop_card
  python3 "$here/speed_summary.py" "$out" $algs | tee "$out/summary.txt"

  # Requests and polynomials per operation: hw/liboqs/ops.c through the unchanged API,
  # a fresh card per run, differences of the card's counters.
  n="${PQSIG_OPS_COUNT:-50}"
  echo "== card requests per operation (ops.c, $n operations, card counters)"
  cc -O2 -I "$out/build/oqs-pqsig/include" "$here/ops.c" -o "$out/build/ops" \
     "$out/build/oqs-pqsig/lib/liboqs.a" "$ffi_lib" -lgcc_s -lutil -lrt -lpthread -lm -ldl
  echo "| set | per keygen: requests / polys | per sign (mean of $n) | per verify |" | tee -a "$out/summary.txt"
  echo "|---|---|---|---|" | tee -a "$out/summary.txt"
  for alg in $algs; do
    declare -A req=() pol=()
    for run in "0 0" "$n 0" "1 0" "1 $n"; do
      start_card "$out/card-ops.log"
      PQSIG_CARD="$sock" PQSIG_DEVICE=card "$out/build/ops" "$alg" $run
      stop_card
      req[$run]="$(counter "$out/card-ops.log" requests)"
      pol[$run]="$(counter "$out/card-ops.log" polynomials)"
    done
    awk -v alg="$alg" -v n="$n" \
        -v k0="${req[0 0]}" -v kp0="${pol[0 0]}" -v s="${req[$n 0]}" -v sp="${pol[$n 0]}" \
        -v o="${req[1 0]}" -v op="${pol[1 0]}" -v v="${req[1 $n]}" -v vp="${pol[1 $n]}" \
      'BEGIN { printf "| %s | %d / %d | %.2f / %.2f | %.2f / %.2f |\n", alg, k0, kp0,
               (s - k0) / n, (sp - kp0) / n, (v - o) / n, (vp - op) / n }' \
      | tee -a "$out/summary.txt"
  done
fi

[ $fail = 0 ] && echo "== liboqs on the card: all passed" || echo "== liboqs on the card: FAILED"
exit $fail
