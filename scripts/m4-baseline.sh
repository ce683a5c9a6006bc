#!/usr/bin/env bash
# The software baseline on a Cortex-M4 (issue 19, deliverable 6; docs/M4-BASELINE.md).
#
#   scripts/m4-baseline.sh [--short] [--json]
#
# Builds crates/pqsig-m4 for thumbv7em-none-eabihf (the no_std core with the emulated
# binary64, feature fpr-emulated) and for the host, boots the ELF under
#   qemu-system-arm -M mps2-an386 -semihosting -icount shift=0
# and checks every output digest (public keys, signatures) against the host run of the
# same workload with native f64. Prints one line per operation: a table, or with --json
#   {"alg","op","instructions","est_cycles_lo","est_cycles_hi","est_ms_168mhz",
#    "est_ms_168mhz_lo","est_ms_168mhz_hi","stack_bytes","heap_bytes","digest","host_match"}
# --short: Falcon-512 and ML-DSA-44 only (keygen, sign, verify), for the test command.
# Full form: Falcon-512, Falcon-1024 (plus expand and sign with the expanded key) and
# ML-DSA-44. Exit status 0 when every digest matches, the calibration holds and every
# signature verified on the M4; 1 otherwise; 2 for a usage error or a missing tool.
#
# QEMU counts instructions, not cycles: cycles are estimated as instructions x CPI with
# CPI in [M4_CPI_LO, M4_CPI_HI] (defaults 1.0 and 1.5; docs/M4-BASELINE.md, "Cycles").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"

SHORT=""
JSON=""
for a in "$@"; do
  case "$a" in
    --short) SHORT=1 ;;
    --json) JSON=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "usage: scripts/m4-baseline.sh [--short] [--json]" >&2; exit 2 ;;
  esac
done

TARGET=thumbv7em-none-eabihf
for tool in qemu-system-arm python3 cargo; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found (.ci/run installs qemu-system-arm)" >&2; exit 2; }
done
if ! rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
  rustup target add "$TARGET" >/dev/null 2>&1 || { echo "error: Rust target $TARGET missing (rustup target add $TARGET)" >&2; exit 2; }
fi

# Own target directory: the harness is its own workspace (crates/pqsig-m4/Cargo.toml).
TGT="${CARGO_TARGET_DIR:-$ROOT/target}"
mkdir -p "$TGT"
TGT="$(cd "$TGT" && pwd)/pqsig-m4"
export CARGO_TARGET_DIR="$TGT"
(cd crates/pqsig-m4 && cargo build -q --release --target "$TARGET" && cargo build -q --profile host)
ELF="$TGT/$TARGET/release/pqsig-m4"
HOST="$TGT/host/pqsig-m4"

WORDS=""
[ -n "$SHORT" ] && WORDS="short"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# -icount shift=0: each guest instruction advances virtual time by exactly 1 ns, which the
# guest reads from a 25 MHz timer (40 instructions per tick). -semihosting: console, the
# command line (-append) and the exit status.
M4_TIMEOUT="${M4_TIMEOUT:-1200}"
# The semihosting console goes to a file (QEMU would otherwise write it to stderr, mixed
# with its own messages).
if ! timeout "$M4_TIMEOUT" qemu-system-arm -M mps2-an386 -cpu cortex-m4 -nographic \
     -monitor none -serial none -icount shift=0 \
     -chardev "file,id=semihost,path=$OUT/m4.jsonl" \
     -semihosting-config enable=on,target=native,chardev=semihost \
     -kernel "$ELF" -append "$WORDS"; then
  cat "$OUT/m4.jsonl" >&2
  echo "error: the M4 run failed (QEMU exit status above is non-zero)" >&2
  exit 1
fi
# shellcheck disable=SC2086
"$HOST" $WORDS > "$OUT/host.jsonl"

python3 - "$OUT/m4.jsonl" "$OUT/host.jsonl" "${M4_CPI_LO:-1.0}" "${M4_CPI_HI:-1.5}" "${JSON:-0}" <<'EOF'
import json, sys

m4_path, host_path, cpi_lo, cpi_hi, as_json = sys.argv[1:6]
cpi_lo, cpi_hi = float(cpi_lo), float(cpi_hi)
MHZ = 168.0

def lines(path):
    out = []
    for raw in open(path):
        raw = raw.strip()
        if not raw:
            continue
        try:
            out.append(json.loads(raw))
        except ValueError:
            sys.exit(f"error: not a JSON line from {path}: {raw!r}")
    return out

m4 = lines(m4_path)
host = {(r["alg"], r["op"]): r for r in lines(host_path)}
failures = []

cal = [r for r in m4 if r.get("alg") == "calibration"]
if not cal:
    failures.append("no calibration line")
else:
    c = cal[0]
    # The timer ticks every 40 instructions: the reading may be short by less than a tick.
    if not (0 <= c["expected_instructions"] - c["instructions"] < 40 + 40):
        failures.append(f"calibration: {c['instructions']} instructions measured for "
                        f"{c['expected_instructions']} executed")
if not any(r.get("done") for r in m4):
    failures.append("the M4 run did not finish")

rows = []
for r in m4:
    if "op" not in r or r.get("alg") == "calibration":
        continue
    h = host.pop((r["alg"], r["op"]), None)
    match = h is not None and h["digest"] == r["digest"] and h["bytes"] == r["bytes"]
    if not match:
        failures.append(f"{r['alg']} {r['op']}: M4 digest {r['digest']} != host "
                        f"{h['digest'] if h else 'missing'}")
    i = r["instructions"]
    lo, hi = round(i * cpi_lo), round(i * cpi_hi)
    rows.append({
        "alg": r["alg"], "op": r["op"], "instructions": i,
        "est_cycles_lo": lo, "est_cycles_hi": hi,
        "est_ms_168mhz": round((lo + hi) / 2 / MHZ / 1000, 2),
        "est_ms_168mhz_lo": round(lo / MHZ / 1000, 2),
        "est_ms_168mhz_hi": round(hi / MHZ / 1000, 2),
        "stack_bytes": r["stack_bytes"], "heap_bytes": r["heap_bytes"],
        "digest": r["digest"], "host_match": match,
    })
for (alg, op) in host:
    failures.append(f"{alg} {op}: in the host run but not on the M4")

if as_json == "1":
    for row in rows:
        print(json.dumps(row, separators=(",", ":")))
else:
    print(f"{'alg':<12} {'op':<14} {'instructions':>13} {'est cycles':>25} "
          f"{'ms @168MHz':>15} {'stack B':>8} {'heap B':>8}  host")
    for row in rows:
        cyc = f"{row['est_cycles_lo']:,}..{row['est_cycles_hi']:,}"
        ms = f"{row['est_ms_168mhz_lo']}..{row['est_ms_168mhz_hi']}"
        print(f"{row['alg']:<12} {row['op']:<14} {row['instructions']:>13,} {cyc:>25} "
              f"{ms:>15} {row['stack_bytes']:>8} {row['heap_bytes']:>8}  "
              f"{'match' if row['host_match'] else 'MISMATCH'}")
    print(f"(QEMU -icount instruction counts; cycles = instructions x CPI {cpi_lo}..{cpi_hi})")
if failures:
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sys.exit(1)
EOF
