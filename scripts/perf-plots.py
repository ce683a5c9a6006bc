#!/usr/bin/env python3
"""SVG plots of the scheme benchmark: one plot per algorithm, one panel per operation.

Usage:
    scripts/perf-plots.py [--out DIR] [--no-matplotlib] bench.jsonl [more.jsonl ...]

Input: the JSON lines of `pqsig-bench --json` (scheme rows: "alg", "op" in keygen / sign /
verify, "impl", "backend", "api", "median_ns"; kernel rows and warnings are ignored).
Output: DIR/perf-<alg>.svg (default DIR: docs/plots). In each panel the groups are the
implementations — pqsig once per backend, each peer once — and the bars are the API forms
(`object`, `expanded`, `bytes`, as in docs/PERFORMANCE.md), so pqsig's forms sit next to
the peers' (which decode keys in every call, like `bytes`). Values are median µs per
operation. The drawing is scripts/ntt-plots.py's (matplotlib when importable, otherwise a
hand-written SVG), so nothing here needs a plotting library.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections import defaultdict

_spec = importlib.util.spec_from_file_location(
    "ntt_plots", os.path.join(os.path.dirname(os.path.abspath(__file__)), "ntt-plots.py"))
ntt_plots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ntt_plots)

OPS = ("keygen", "sign", "verify")
BACKENDS = ("portable", "avx2", "avx512", "neon")
METRIC = "median µs per operation"


def group_name(r: dict) -> str:
    if r["impl"] == "pqsig":
        return f"pqsig {r['backend']}"
    return r["impl"]


def group_key(g: str):
    if g.startswith("pqsig "):
        b = g.split(" ", 1)[1]
        return (0, BACKENDS.index(b) if b in BACKENDS else 9, g)
    return (1, 0, g)


def collect(paths: list[str]):
    """{alg: {op: {group: {api: (µs, 1)}}}}, groups in report order."""
    plots = defaultdict(lambda: defaultdict(dict))
    for p in paths:
        with open(p) as f:
            for line in f:
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                if "warning" in r or r.get("op") not in OPS or r.get("fpr") == "emulated":
                    continue
                g = group_name(r)
                plots[r["alg"]][r["op"]].setdefault(g, {})[r.get("api") or "bytes"] = (
                    r["median_ns"] / 1000.0, 1)
    return plots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", default="docs/plots")
    ap.add_argument("--no-matplotlib", action="store_true")
    a = ap.parse_args()
    plots = collect(a.inputs)
    if not plots:
        sys.exit(f"no scheme rows in {a.inputs}")
    use_mpl = not a.no_matplotlib
    if use_mpl:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            use_mpl = False
    os.makedirs(a.out, exist_ok=True)
    # The drawing code orders groups alphabetically and series by backend name; give it
    # group labels that sort in report order (pqsig backends first, then the peers).
    for alg, ops in sorted(plots.items()):
        data = {}
        for op in OPS:
            if op not in ops:
                continue
            groups = sorted(ops[op], key=group_key)
            data[op] = {f"{i:02d} {g}": ops[op][g] for i, g in enumerate(groups, 1)}
        path = os.path.join(a.out, f"perf-{alg}.svg")
        title = f"{alg}: median µs per operation (pqsig per backend and API form; peers)"
        (ntt_plots.plot_matplotlib if use_mpl else ntt_plots.plot_svg)(path, title, METRIC, data)
        print(f"{path} ({'matplotlib' if use_mpl else 'plain SVG'})")


if __name__ == "__main__":
    main()
