#!/usr/bin/env bash
# The project's test command (README "Run the tests"; CI runs it with --full: the
# stages marked [full] below run only then; docs/TESTING.md lists every stage's time).
#
# 0. Formatting and lints: `cargo fmt --all --check` and `cargo clippy --all-targets -- -D
#    warnings` over the default members (both need the rustfmt and clippy components,
#    which `.ci/run` installs through rustup; without rustup they say SKIPPED).
#
# `cargo test` covers the default members (library, CLI, C library, socket protocol with
# its Python example client, the service); the bench crate is left out because it builds
# peer libraries (liboqs via cmake) that the tests do not need.
#
# 1. The whole test suite with automatic backend selection. The vector suites (ACVP,
#    Wycheproof) loop over every backend available on this CPU themselves. The service's
#    integration tests run over HTTP, and its key-store tests against a PostgreSQL server
#    they start themselves (`.ci/run` installs postgresql).
# 1c. [full] The socket demo on the card (crates/pqsig-card/scripts/socket-demo.sh, short form:
#    one round per ML-DSA set): a `timed` card, `pqsig serve --device card` reaching it
#    through PQSIG_CARD, `pqsig client` signing and verifying over the binary protocol; the
#    card's NTT / inverse-NTT request counters (`pqsig card --stats`) must grow. Both
#    driver modes (card, card-per-call). The card's own tests (results identical to the
#    CPU in both modes, several clients, a client killed mid-request) run in stage 1.
# 1d. The small CLI (`cargo build -p pqsig-cli --no-default-features`, without the
#    server stack): builds, and crates/pqsig-cli/scripts/small-build-smoke.sh signs and
#    verifies with it; `serve` / `client` must exit 2 as not built in.
# 2. The whole workspace again with the portable backend forced through PQSIG_BACKEND:
#    selection by environment works and nothing depends on SIMD being present.
# 3. Falcon / FN-DSA again with the integer-only binary64 emulation (feature
#    fpr-emulated): every KAT (keygen, signing in both modes, FN-DSA) must pass bit for bit
#    without the FPU.
#    The same build has the Winograd NTT study (feature ntt-study, off by default): every
#    variant on every backend against the portable radix-2, and pinned through the
#    schemes; --full also runs the ML-DSA and Falcon vector suites once per variant
#    (PQSIG_TEST_EVERY_NTT=1).
# 4. The no_std + alloc build of the library, for the host and, when the target can be
#    installed, for a bare-metal Cortex-M4 target (no std at all there).
# 4b. [full] The Cortex-M4 baseline, short form (crates/pqsig-m4 under qemu-system-arm -M
#    mps2-an386): Falcon-512 and ML-DSA-44 keygen, signing and verification on the no_std
#    core with emulated binary64, digests checked against the host; then one traced
#    Falcon-512 run split per function, checked by scripts/falcon-cycle-model.py. SKIPPED
#    without qemu-system-arm.
# 5. The constant-time check, when valgrind is installed: the example ct_check poisons the
#    secret inputs of the keygen/sign kernels (memcheck client requests) on every backend
#    valgrind can run, and memcheck fails the run on any branch or memory index that
#    depends on them; then a canary run checks that a deliberate secret branch is caught.
#    Then the whole-operation check, short form (ct_whole: one key generation and one
#    signature per scheme family and backend, seeds and signing randomness poisoned; its
#    canary must be caught); scripts/ct-whole.sh is the full form (all 27 algorithms).
# 6. Stack frames: every function of the release library (read from the CLI binary's
#    prologues by scripts/stack-frames.py) stays under 64 KB; and the NTT study's Python
#    butterfly units are checked exact against a naive NTT (studies/winograd).
# 7. AArch64 / NEON, when the cross toolchain is installed (`.ci/run` tries to install it:
#    Rust target aarch64-unknown-linux-gnu, Debian gcc-aarch64-linux-gnu, qemu-user,
#    libc6-dev-arm64-cross): the NEON-relevant tests are cross-built and run under
#    qemu-aarch64 (linker and runner in .cargo/config.toml): backend selection, the GF(16)
#    kernels (NEON against portable, and every backend against a reference), seed
#    expansion (SHAKE128 counter mode, AES-128-CTR with the ARMv8 AES instructions) and
#    all SNOVA KATs on every backend available there (portable and neon).
# 8. ML-DSA key files against pyca `cryptography` (pinned, in a venv): its PEM/DER keys load
#    in pqsig and its signatures verify, and the reverse (tests/interop/pyca_mldsa.py).
# 9. The Python package (crates/pqsig-py, PyO3 + maturin, abi3): a virtual environment
#    under the target directory, `pip install ./crates/pqsig-py pytest cryptography` (maturin builds the
#    release extension into the same target directory), then its pytest suite (every
#    algorithm, Wycheproof ML-DSA seed vectors, CLI interop, pickling, a multiprocessing
#    pool). SKIPPED when python3 -m venv / pip cannot be used (python3-venv missing, or
#    pytest and maturin cannot be downloaded).
# 9b. [full] liboqs on the card (hw/liboqs/run.sh --short): liboqs's ML-DSA reference code with
#    its polynomial-vector NTTs sent through the C library to a `timed` card; liboqs's
#    test_sig and KATs for ML-DSA-44 (needs cmake; `.ci/run` installs it and fetches the
#    oqs-sys crate's liboqs tree).
# 10. [full] The hardware NTT accelerator (hw/ntt), when verilator is installed (`.ci/run`
#    installs verilator, iverilog, yosys): the Verilator co-simulation against the
#    library kernels (radix-2 and Winograd radix-8 cores), every ACVP ML-DSA vector
#    with the simulated accelerator as the kernel device, the Winograd schedule check
#    and the Icarus benches (hw/ntt/test.sh, short form), Artix-7 synthesis of one
#    configuration per modulus (radix-2 ML-DSA, Winograd Falcon-512; hw/ntt/report.sh
#    --short), and the CLI
#    built with `--features hw-sim`: KAT output through device `rtl-ntt` byte-identical
#    to the CPU's (ML-DSA, 10 records each) and to every official round-3 Falcon record;
#    then the card with the `rtl` accelerator: pqsig-card's rtl test (NTT/INTT batches
#    equal to the CPU, cycles equal to the cycle model, a signature byte-identical) and
#    the socket demo with ACCEL=rtl (one round).
#    Also Falcon's binary64 units and FFT engine (hw/falcon/test.sh, report.sh --short),
#    and the engine with the SamplerZ RTL as device `rtl-falcon`: round-3 Falcon KAT
#    records through it (all 100 of each 512 set, the first 25 of each 1024 set; about
#    a minute) and its seam test.
# 11. The kernel driver (hw/linux), when QEMU, Debian's kernel image and its headers and
#    busybox-static are installed (`.ci/run` installs them): hw/linux/run.sh --short
#    builds ntt_hw.ko, boots the kernel under QEMU with the card on ivshmem, loads the
#    driver, runs the ML-DSA-44 KAT (count 2) through --device ntt-hw (byte-identical to
#    the host's, and served by the driver), bad requests and round trips through the
#    user-mapped doorbell page (about 40 s: both forms run it). It reuses the release CLI
#    built above (its libraries go into the initramfs); the full form, with a static
#    pqsig, is hw/linux/run.sh.
# 12. Fuzzing, short form, only with PQSIG_TEST_FUZZ=1 and the nightly toolchain and
#    cargo-fuzz installed (off by default: the instrumented build does not fit the CI time
#    budget yet): every cargo-fuzz target of fuzz/ (decoders of keys,
#    signatures, μ, key files, protocol frames, HTTP bodies, verify-batch lines; sign/verify
#    round trips; SIMD == portable kernels) for 15 s each from the committed corpora
#    (fuzz/run.sh --short 15; full form fuzz/run.sh, docs/FUZZING.md).
# 13. Miri over a bounded subset of the library's unit tests with the portable backend
#    (scripts/miri.sh, docs/ARCHITECTURE.md "Unsafe code"), only with PQSIG_TEST_MIRI=1 and
#    nightly's miri installed (off by default, as fuzzing); and the audit that every `unsafe` block outside `#[target_feature]` code
#    has a `// SAFETY:` line (scripts/unsafe-audit.py, always).
set -euo pipefail
cd "$(dirname "$0")/.."

