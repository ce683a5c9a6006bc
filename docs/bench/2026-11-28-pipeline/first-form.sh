#!/bin/bash
# usage: pipe-rt.sh OUTDIR REPS — the bench under SCHED_FIFO (card too), short
out=$1; reps=${2:-2}; mkdir -p $out
S=/tmp/pipe-card.sock
for rep in $(seq 1 $reps); do
 for bin in pqsig pqsig-new; do
  for cfg in "ML-DSA-44 64" "ML-DSA-65 64" "ML-DSA-44 256" "ML-DSA-65 256"; do
   set -- $cfg
   la=$(cut -d' ' -f1 /proc/loadavg)
   PQSIG_CARD=$S timeout 60 chrt -f 10 /tmp/pipe-base/$bin --device card bench --alg $1 --batch $2 --backend avx2 --iters 10 --time 0.3 --op verify_batch --json 2>/dev/null \
      | grep '"type":"batch"' | sed "s/^{/{\"bin\":\"$bin\",\"rep\":$rep,\"load\":$la,/" >> $out/card.jsonl
  done
  la=$(cut -d' ' -f1 /proc/loadavg)
  timeout 60 chrt -f 10 /tmp/pipe-base/$bin --device cpu bench --alg ML-DSA-65 --batch 64 --backend avx2 --iters 20 --time 0.3 --op verify_batch --json 2>/dev/null \
      | grep '"type":"batch"' | sed "s/^{/{\"bin\":\"$bin\",\"rep\":$rep,\"load\":$la,/" >> $out/cpu.jsonl
 done
done
