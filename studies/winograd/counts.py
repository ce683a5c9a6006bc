#!/usr/bin/env python3
"""Closed-form operation counts of full-length negacyclic NTTs built from radix-2,
radix-4 and Winograd radix-8 / radix-16 units, each checked by building the whole
dataflow graph (units.build_full), comparing its node counts with the closed form and
its outputs with the naive O(n^2) transform on random inputs.

    python3 counts.py            # table: q = 8380417, n = 256; q = 12289, n = 512, 1024
    python3 counts.py --json
    python3 counts.py --markdown

A stage of radix r over n coefficients is n/r units; each unit twists its r inputs
(r - 1 modular multiplications; for r = 2 this is the butterfly's twiddle) and runs the
cyclic r-point unit: (mul, add/sub) = (0, 2), (1, 8), (4, 26), (13, 74) for r = 2, 4, 8,
16. So

    mul    = sum over stages of n/r * (r - 1 + M_r)
    addsub = sum over stages of n/r * A_r

Radix 2 everywhere gives n/2*log2(n) multiplications and n*log2(n) additions/subtractions
(the FIPS 204 / Falcon forward NTT). The inverse (Gentleman-Sande) is the transposed
graph: the same multiplications and additions, plus the scaling by 1/n (n multiplications,
usually merged into the last layer's twiddles or the next pointwise product). Counts are of
modular operations; how many reductions software performs depends on its lazy-reduction
schedule (the instrumented Rust build counts those).
"""

from __future__ import annotations

import argparse
import json
import random

import units as U

PLANS = {
    (8380417, 256): [[2] * 8, [4] * 4, [8, 8, 4], [16, 4, 4], [16, 16]],
    (12289, 512): [[2] * 9, [4] * 4 + [2], [8, 8, 8], [16, 8, 4], [16, 16, 2]],
    (12289, 1024): [[2] * 10, [4] * 5, [8, 8, 8, 2], [16, 8, 8], [16, 16, 4]],
}


def check(g: U.Graph, trials: int) -> bool:
    q, n = g.q, g.n
    p = [pow(g.root, e, q) for e in range(2 * n)]
    for _ in range(trials):
        x = [random.randrange(q) for _ in range(n)]
        want = [sum(x[j] * p[(j * (2 * k + 1)) % (2 * n)] for j in range(n)) % q
                for k in range(n)]
        if g.evaluate(x) != want:
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--trials", type=int, default=3)
    a = ap.parse_args()
    random.seed(1)
    rows = []
    for (q, n), plans in PLANS.items():
        base = None
        for rs in plans:
            g = U.build_full(q, n, rs)
            c = g.count()
            cf = U.full_closed_form(n, rs)
            built = {"mul": c["mul"], "addsub": c["add"] + c["sub"]}
            if built != cf:
                raise SystemExit(f"count mismatch {q} {n} {rs}: graph {built} closed {cf}")
            if not check(g, a.trials):
                raise SystemExit(f"NOT EXACT {q} {n} {rs}")
            d = g.depths()
            base = base or built
            rows.append({
                "kind": "ntt-counts", "modulus": q, "n": n,
                "radices": "x".join(map(str, rs)), "mul": built["mul"],
                "addsub": built["addsub"], "mul_vs_radix2": round(built["mul"] / base["mul"], 3),
                "addsub_vs_radix2": round(built["addsub"] / base["addsub"], 3),
                "adder_depth": d["adder_depth"], "mul_depth": d["mul_depth"], "exact": True,
            })
    if a.json:
        for r in rows:
            print(json.dumps(r))
        return
    cols = ["q", "n", "radices", "mul", "add/sub", "mul vs r2", "add/sub vs r2",
            "adder depth", "mul depth"]
    keys = ["modulus", "n", "radices", "mul", "addsub", "mul_vs_radix2", "addsub_vs_radix2",
            "adder_depth", "mul_depth"]
    if a.markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---" for _ in cols) + "|")
        for r in rows:
            print("| " + " | ".join(str(r[k]) for k in keys) + " |")
        return
    wd = [max(len(c), *(len(str(r[k])) for r in rows)) for c, k in zip(cols, keys)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, wd)))
    for r in rows:
        print("  ".join(str(r[k]).ljust(w) for k, w in zip(keys, wd)))
    print("(every row: graph counts equal the closed form; outputs equal the naive "
          f"transform on {a.trials} random inputs)")


if __name__ == "__main__":
    main()