# Two forms. The default (the README's test command) is every vector suite on every
# backend this CPU has, the service, the key files, the Python package, the constant-time
# and NEON checks; `--full` (what .ci/run runs) adds the hardware and systems stages of
# Steps 2-6 in their short forms: the card's socket demo, the Cortex-M4 baseline, liboqs on
# the card, the Verilator/Icarus/Yosys stage with the RTL devices' KATs, and the kernel
# driver under QEMU. Each stage's wall time is printed at the end (docs/TESTING.md).
FULL=0
case "${1:-}" in
  --full) FULL=1 ;;
  "") ;;
  *) echo "usage: scripts/test-all.sh [--full]" >&2; exit 2 ;;
esac
T_START=$SECONDS
STAGE_T=$SECONDS
STAGE_NAME=""
STAGE_TIMES=""
stage_end() {
  if [ -n "$STAGE_NAME" ]; then
    STAGE_TIMES="$STAGE_TIMES$(printf '%6ds  %s' $((SECONDS - STAGE_T)) "$STAGE_NAME")"$'\n'
  fi
}
# stage TITLE: a stage of both forms.
stage() {
  stage_end
  STAGE_NAME="$1"
  STAGE_T=$SECONDS
  echo "== $1"
}
# full_stage TITLE: a stage of the full form only (true when it is to run).
full_stage() {
  if [ "$FULL" = 1 ]; then
    stage "$1"
    return 0
  fi
  stage_end
  STAGE_NAME=""
  echo "== $1"
  echo "SKIPPED: full form only (scripts/test-all.sh --full)"
  return 1
}
report_times() {
  local rc=$?
  stage_end
  STAGE_NAME=""
  echo "== stage times (wall, $([ "$FULL" = 1 ] && echo full || echo default) form)"
  printf '%s' "$STAGE_TIMES"
  printf '%6ds  total\n' $((SECONDS - T_START))
  return $rc
}
trap report_times EXIT

