#!/usr/bin/env python3
"""Markdown tables from the service load test's JSON lines.

Usage: cargo bench -p pqsig-server --bench loadtest -- --json > run.jsonl
       scripts/loadtest-report.py run.jsonl > table.md

One table per algorithm (op x endpoint x clients: items/s, p50/p99 latency, the library's
single-thread items/s in the same run and the ratio), then the batch-verify target line.
"""

import json
import sys


def main(paths):
    cells, targets = [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                row = json.loads(line)
                (targets if "target" in row else cells).append(row)
    algs = []
    for c in cells:
        if c["alg"] not in algs:
            algs.append(c["alg"])
    for alg in algs:
        rows = [c for c in cells if c["alg"] == alg]
        lib = {c["op"]: c["library_1thread_items_per_s"] for c in rows}
        print(f"**{alg}** (library, one thread: sign {lib.get('sign', 0):,.0f}/s, "
              f"verify {lib.get('verify', 0):,.0f}/s)\n")
        print("| op | endpoint | clients | items/s | p50 ms | p99 ms | × library 1 thread |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for c in rows:
            ep = c["endpoint"] if c["endpoint"] == "single" else f"batch of {c['batch']}"
            print(f"| {c['op']} | {ep} | {c['clients']} | {c['items_per_s']:,.0f} | "
                  f"{c['p50_ms']:.2f} | {c['p99_ms']:.2f} | {c['ratio']:.2f} |")
        print()
    for t in targets:
        ratios = " ".join(f"{100 * r:.0f}%" for r in t["ratios"])
        cores = " ".join(f"{u:.2f}" for u in t.get("http_cpu_cores_used", []))
        body = t.get("body", "json")
        clients = f", {t['clients']} clients" if "clients" in t else ""
        print(f"Target — {t['target']}, {body} body, batches of {t['batch']}{clients}: HTTP "
              f"{t['http_batch_items_per_s']:,.0f}/s vs library on {t['cores']} cores "
              f"{t['library_multicore_items_per_s']:,.0f}/s; median ratio "
              f"**{100 * t['ratio_median']:.0f}%** over {t['rounds']} interleaved rounds "
              f"({ratios}); CPU cores in use during the HTTP rounds: {cores}; "
              f"target 70%: {'met' if t['met'] else 'NOT met'}.\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
