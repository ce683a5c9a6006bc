#!/usr/bin/env python3
"""What one operation costs in the interpreter: a least-squares fit of the measured
median time per call of the straight-line units (butterfly.py --json, eager and lazy
rows, one backend at a time) against their operation counts,

    t = c0 + c_mul * mul + c_add * (add + sub) + c_red * reductions,

and the per-(q, N) summary table: each unit against the generic radix-2 network.

    python3 fit.py run1.jsonl [run2.jsonl ...]

Several files are pooled: the median of the medians per row key is used. r2-loop is
left out of the fit (its cost is the loop and index arithmetic, not the counted
operations). No dependencies.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict


def solve(a, b):
    """Gaussian elimination with partial pivoting, small dense systems."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def lstsq(xs, ys):
    k = len(xs[0])
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    return solve(ata, aty)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    acc = defaultdict(list)
    info = {}
    for p in sys.argv[1:]:
        for line in open(p):
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if r.get("kind") != "butterfly-python" or r.get("median_ns") is None:
                continue
            key = (r["backend"], r["modulus"], r["n"], r["variant"], r["mode"])
            acc[key].append(r["median_ns"])
            info[key] = r
    med = {k: statistics.median(v) for k, v in acc.items()}
    runs = {k: len(v) for k, v in acc.items()}
    for backend in sorted({k[0] for k in med}):
        ks = [k for k in med if k[0] == backend and k[3] != "r2-loop"]
        xs = [[1, info[k]["mul"], info[k]["add"] + info[k]["sub"], info[k]["reductions"]]
              for k in ks]
        ys = [med[k] for k in ks]
        c = lstsq(xs, ys)
        res = [y - sum(a * b for a, b in zip(x, c)) for x, y in zip(xs, ys)]
        rms = (sum(r * r for r in res) / len(res)) ** 0.5
        print(f"## backend {backend}: fit over {len(ks)} rows (files pooled: "
              f"{max(runs[k] for k in ks)} runs per row at most)")
        print(f"   t = {c[0]:.0f} ns + {c[1]:.1f} ns/mul + {c[2]:.1f} ns/add-or-sub "
              f"+ {c[3]:.1f} ns/reduction   (rms residual {rms:.0f} ns)")
        print(f"   {'q':>8} {'N':>3} {'unit':<9} {'mode':<5} {'median ns':>9} "
              f"{'vs r2-full':>10} {'vs r2-skip':>10}")
        for k in sorted(ks + [k for k in med if k[0] == backend and k[3] == "r2-loop"],
                        key=lambda k: (-k[1], k[2], k[4], k[3])):
            base = med.get((k[0], k[1], k[2], "r2-full", k[4]))
            skip = med.get((k[0], k[1], k[2], "r2-skip", k[4]))
            print(f"   {k[1]:>8} {k[2]:>3} {k[3]:<9} {k[4]:<5} {med[k]:>9.0f} "
                  f"{med[k] / base:>10.2f} {med[k] / skip:>10.2f}")


if __name__ == "__main__":
    main()