stage "cargo fmt --check, cargo clippy -D warnings"
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all --check
else
  echo "SKIPPED: cargo fmt (the rustfmt component is not installed)"
fi
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --all-targets -- -D warnings
  # The NTT study's engine and its tests (feature ntt-study, off by default).
  cargo clippy -p pqsig --all-targets --features ntt-study -- -D warnings
else
  echo "SKIPPED: cargo clippy (the clippy component is not installed)"
fi

stage "cargo test (auto-selected backend: every available backend in the vector suites; the service on SQLite and PostgreSQL)"
# The service's integration tests start the server on loopback ports with temporary
# databases and start their own PostgreSQL cluster (as the postgres user). A missing
# PostgreSQL fails here; PQSIG_REQUIRE_POSTGRES=0 turns that into a SKIPPED line for a
# local run.
export PQSIG_REQUIRE_POSTGRES="${PQSIG_REQUIRE_POSTGRES:-1}"
# Every target but the examples, which stage 0's `clippy --all-targets` already compiled
# (building them optimised again here took about a minute); then the doc tests.
cargo test --lib --bins --tests
cargo test --doc

if full_stage "card: socket demo (pqsig serve --device card / card-per-call, pqsig client; card counters)"; then
  # The CLI that `cargo test` built above. Full form: socket-demo.sh [ROUNDS].
  for dev in card card-per-call; do
    DEVICE=$dev PQSIG_BIN="${CARGO_TARGET_DIR:-target}/debug/pqsig" crates/pqsig-card/scripts/socket-demo.sh 1
  done
fi

stage "the small CLI (pqsig-cli --no-default-features: no server stack): keygen/sign/verify"
# Its features differ from the test build's, so the library is compiled again (at
# opt-level 0: this is a smoke test). It takes target/debug/pqsig; the next cargo command
# puts the full binary back there.
CARGO_PROFILE_DEV_OPT_LEVEL=0 CARGO_PROFILE_DEV_DEBUG=0 cargo build -p pqsig-cli --no-default-features
crates/pqsig-cli/scripts/small-build-smoke.sh "${CARGO_TARGET_DIR:-target}/debug/pqsig"

stage "cargo test with PQSIG_BACKEND=portable (forced portable run)"
PQSIG_BACKEND=portable cargo test --lib --bins --tests
PQSIG_BACKEND=portable cargo test --doc

