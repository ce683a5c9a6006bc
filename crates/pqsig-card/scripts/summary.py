#!/usr/bin/env python3
"""Prints the tables of a measure.sh output directory (figures of the median call)."""
import json
import sys

out = sys.argv[1]


def rows(name):
    with open(f"{out}/{name}") as f:
        return [json.loads(line) for line in f if line.strip()]


print(open(f"{out}/env.txt").read())
print("kernel rows: accel mode op batch | e2e_us host transfer wait device | overhead (median call) mean")
for r in rows("kernel.jsonl"):
    print(f"{r['accel']:5} {r['device_mode']:8} {r['op']:4} {r['batch']:5} | {r['e2e_ns']/1e3:9.1f} {r['host_ns']/1e3:8.1f} "
          f"{r['transfer_ns']/1e3:7.1f} {r['wait_ns']/1e3:9.1f} {r['device_ns']/1e3:9.1f} | "
          f"{r['overhead_frac']:.3f} {r['overhead_frac_mean']:.3f}")
print("\nop rows: mode alg op api batch threads | e2e_us host transfer wait device | overhead requests")
for r in rows("ops.jsonl"):
    if "device_mode" not in r:
        print(f"cpu      {r['algorithm']} {r['op']:12} {r['api']:6} {r['batch']:4} {r['threads']} | "
              f"{r['median_ns']/1e3:10.1f} µs/item")
        continue
    print(f"{r['accel']:5} {r['device_mode']:8} {r['algorithm']} {r['op']:12} {r['api']:6} {r['batch']:4} {r['threads']} | "
          f"{r['e2e_ns']/1e3:10.1f} {r['host_ns']/1e3:10.1f} {r['transfer_ns']/1e3:8.1f} {r['wait_ns']/1e3:10.1f} "
          f"{r['device_ns']/1e3:9.1f} | {r['overhead_frac']:.3f} {r['requests_per_call']}")
print("\nstream (card's sustained rate vs the cycle model):")
for r in rows("stream.jsonl") if __import__("os").path.exists(f"{out}/stream.jsonl") else []:
    print(f"  {r['polys']:4} polys/request: {r['requests_per_s']:6} req/s, model_rate_frac {r['model_rate_frac']}")
print("\ndoorbell (no-op round trips, ns):")
for r in rows("doorbell.jsonl"):
    print(f"  gap {r['gap_us']} us, host spin {r['spin_us']} us: p10 {r['p10_ns']} median {r['median_ns']} "
          f"p90 {r['p90_ns']} p99 {r['p99_ns']}")
