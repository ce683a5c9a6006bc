#!/usr/bin/env bash
# Miri over a bounded subset of the library's unit tests, portable backend forced
# (docs/ARCHITECTURE.md "Unsafe code"). Needs the nightly toolchain with miri
# (`rustup component add miri --toolchain nightly`). Miri interprets: a full `--lib` run
# would take hours, so the subset is the modules whose code has `unsafe` that runs on the
# portable backend or raw-pointer/byte handling next to it:
#   batch::workers   type-erased job trampolines and raw pointers between worker threads
#   wipe             the volatile zeroing every secret buffer goes through
#   falcon::codec    the bit readers/writers of keys and signatures (slice arithmetic)
#   keyfile          DER / PEM parsing of outside bytes
# Override with MIRI_FILTERS="a b c"; MIRI_TIMEOUT bounds the whole run (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
FILTERS=(${MIRI_FILTERS:-batch::workers wipe falcon::codec keyfile})
export PQSIG_BACKEND=portable
# Isolation off: the std feature reads the environment (PQSIG_BACKEND); no test here
# depends on the clock or the filesystem. Leaks ignored: the batch engine's helper
# threads belong to a process-wide pool that lives until exit by design (batch::workers),
# which Miri reports as threads (and their allocations) left behind at exit.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation -Zmiri-ignore-leaks}"
TD="${CARGO_TARGET_DIR:-target}/miri-build"
for f in "${FILTERS[@]}"; do
  echo "-- miri: pqsig --lib $f"
  timeout "${MIRI_TIMEOUT:-900}" cargo +nightly miri test --target-dir "$TD" -p pqsig --lib -- "$f"
done