stage "Falcon / FN-DSA with emulated floating point (feature fpr-emulated); the NTT study (feature ntt-study)"
# One build with both features: the Falcon and FN-DSA suites on the integer-only binary64
# (the production NTTs: no variant is pinned unless PQSIG_TEST_EVERY_NTT=1), and the NTT
# study's own tests, which pin every variant on every backend against the portable
# radix-2 and through the schemes (the variants are integer code: the float emulation
# changes nothing there).
cargo test -p pqsig --features fpr-emulated,ntt-study --test 'falcon_*' --test 'fndsa_*' --test 'fpr_*' --test 'ntt_*'
if [ "$FULL" = 1 ]; then
  # [full] The ML-DSA and Falcon vector suites once per pinned NTT variant (native floats).
  PQSIG_TEST_EVERY_NTT=1 cargo test -p pqsig --features ntt-study --test acvp_mldsa \
    --test falcon_sign_kat --test falcon_keygen_kat --test falcon_verify_kat
fi

stage "no_std + alloc build of the library"
# `cargo check`: the question is whether it compiles without std (codegen adds nothing
# here; the Cortex-M4 stage of --full links and runs the no_std core).
cargo check -p pqsig --no-default-features
NOSTD_TARGET=thumbv7em-none-eabihf
if rustup target list --installed 2>/dev/null | grep -qx "$NOSTD_TARGET" \
   || rustup target add "$NOSTD_TARGET" >/dev/null 2>&1; then
  cargo check -p pqsig --no-default-features --target "$NOSTD_TARGET"
  cargo check -p pqsig --no-default-features --features fpr-emulated --target "$NOSTD_TARGET"
else
  echo "SKIPPED: bare-metal no_std build ($NOSTD_TARGET could not be installed with rustup)"
fi

if full_stage "Cortex-M4 software baseline, short form (QEMU mps2-an386, emulated binary64)"; then
  # One Falcon-512 and one ML-DSA-44 keygen/signature/verification on the no_std core under
  # qemu-system-arm, every output checked against the host's native-f64 run (full form:
  # scripts/m4-baseline.sh --json; docs/M4-BASELINE.md). .ci/run installs qemu-system-arm.
  if ! command -v qemu-system-arm >/dev/null 2>&1; then
    echo "SKIPPED: Cortex-M4 baseline (qemu-system-arm not installed)"
  elif ! rustup target list --installed 2>/dev/null | grep -qx "$NOSTD_TARGET"; then
    echo "SKIPPED: Cortex-M4 baseline ($NOSTD_TARGET not installed)"
  else
    scripts/m4-baseline.sh --short
    # The Falcon co-design model's host/device split (docs/REPRODUCING.md): the same ELF,
    # traced on the Falcon kernels only (about 20 s), checked by the model (FFT call count,
    # host + device = total, a hand-computed case).
    M4_ELF="${CARGO_TARGET_DIR:-target}/pqsig-m4/$NOSTD_TARGET/release/pqsig-m4"
    scripts/m4-func-split.py "$M4_ELF" Falcon-512 \
      | scripts/falcon-cycle-model.py --split - --check > /dev/null
  fi
fi

stage "constant-time check (valgrind memcheck, secret inputs poisoned)"
if command -v valgrind >/dev/null 2>&1; then
  # Feature ct-check: the library's declassification hooks (src/ct.rs) speak to memcheck.
  cargo build --release -p pqsig --example ct_check --example ct_whole --features ct-check
  CT_CHECK="${CARGO_TARGET_DIR:-target}/release/examples/ct_check"
  valgrind --error-exitcode=1 --track-origins=yes "$CT_CHECK"
  # The check must be able to fail: memcheck has to flag a deliberate secret branch
  # (ct_check --canary exits 0 only then; its expected report is not shown).
  valgrind -q --log-file=/dev/null "$CT_CHECK" --canary
  # Whole operations (issue 20 item 10), short form: every operation checked.
  CT_WHOLE="${CARGO_TARGET_DIR:-target}/release/examples/ct_whole"
  valgrind --error-exitcode=1 "$CT_WHOLE"
  valgrind -q --log-file=/dev/null "$CT_WHOLE" --canary
  # Again with Falcon's integer-only binary64 (the FFT and key expansion on emulated Fpr).
  # (Same target directory: the examples above are replaced, after they ran.)
  cargo build --release -p pqsig --example ct_check --example ct_whole \
    --features fpr-emulated,ct-check
  valgrind --error-exitcode=1 --track-origins=yes "$CT_CHECK"
  valgrind --error-exitcode=1 "$CT_WHOLE" --alg Falcon-512
