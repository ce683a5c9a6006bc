#!/usr/bin/env bash
# The full form of the whole-operation constant-time check (issue 20 item 10): key
# generation and one signature of all 27 algorithms on every backend valgrind can run
# (portable, avx2), under memcheck with the seeds and signing randomness poisoned
# (crates/pqsig/examples/ct_whole.rs), in the native-float build and again with
# Falcon's integer-only binary64 (feature fpr-emulated); then the canary. Takes a few
# minutes on two cores. scripts/test-all.sh stage 5 runs the short form (one parameter
# set per family). Extra arguments go to ct_whole (e.g. --alg NAME, --backend NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null 2>&1 || { echo "ct-whole.sh: valgrind not installed" >&2; exit 2; }
TGT="${CARGO_TARGET_DIR:-target}"
cargo build --release -p pqsig --example ct_whole --features ct-check
valgrind --error-exitcode=1 "$TGT/release/examples/ct_whole" --full "$@"
valgrind -q --log-file=/dev/null "$TGT/release/examples/ct_whole" --canary
CARGO_TARGET_DIR="$TGT/ct-emulated" \
  cargo build --release -p pqsig --example ct_whole --features fpr-emulated,ct-check
valgrind --error-exitcode=1 "$TGT/ct-emulated/release/examples/ct_whole" --full "$@"
