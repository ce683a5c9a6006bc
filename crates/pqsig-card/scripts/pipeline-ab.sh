#!/usr/bin/env bash
# A/B of ML-DSA verify_batch through the pooled timed card: two pqsig binaries (e.g. a
# build before the pipelined verification and one after), interleaved, same card.
#
#   crates/pqsig-card/scripts/pipeline-ab.sh BEFORE_BIN AFTER_BIN OUTDIR [REPS] [--fifo]
#
# Rows: ML-DSA-44/65 x batch 64/256, keys as objects and encodings (the bench's
# verify_batch rows, AVX2), plus the no-device CPU rows of ML-DSA-65 batch 64 (the CPU
# path must not change). Each line of OUTDIR/card.jsonl and cpu.jsonl is a bench row
# with "bin", "rep" and "load" (1-minute load average when the run started) added.
# --fifo runs the card and the benchmarks under SCHED_FIFO (chrt -f 10; needs
# CAP_SYS_NICE): on a machine loaded by other work that stands in for a quiet one (the
# runs are short: about 10 s per repetition). Prints a summary (medians over reps).
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n 2,13p "$0"; exit 2; }
before=$1 after=$2 out=$3 reps=${4:-3} fifo=${5:-}
mkdir -p "$out"
rt=()
[[ $fifo == --fifo ]] && rt=(chrt -f 10)
sock=$(mktemp -u /tmp/pqsig-pipeline-ab-XXXXXX.sock)
"${rt[@]}" "$after" card --accel timed --socket "$sock" >"$out/card.log" 2>&1 &
card=$!
trap 'kill $card 2>/dev/null || true; rm -f "$sock"' EXIT
for _ in $(seq 50); do [[ -S $sock ]] && break; sleep 0.1; done

row() { # BIN REP FILE ARGS...: the bench's batch rows, tagged
    local bin=$1 rep=$2 file=$3 la
    shift 3
    la=$(cut -d' ' -f1 /proc/loadavg)
    PQSIG_CARD=$sock timeout 120 "${rt[@]}" "$bin" "$@" --backend avx2 --time 0.3 \
        --op verify_batch --json 2>/dev/null |
        grep '"type":"batch"' |
        sed "s|^{|{\"bin\":\"$(basename "$bin")\",\"side\":\"$side\",\"rep\":$rep,\"load\":$la,|" >>"$out/$file"
}
for rep in $(seq "$reps"); do
    for side in before after; do
        bin=$before
        [[ $side == after ]] && bin=$after
        for cfg in "ML-DSA-44 64" "ML-DSA-65 64" "ML-DSA-44 256" "ML-DSA-65 256"; do
            set -- $cfg
            row "$bin" "$rep" card.jsonl --device card bench --alg "$1" --batch "$2" --iters 10
        done
        row "$bin" "$rep" cpu.jsonl bench --alg ML-DSA-65 --batch 64 --iters 30
    done
done
python3 - "$out" <<'EOF'
import collections, json, statistics as st, sys
out = sys.argv[1]
g = collections.defaultdict(list)
for l in open(f"{out}/card.jsonl"):
    r = json.loads(l)
    if r["threads"] == 1:
        g[(r["algorithm"], r["batch"], r["api"], r["side"])].append(r)
print("alg batch api side: overhead_frac median [min-max]; e2e = host + transfer + wait; device (µs, medians); requests; load")
for k in sorted(g):
    v = g[k]
    o = [r["overhead_frac"] for r in v]
    m = lambda f: st.median(r[f] for r in v) / 1e3
    print(f"{k[0]} {k[1]} {k[2]} {k[3]}: {st.median(o):.3f} [{min(o):.3f}-{max(o):.3f}]; "
          f"{m('e2e_ns'):.0f} = {m('host_ns'):.0f} + {m('transfer_ns'):.0f} + {m('wait_ns'):.0f}; "
          f"{m('device_ns'):.0f}; {v[0]['requests_per_call']}; "
          f"{min(r['load'] for r in v)}-{max(r['load'] for r in v)}")
c = collections.defaultdict(list)
for l in open(f"{out}/cpu.jsonl"):
    r = json.loads(l)
    c[(r["api"], r["threads"], r["side"])].append(r["median_ns"])
for k in sorted(c):
    print(f"cpu ML-DSA-65 64 {k[0]} threads {k[1]} {k[2]}: {st.median(c[k]) / 1e3:.1f} µs/item")
EOF