else
  echo "SKIPPED: constant-time check (valgrind not installed)"
fi

stage "stack frames (no function of the library over 64 KB; issue 4's memory budget)"
if command -v objdump >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  # The CLI binary links every scheme and backend; frames are read from its prologues.
  # The small build (no server stack: the library's functions are the same, and it
  # builds in a fraction of the time); the Python and kernel-driver stages reuse it.
  cargo build --release -p pqsig-cli --no-default-features
  objdump -d --no-show-raw-insn "${CARGO_TARGET_DIR:-target}/release/pqsig" \
    | scripts/stack-frames.py --limit 65536 --top 5
else
  echo "SKIPPED: stack-frame check (needs objdump and python3)"
fi

stage "NTT study self-tests (studies/winograd: the Python butterfly units are exact)"
if command -v python3 >/dev/null 2>&1; then
  (cd studies/winograd && python3 -m unittest -q test_units)
else
  echo "SKIPPED: NTT study self-tests (python3 not installed)"
fi

stage "ML-DSA key files against pyca cryptography (PEM/DER both ways, signatures both ways)"
# A virtual environment with cryptography pinned (50.x writes and reads RFC 9881 seed-form
# PKCS#8); reused between runs. SKIPPED when python3's venv/pip or the package index is
# unavailable.
PYCA_VERSION=50.0.2
PYCA_VENV="${CARGO_TARGET_DIR:-target}/pyca-venv"
PYCA_OK=""
if command -v python3 >/dev/null 2>&1; then
  if [ -x "$PYCA_VENV/bin/python" ] \
     && "$PYCA_VENV/bin/python" -c "import cryptography, sys; sys.exit(cryptography.__version__ != '$PYCA_VERSION')" 2>/dev/null; then
    PYCA_OK=1
  elif rm -rf "$PYCA_VENV" && python3 -m venv "$PYCA_VENV" >/dev/null 2>&1 \
     && "$PYCA_VENV/bin/python" -m pip install -q --disable-pip-version-check \
          "cryptography==$PYCA_VERSION" >/dev/null 2>&1; then
    PYCA_OK=1
  fi
fi
if [ -n "$PYCA_OK" ]; then
  PYCA_DIR="$(mktemp -d)"
  "$PYCA_VENV/bin/python" crates/pqsig/tests/interop/pyca_mldsa.py gen "$PYCA_DIR"
  PQSIG_INTEROP_DIR="$PYCA_DIR" cargo test -q -p pqsig --test keyfile_interop_pyca
  "$PYCA_VENV/bin/python" crates/pqsig/tests/interop/pyca_mldsa.py check "$PYCA_DIR"
  rm -rf "$PYCA_DIR"
else
  echo "SKIPPED: pyca cryptography interop (could not create a venv with cryptography==$PYCA_VERSION: needs python3-venv and the package index)"
fi

stage "aarch64 / NEON (cross-built, run under qemu-aarch64)"
AARCH64_TARGET=aarch64-unknown-linux-gnu
AARCH64_MISSING=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 \
  || AARCH64_MISSING="$AARCH64_MISSING aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu)"
command -v qemu-aarch64 >/dev/null 2>&1 \
  || AARCH64_MISSING="$AARCH64_MISSING qemu-aarch64 (qemu-user)"
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] \
  || AARCH64_MISSING="$AARCH64_MISSING /usr/aarch64-linux-gnu (libc6-dev-arm64-cross)"
[ -d "$(rustc --print sysroot)/lib/rustlib/$AARCH64_TARGET" ] \
  || AARCH64_MISSING="$AARCH64_MISSING rust target $AARCH64_TARGET (rustup target add)"
