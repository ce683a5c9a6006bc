#!/usr/bin/env bash
# Single-call regression check by instruction count: two builds of the CLI run the same
# deterministic work (`pqsig kat --count 2`: keygen, signing and verification from the
# NIST DRBG) under callgrind, per backend valgrind can run (portable, avx2: valgrind has
# no AVX-512) and algorithm; prints each count and the ratio new/base. Instruction counts
# repeat exactly whatever else the machine is doing, so this is the check to run on a
# shared machine; timings (pqsig bench / pqsig-bench, same run) complement it.
#
#   scripts/single-call-ir.sh BASE_PQSIG NEW_PQSIG [ALG...]
set -euo pipefail
BASE=${1:?usage: single-call-ir.sh BASE_PQSIG NEW_PQSIG [ALG...]}
NEW=${2:?usage: single-call-ir.sh BASE_PQSIG NEW_PQSIG [ALG...]}
shift 2
ALGS=("$@")
[ ${#ALGS[@]} -gt 0 ] || ALGS=(ML-DSA-44 ML-DSA-65 ML-DSA-87 Falcon-512 FN-DSA-512 SNOVA_I_S)
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "backend algorithm base_Ir new_Ir new/base"
for be in portable avx2; do
  for alg in "${ALGS[@]}"; do
    b=$(ir "$BASE" --backend "$be" kat --alg "$alg" --count 2)
    n=$(ir "$NEW" --backend "$be" kat --alg "$alg" --count 2)
    echo "$be $alg $b $n $(python3 -c "print(f'{$n/$b:.4f}')")"
  done
done
