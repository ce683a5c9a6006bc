#!/usr/bin/env bash
# The project's test command (README "Run the tests"; CI runs exactly this).
#
# `cargo test` covers the default members (library, CLI); the bench crate is left out
# because it builds peer libraries (liboqs via cmake) that the tests do not need.
#
# 1. The whole test suite with automatic backend selection. The vector suites (ACVP,
#    Wycheproof) loop over every backend available on this CPU themselves.
# 2. The whole workspace again with the portable backend forced through PQSIG_BACKEND:
#    selection by environment works and nothing depends on SIMD being present.
# 3. The no_std + alloc build of the library.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test (auto-selected backend: every available backend in the vector suites)"
cargo test

echo "== cargo test with PQSIG_BACKEND=portable (forced portable run)"
PQSIG_BACKEND=portable cargo test

echo "== no_std + alloc build of the library"
cargo build -p pqsig --no-default-features
echo "all test stages passed"