if [ -z "$AARCH64_MISSING" ]; then
  # Same CARGO_TARGET_DIR as the stages above (cargo puts the cross build under
  # ${CARGO_TARGET_DIR:-target}/$AARCH64_TARGET).
  cargo test -p pqsig --target "$AARCH64_TARGET" --lib kernels::select
  cargo test -p pqsig --target "$AARCH64_TARGET" \
    --test backend_selection \
    --test snova_gf16_neon --test snova_gf16_equivalence \
    --test 'snova_xof*'
  # All 18 SNOVA KAT files and the Sage vector on every backend available there (portable
  # and neon): about 6.5 CPU minutes under emulation (two test threads). For a quicker
  # local run, PQSIG_AARCH64_KAT=neon checks the NEON backend only (the portable backend
  # is the same target-independent Rust that stages 1 and 2 run through every KAT).
  # The default form checks the NEON backend only; --full runs every backend.
  case "${PQSIG_AARCH64_KAT:-$([ "$FULL" = 1 ] && echo all || echo neon)}" in
    all) env -u PQSIG_BACKEND cargo test -p pqsig --target "$AARCH64_TARGET" --test snova_kat ;;
    neon) PQSIG_BACKEND=neon cargo test -p pqsig --target "$AARCH64_TARGET" --test snova_kat ;;
    *) echo "error: PQSIG_AARCH64_KAT must be 'all' or 'neon'" >&2; exit 2 ;;
  esac
else
  echo "SKIPPED: aarch64/NEON stage (missing:$AARCH64_MISSING)"
fi

stage "Python package (crates/pqsig-py: pip install into a venv, pytest)"
PY_TARGET="${CARGO_TARGET_DIR:-target}"
mkdir -p "$PY_TARGET"
PY_TARGET="$(cd "$PY_TARGET" && pwd)"   # absolute: maturin runs cargo from crates/pqsig-py
PY_VENV="$PY_TARGET/py-venv"
if command -v python3 >/dev/null 2>&1 \
   && python3 -m venv --clear "$PY_VENV" >/dev/null 2>&1 \
   && "$PY_VENV/bin/python" -m pip --version >/dev/null 2>&1 \
   && "$PY_VENV/bin/python" -m pip install -q pytest 'maturin>=1.9,<2' "cryptography==$PYCA_VERSION"; then
  # The build itself must succeed: from here on any failure fails the test command.
  CARGO_TARGET_DIR="$PY_TARGET" "$PY_VENV/bin/python" -m pip install -q ./crates/pqsig-py
  # The CLI was built by the stack-frame stage above: used for the keygen --seed interop.
  if [ -x "$PY_TARGET/release/pqsig" ]; then export PQSIG_CLI="$PY_TARGET/release/pqsig"; fi
  (cd crates/pqsig-py && "$PY_VENV/bin/python" -m pytest -q -p no:cacheprovider tests)
else
  echo "SKIPPED: Python package tests (python3 -m venv / pip unusable: install python3-venv,"
  echo "         and pip must be able to download pytest and maturin)"
fi

if full_stage "liboqs on the card (hw/liboqs/run.sh --short: ML-DSA-44 through a timed card)"; then
  # liboqs (the oqs-sys crate's tree, .ci/run fetches it) patched so its reference ML-DSA
  # NTTs go through the C library to a card the script starts; liboqs's own test_sig and
  # kat_sig --all (sha256 against liboqs's kats.json). Uses the C library and CLI that the
  # `cargo test` stage built; the liboqs build is kept in the target directory. Full form
  # (all three sets, timings): hw/liboqs/run.sh OUTDIR (hw/liboqs/README.md).
  LIBOQS_TGT="${CARGO_TARGET_DIR:-target}"
  # The static library as the C tests find it: deps/ (where its compile writes it) first.
  LIBOQS_FFI="$LIBOQS_TGT/debug/deps/libpqsig_ffi.a"
  [ -f "$LIBOQS_FFI" ] || LIBOQS_FFI="$LIBOQS_TGT/debug/libpqsig_ffi.a"
  if [ -f "$LIBOQS_FFI" ] && [ -x "$LIBOQS_TGT/debug/pqsig" ]; then
    PQSIG_FFI_LIB="$LIBOQS_FFI" PQSIG_CLI="$LIBOQS_TGT/debug/pqsig" \
      hw/liboqs/run.sh --short "$LIBOQS_TGT/liboqs-short"
  else
    hw/liboqs/run.sh --short "$LIBOQS_TGT/liboqs-short"
  fi
