#!/usr/bin/env python3
"""Summarises liboqs speed_sig outputs written by run.sh: mean µs per operation for the
unpatched reference build, the patched build on pqsig's CPU kernels, and on the card.

usage: speed_summary.py OUTDIR ALG...   (reads OUTDIR/speed_{ref,pqsig-cpu,card}_ALG.txt)
"""
import sys
from pathlib import Path

RUNS = [("ref", "unpatched ref"), ("pqsig-cpu", "pqsig CPU"), ("card", "card (timed)")]
OPS = ["keypair", "sign", "verify"]


def means(path):
    """{operation: mean µs} from one speed_sig table."""
    out = {}
    for line in Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 4 and cells[0] in OPS and cells[1].isdigit():
            out[cells[0]] = float(cells[3])
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir, algs = Path(sys.argv[1]), sys.argv[2:]
    head = "| set | operation | " + " | ".join(f"{label} µs" for _, label in RUNS) + " | card / ref |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for alg in algs:
        m = {run: means(outdir / f"speed_{run}_{alg}.txt") for run, _ in RUNS}
        for op in OPS:
            vals = [m[run].get(op) for run, _ in RUNS]
            if None in vals:
                sys.exit(f"speed_summary: {alg} {op} missing in a speed_sig output")
            ratio = vals[2] / vals[0]
            print(f"| {alg} | {op} | " + " | ".join(f"{v:.1f}" for v in vals) + f" | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
