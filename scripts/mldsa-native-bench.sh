#!/usr/bin/env bash
# Times mldsa-native, the fastest C ML-DSA (inside liboqs), the way pqsig-bench times its
# peers (issue 26): keygen, sign from secret-key bytes (deterministic) and verify from
# public-key bytes, 16 keys x 4 messages of 32 bytes, medians of wall time and TSC ticks.
# Writes pqsig-bench JSON rows with "impl":"mldsa-native" on stdout; append them to a
# bench run's JSON and scripts/bench-report.py shows them as the ML-DSA peer to beat.
#
#   scripts/mldsa-native-bench.sh PATH [ROUNDS]
#
# PATH     a liboqs checkout outside this repository (never vendored; e.g. liboqs at
#          8979276a, which carries mldsa-native with its x86_64 AVX2 backend). It is built
#          as a minimal ML-DSA-only static library in PATH/build-pqsig-bench (cmake, ninja
#          or make, a C compiler), with OQS_DIST_BUILD so the AVX2 code is picked at run
#          time, as in liboqs's own releases; on a CPU with AVX-512 a second build without
#          liboqs's AVX-512VL Keccak goes to PATH/build-pqsig-bench-avx2-sha3 (see below).
# ROUNDS   timed rounds over the 16 keys (default 40; one warm-up round first).
#
# Example, in one time window with the pqsig rows:
#   CARGO_TARGET_DIR=target-bench cargo run -p pqsig-bench --release -- --json \
#       --filter ML-DSA --no-kernels --no-batch > bench.jsonl
#   scripts/mldsa-native-bench.sh ../liboqs >> bench.jsonl
#   scripts/bench-report.py bench.jsonl
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,20p' "$0"; exit 2; }
SRC="$(cd "$1" && pwd)"
ROUNDS="${2:-40}"
HERE="$(cd "$(dirname "$0")" && pwd)"
case "$SRC/" in
  "$(cd "$HERE/.." && pwd)"/*) echo "mldsa-native-bench.sh: PATH must lie outside the repository" >&2; exit 2 ;;
esac
[ -f "$SRC/CMakeLists.txt" ] && [ -d "$SRC/src/sig/ml_dsa" ] \
  || { echo "mldsa-native-bench.sh: $SRC is not a liboqs checkout with ML-DSA" >&2; exit 2; }
# Two builds on a CPU with AVX-512: liboqs's default, which hashes with XKCP's AVX-512VL
# Keccak there (rows "avx2+avx512vl-sha3", the peer of pqsig's automatic backend), and one
# with OQS_USE_SHA3_AVX512VL=OFF, which runs what a CPU without AVX-512 runs (rows "avx2",
# the peer of pqsig's forced avx2 backend). Elsewhere only the default build.
build() { # DIR [EXTRA CMAKE ARGS]
  local b="$1"; shift
  cmake -S "$SRC" -B "$b" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DOQS_MINIMAL_BUILD="SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87" -DOQS_DIST_BUILD=ON \
    -DOQS_USE_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DOQS_BUILD_ONLY_LIB=ON "$@" >&2
  cmake --build "$b" -j"$(nproc)" >&2
  cc -O2 -I "$b/include" "$HERE/mldsa-native/bench.c" "$b/lib/liboqs.a" -lpthread -o "$b/pqsig-mldsa-native-bench"
}
GEN=(); command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
BUILDS=("$SRC/build-pqsig-bench")
build "${BUILDS[0]}"
if grep -qw avx512vl /proc/cpuinfo 2>/dev/null; then
  BUILDS+=("$SRC/build-pqsig-bench-avx2-sha3")
  build "${BUILDS[1]}" -DOQS_USE_SHA3_AVX512VL=OFF
fi
echo "mldsa-native-bench.sh: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), liboqs $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '(no git)')" >&2
for b in "${BUILDS[@]}"; do "$b/pqsig-mldsa-native-bench" "$ROUNDS"; done
