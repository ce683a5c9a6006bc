#!/usr/bin/env python3
"""Turn `pqsig-bench --json` output into the Markdown tables of docs/PERFORMANCE.md.

Usage: scripts/bench-report.py bench.jsonl > tables.md

For every (algorithm, operation): each pqsig backend and API form as a ratio to the
fastest peer measured in the same run, plus the peers themselves; then the kernel rows.
"""
import json
import sys
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
schemes = [r for r in rows if r["op"] in ("keygen", "sign", "verify")]
kernels = [r for r in rows if r["op"] not in ("keygen", "sign", "verify")]

by = defaultdict(list)
for r in schemes:
    by[(r["alg"], r["op"])].append(r)

algs = sorted({r["alg"] for r in schemes})
print("### Summary: pqsig median / fastest peer median (same run; < 1 is faster)\n")
forms = sorted({(r["backend"], r.get("api", "")) for r in schemes if r["impl"] == "pqsig"},
               key=lambda x: (["portable", "avx2", "avx512"].index(x[0]) if x[0] in ("portable", "avx2", "avx512") else 9, x[1]))
print("| alg | op | fastest peer (µs) | " + " | ".join(f"{b} {a}" for b, a in forms) + " |")
print("|---|---|---|" + "---|" * len(forms))
for alg in algs:
    for op in ("keygen", "sign", "verify"):
        rs = by[(alg, op)]
        peers = [r for r in rs if r["impl"] != "pqsig"]
        if not peers:
            continue
        best = min(peers, key=lambda r: r["median_ns"])
        cells = []
        for b, a in forms:
            m = [r for r in rs if r["impl"] == "pqsig" and r["backend"] == b and r.get("api", "") == a]
            cells.append(f"{m[0]['median_ns'] / best['median_ns']:.2f}" if m else "-")
        print(f"| {alg} | {op} | {best['median_ns'] / 1000:.1f} ({best['impl']}) | " + " | ".join(cells) + " |")

print("\n### All rows (median µs, median TSC ticks)\n")
print("| alg | op | impl | backend | api | µs | ticks | vs fastest peer | note |")
print("|---|---|---|---|---|---|---|---|---|")
for alg in algs:
    for op in ("keygen", "sign", "verify"):
        rs = by[(alg, op)]
        peers = [r for r in rs if r["impl"] != "pqsig"]
        best = min(r["median_ns"] for r in peers) if peers else None
        for r in rs:
            ratio = f"{r['median_ns'] / best:.2f}" if best else "-"
            print(f"| {alg} | {op} | {r['impl']} | {r['backend']} | {r.get('api', '')} | "
                  f"{r['median_ns'] / 1000:.2f} | {r['median_ticks']:.0f} | {ratio} | {r.get('note', '')} |")

if kernels:
    print("\n### Kernels alone (one polynomial per call)\n")
    print("| alg | op | backend | ns | ticks |")
    print("|---|---|---|---|---|")
    for r in kernels:
        print(f"| {r['alg']} | {r['op']} | {r['backend']} | {r['median_ns']:.0f} | {r['median_ticks']:.0f} |")