fi

if full_stage "hardware: the NTT accelerator (hw/ntt: Verilator co-simulation, Icarus, Yosys; short forms)"; then
  # .ci/run installs Debian's verilator, iverilog and yosys. Full forms: hw/ntt/test.sh
  # --full, hw/ntt/report.sh --json (docs/HARDWARE.md).
  if command -v verilator >/dev/null 2>&1; then
    hw/ntt/test.sh
    if command -v yosys >/dev/null 2>&1; then
      hw/ntt/report.sh --json --short
    else
      echo "SKIPPED: hw/ntt/report.sh (yosys not installed)"
    fi
    # Falcon's binary64 units and FFT/iFFT engine (hw/falcon, docs/HARDWARE-FALCON.md):
    # 10^6 random pairs per operation against fpr::emulated, FFT/iFFT n = 512, 1024
    # against the kernels, Icarus benches; Artix-7 synthesis of fpadd, fpmul, fft512.
    # Full forms: hw/falcon/test.sh --full, hw/falcon/report.sh --json.
    hw/falcon/test.sh
    if command -v yosys >/dev/null 2>&1; then
      hw/falcon/report.sh --json --short
    else
      echo "SKIPPED: hw/falcon/report.sh (yosys not installed)"
    fi
    # The CLI with the simulated accelerator as kernel device `rtl-ntt`: every NTT of
    # keygen, signing and verification runs on the RTL, and the KAT output must not change.
    cargo build -p pqsig-cli --features hw-sim
    HW_CLI="${CARGO_TARGET_DIR:-target}/debug/pqsig"
    HW_TMP="$(mktemp -d)"
    "$HW_CLI" device list | grep -q '^rtl-ntt ' || { echo "rtl-ntt not listed"; exit 1; }
    for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
      "$HW_CLI" kat --alg "$alg" --count 10 > "$HW_TMP/cpu.rsp"
      "$HW_CLI" --device rtl-ntt kat --alg "$alg" --count 10 > "$HW_TMP/rtl.rsp"
      cmp "$HW_TMP/cpu.rsp" "$HW_TMP/rtl.rsp"
      echo "   $alg: 10 KAT records through rtl-ntt byte-identical to the CPU's"
    done
    # Every official round-3 Falcon KAT record (100 per set) through the device.
    for f in falcon512-KAT falcon1024-KAT; do
      alg=$([ "$f" = falcon512-KAT ] && echo Falcon-512 || echo Falcon-1024)
      "$HW_CLI" --device rtl-ntt kat --alg "$alg" --count 100 > "$HW_TMP/$f.rsp"
      python3 scripts/vectors.py cat "falcon/round3/$f.rsp" | cmp "$HW_TMP/$f.rsp" -
      echo "   $alg: all 100 official KAT records through rtl-ntt"
    done
    # Falcon's FFT/iFFT and SamplerZ on the simulated hw/falcon engine and sampler
    # (device rtl-falcon): official round-3 records, byte-identical, with per-record device
    # cycles (kat --cycles). Reduced for the 1024 sets: all 100 records of Falcon-512 and
    # Falcon-padded-512 (about 0.15 s each here), the first 25 of Falcon-1024 and
    # Falcon-padded-1024 (about 0.5 s each: the sampler serves 2,048 requests per
    # signature); the full form runs all 400: RTL_FALCON_1024=100.
    "$HW_CLI" device list | grep -q '^rtl-falcon ' || { echo "rtl-falcon not listed"; exit 1; }
    for f in falcon512-KAT:Falcon-512:round3:100 falcon-padded-512-KAT:Falcon-padded-512:round3-padded:100 \
             falcon1024-KAT:Falcon-1024:round3:${RTL_FALCON_1024:-25} \
             falcon-padded-1024-KAT:Falcon-padded-1024:round3-padded:${RTL_FALCON_1024:-25}; do
      IFS=: read -r file alg dir n <<< "$f"
      "$HW_CLI" --device rtl-falcon kat --alg "$alg" --count "$n" --cycles "$HW_TMP/$file.cycles" > "$HW_TMP/$file.rsp"
      python3 scripts/vectors.py cat "falcon/$dir/$file.rsp" > "$HW_TMP/$file.want"
      head -n $((2 + 9 * n)) "$HW_TMP/$file.want" | cmp - "$HW_TMP/$file.rsp"
      [ "$(wc -l < "$HW_TMP/$file.cycles")" -eq "$n" ] || { echo "$alg: cycle lines missing"; exit 1; }
      echo "   $alg: $n official KAT records through rtl-falcon"
    done
    rm -rf "$HW_TMP"
    # rtl-falcon in the library's seam: KAT records byte-exact (key generation and signing),
    # no failed device request, signing cycles equal to the engine's formulas, the SamplerZ plug.
    cargo test -p pqsig-hwsim --test rtl_falcon_kat
    # The card with the rtl accelerator (pqsig_hwsim::RtlNtt behind the card process).
    cargo test -p pqsig-card --features rtl --test rtl
    ACCEL=rtl PQSIG_BIN="$HW_CLI" crates/pqsig-card/scripts/socket-demo.sh 1
  else
    echo "SKIPPED: hardware stage (verilator not installed; .ci/run installs it)"
  fi
