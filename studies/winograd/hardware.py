#!/usr/bin/env python3
"""The hardware view of the butterfly units: modular multipliers, adders, subtractors and
path depths, read off the same dataflow graphs (units.py) that butterfly.py runs.

    python3 hardware.py                       # table, q = 8380417 and q = 12289
    python3 hardware.py --json                # JSON lines
    python3 hardware.py --t-mul 4 --t-add 1   # latencies for the weighted critical path

Per unit (a fully spatial, unrolled datapath: one operator per graph node):

  mul          modular multipliers (every "mul" node; multiplications by 1 are wires, except
               in r2-full and the single radix-2 butterfly, where every butterfly has its
               multiplier as in a generic pipelined radix-2 engine)
  add, sub     modular adders and subtractors (add/sub nodes)
  add depth    most adders/subtractors on any input-to-output path
  mul depth    most multipliers on any input-to-output path
  crit         the critical path for the given operator latencies (t-mul, t-add), as
               latency = a*t_add + m*t_mul, printed as "latency (a add + m mul)"
  csd          adders a shift-and-add constant multiplier would need for the unit's
               constants (sum over the mul nodes of nonzero CSD digits - 1), the
               multiplier-free alternative when the constants are fixed (n/a for the
               single radix-2 butterfly: an engine feeds it a different twiddle each time)
  cells        a crude area proxy in full-adder cells for w = bit length of q: a modular
               adder/subtractor = 2w (add, then conditional subtract of q), a modular
               multiplier = 2w^2 (w x w product plus a reduction of about the same size).
               Only for ranking; no synthesis behind it.

The counts do not depend on q; the widths (23 bits for 8380417, 14 bits for 12289), the
constants (hence csd) and the cell proxy do.
"""

from __future__ import annotations

import argparse
import json

import units as U


def csd_nonzeros(c: int) -> int:
    """Nonzero digits of c in canonical signed-digit form."""
    n = 0
    while c:
        if c & 1:
            d = 2 - (c & 3)  # +1 or -1
            c -= d
            n += 1
        c >>= 1
    return n


def row(g: U.Graph, label: str, n: int, t_mul: int, t_add: int) -> dict:
    q = g.q
    w = q.bit_length()
    c = g.count()
    d = g.depths(t_mul, t_add)
    csd = 0
    for kind, const in zip(g.kind, g.const):
        if kind == "mul":
            # the cheaper of c and q - c (a negated constant swaps the following add/sub)
            csd += max(0, min(csd_nonzeros(const), csd_nonzeros(q - const)) - 1)
    cells = (c["add"] + c["sub"]) * 2 * w + c["mul"] * 2 * w * w
    return {
        "kind": "butterfly-hw", "modulus": q, "bits": w, "unit": label, "n": n,
        "mul": c["mul"], "add": c["add"], "sub": c["sub"],
        "adder_depth": d["adder_depth"], "mul_depth": d["mul_depth"],
        "t_mul": t_mul, "t_add": t_add, "critical_latency": d["critical_latency"],
        "critical_adders": d["critical_adders"], "critical_muls": d["critical_muls"],
        "csd_adders": None if g.name == "r2-butterfly" else csd, "cells": cells,
    }


def rows(moduli, t_mul, t_add):
    out = []
    for q in moduli:
        out.append(row(U.build_r2_butterfly(q), "r2-butterfly", 2, t_mul, t_add))
        for n in U.SIZES:
            for unit in U.UNITS:
                out.append(row(U.build(unit, q, n), unit, n, t_mul, t_add))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moduli", default="8380417,12289")
    ap.add_argument("--t-mul", type=int, default=4, help="modular multiplier latency (cycles)")
    ap.add_argument("--t-add", type=int, default=1, help="modular adder latency (cycles)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    a = ap.parse_args()
    rs = rows([int(v) for v in a.moduli.split(",")], a.t_mul, a.t_add)
    if a.json:
        for r in rs:
            print(json.dumps(r))
        return
    cols = ["q (bits)", "unit", "N", "mul", "add", "sub", "add depth", "mul depth",
            f"crit (t_mul={a.t_mul}, t_add={a.t_add})", "csd", "cells"]
    table = []
    for r in rs:
        table.append([
            f"{r['modulus']} ({r['bits']})", r["unit"], str(r["n"]), str(r["mul"]),
            str(r["add"]), str(r["sub"]), str(r["adder_depth"]), str(r["mul_depth"]),
            f"{r['critical_latency']} ({r['critical_adders']} add + {r['critical_muls']} mul)",
            "n/a" if r["csd_adders"] is None else str(r["csd_adders"]), str(r["cells"]),
        ])
    if a.markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---" for _ in cols) + "|")
        for t in table:
            print("| " + " | ".join(t) + " |")
        return
    wd = [max(len(cols[i]), *(len(t[i]) for t in table)) for i in range(len(cols))]
    print("  ".join(c.ljust(wd[i]) for i, c in enumerate(cols)))
    for t in table:
        print("  ".join(v.ljust(wd[i]) for i, v in enumerate(t)))


if __name__ == "__main__":
    main()