fi

stage "Linux driver /dev/ntt_hw under QEMU (hw/linux/run.sh --short)"
LINUX_MISSING=""
command -v qemu-system-x86_64 >/dev/null 2>&1 || LINUX_MISSING="$LINUX_MISSING qemu-system-x86"
ls /boot/vmlinuz-* >/dev/null 2>&1 || LINUX_MISSING="$LINUX_MISSING linux-image-amd64"
ls -d /lib/modules/*/build >/dev/null 2>&1 || LINUX_MISSING="$LINUX_MISSING linux-headers-amd64"
{ [ -x /bin/busybox ] && ! readelf -l /bin/busybox 2>/dev/null | grep -q INTERP; } \
  || LINUX_MISSING="$LINUX_MISSING busybox-static"
command -v cpio >/dev/null 2>&1 || LINUX_MISSING="$LINUX_MISSING cpio"
if [ -z "$LINUX_MISSING" ]; then
  cargo build --release -p pqsig-cli --no-default-features   # built above: a no-op
  LINUX_RC=0
  PQSIG_GUEST_BIN="${CARGO_TARGET_DIR:-target}/release/pqsig" NTT_HW_TIMEOUT=600 \
    hw/linux/run.sh --short || LINUX_RC=$?
  if [ "$LINUX_RC" = 3 ]; then
    echo "SKIPPED: Linux driver under QEMU (hw/linux/run.sh found the tools incomplete)"
  elif [ "$LINUX_RC" != 0 ]; then
    exit "$LINUX_RC"
  fi
else
  echo "SKIPPED: Linux driver under QEMU (not installed:$LINUX_MISSING)"
fi

stage "fuzzing, short form (fuzz/run.sh --short 15: every target, 15 s each)"
if [ "${PQSIG_TEST_FUZZ:-0}" != 1 ]; then
  echo "SKIPPED: fuzzing (opt-in with PQSIG_TEST_FUZZ=1: the instrumented build does not fit the CI time budget yet; full form fuzz/run.sh, docs/FUZZING.md)"
elif command -v rustup >/dev/null 2>&1 && cargo +nightly fuzz --version >/dev/null 2>&1; then
  # The instrumented build has its own directory (sanitizer flags differ from the
  # stages above).
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/fuzz" fuzz/run.sh --short 15
else
  echo "SKIPPED: fuzzing (needs the nightly toolchain and cargo-fuzz; .ci/run installs them)"
fi

stage "unsafe audit (every unsafe block outside #[target_feature] code has a SAFETY line)"
python3 scripts/unsafe-audit.py

stage "Miri (bounded subset of the library's unit tests, portable backend)"
if [ "${PQSIG_TEST_MIRI:-0}" != 1 ]; then
  echo "SKIPPED: Miri (opt-in with PQSIG_TEST_MIRI=1: scripts/miri.sh)"
elif command -v rustup >/dev/null 2>&1 && cargo +nightly miri --version >/dev/null 2>&1; then
  scripts/miri.sh
else
  echo "SKIPPED: Miri (needs the nightly toolchain with the miri component; .ci/run installs it)"
fi

echo "all test stages passed"
