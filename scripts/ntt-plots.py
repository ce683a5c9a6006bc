#!/usr/bin/env python3
"""SVG plots of NTT timings per variant and backend, one plot per (modulus, n).

Usage:
    scripts/ntt-plots.py [--out DIR] [--kind KIND] [--metric FIELD] [--no-matplotlib]
                         bench.jsonl [more.jsonl ...]

Input: JSON lines (other lines are ignored), one object per measurement:

    {"kind": "ntt",                 # what was measured (--kind selects; default "ntt")
     "modulus": 8380417,            # q
     "n": 256,                      # transform length
     "variant": "radix2",           # NTT variant: radix2, radix4, merged, winograd8, ...
     "backend": "avx512",           # portable | avx2 | avx512 | gmpy2 | ...
     "direction": "forward",        # forward | inverse (default forward)
     "median_ticks": 342.0,         # the plotted value (--metric; default: median_ticks,
                                    #   else median_ns, whichever the rows have)
     "mode": "eager"}               # optional: appended to the series name

Extra fields are ignored. Two other shapes are read as well:
  - pqsig-bench kernel rows, {"alg": "ML-DSA" | "Falcon-512" | "Falcon-1024",
    "op": "ntt" | "intt", "backend": ..., "median_ticks": ...} (variant from a
    "variant" field, else "radix2"); they count as kind "ntt";
  - studies/winograd/butterfly.py --json rows (kind "butterfly-python"), plotted with
    --kind butterfly-python --metric median_ns.

Output: DIR/<kind>-q<modulus>-n<n>.svg (default DIR: plots/; --format png with matplotlib), grouped bars: one group
per variant, one bar per backend (and mode), one panel per direction. matplotlib is used
when it is importable; otherwise (or with --no-matplotlib) the SVG is written by hand, so
nothing here depends on matplotlib. When several rows share a key (repeated runs), the
bar shows their median and the label says how many.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict
from xml.sax.saxutils import escape

ALG = {"ML-DSA": (8380417, 256), "Falcon-512": (12289, 512), "Falcon-1024": (12289, 1024)}
BACKEND_ORDER = ["portable", "avx2", "avx512"]


def normalise(r: dict) -> dict | None:
    if "warning" in r:
        return None
    if "kind" not in r and r.get("op") in ("ntt", "intt") and r.get("alg") in ALG:
        q, n = ALG[r["alg"]]
        r = dict(r, kind="ntt", modulus=q, n=n,
                 direction="inverse" if r["op"] == "intt" else "forward")
        r.setdefault("variant", "radix2")
    if not all(k in r for k in ("kind", "modulus", "n", "variant", "backend")):
        return None
    r.setdefault("direction", "forward")
    return r


def load(paths: list[str]) -> list[dict]:
    rows = []
    for p in paths:
        with open(p) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = normalise(json.loads(line))
                if r is not None:
                    rows.append(r)
    return rows


def series_name(r: dict) -> str:
    return r["backend"] + (f"/{r['mode']}" if r.get("mode") else "")


def order(names, preferred):
    return sorted(names, key=lambda s: (preferred.index(s.split("/")[0])
                                        if s.split("/")[0] in preferred else 99, s))


def collect(rows: list[dict], kind: str, metric: str | None):
    """{(modulus, n): (metric, {direction: {variant: {series: (value, count)}}})}"""
    rows = [r for r in rows if r["kind"] == kind]
    plots = {}
    by_plot = defaultdict(list)
    for r in rows:
        by_plot[(r["modulus"], r["n"])].append(r)
    for key, rs in sorted(by_plot.items()):
        m = metric or ("median_ticks" if any(r.get("median_ticks") is not None for r in rs)
                       else "median_ns")
        acc = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
        for r in rs:
            if r.get(m) is None:
                continue
            acc[r["direction"]][r["variant"]][series_name(r)].append(float(r[m]))
        data = {d: {v: {s: (statistics.median(x), len(x)) for s, x in ss.items()}
                    for v, ss in vs.items()}
                for d, vs in acc.items()}
        if data:
            plots[key] = (m, data)
    return plots


def unit_label(metric: str) -> str:
    return {"median_ticks": "median TSC ticks per call",
            "median_ns": "median ns per call",
            "mean_ns": "mean ns per call"}.get(metric, metric)


# ---------------------------------------------------------------------------------------
# matplotlib
# ---------------------------------------------------------------------------------------
def plot_matplotlib(path, title, metric, data):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dirs = [d for d in ("forward", "inverse") if d in data] + \
        [d for d in data if d not in ("forward", "inverse")]
    fig, axes = plt.subplots(1, len(dirs), figsize=(6 * len(dirs), 4.2), squeeze=False)
    for ax, d in zip(axes[0], dirs):
        variants = sorted(data[d])
        series = order({s for v in variants for s in data[d][v]}, BACKEND_ORDER)
        width = 0.8 / max(1, len(series))
        for si, s in enumerate(series):
            xs, ys = [], []
            for vi, v in enumerate(variants):
                if s in data[d][v]:
                    xs.append(vi - 0.4 + width * (si + 0.5))
                    ys.append(data[d][v][s][0])
            bars = ax.bar(xs, ys, width, label=s)
            ax.bar_label(bars, fmt="%.0f", fontsize=7)
        ax.set_xticks(range(len(variants)), variants, rotation=20, ha="right")
        ax.set_ylabel(unit_label(metric))
        ax.set_title(d)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, format=path.rsplit(".", 1)[1])
    plt.close(fig)


# ---------------------------------------------------------------------------------------
# hand-written SVG (no dependencies)
# ---------------------------------------------------------------------------------------
COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
          "#ff9da7", "#9c755f", "#bab0ac"]


def plot_svg(path, title, metric, data):
    dirs = [d for d in ("forward", "inverse") if d in data] + \
        [d for d in data if d not in ("forward", "inverse")]
    pw, ph, ml, mb, mt = 460, 300, 70, 70, 50
    W, H = pw * len(dirs) + 20, ph + mb + mt + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="14">'
           f'{escape(title)}</text>']
    for di, d in enumerate(dirs):
        x0 = di * pw + ml
        aw, ah = pw - ml - 10, ph - 20
        y0 = mt + ah  # baseline
        variants = sorted(data[d])
        series = order({s for v in variants for s in data[d][v]}, BACKEND_ORDER)
        vmax = max(val for v in variants for val, _ in data[d][v].values()) or 1.0
        out.append(f'<text x="{x0 + aw / 2}" y="{mt - 8}" text-anchor="middle">'
                   f'{escape(d)}</text>')
        out.append(f'<line x1="{x0}" y1="{y0}" x2="{x0 + aw}" y2="{y0}" stroke="black"/>')
        out.append(f'<line x1="{x0}" y1="{mt}" x2="{x0}" y2="{y0}" stroke="black"/>')
        for t in range(5):
            val = vmax * t / 4
            y = y0 - ah * t / 4
            out.append(f'<line x1="{x0 - 4}" y1="{y:.1f}" x2="{x0}" y2="{y:.1f}" '
                       f'stroke="black"/>')
            out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">'
                       f'{val:.0f}</text>')
        out.append(f'<text transform="translate({x0 - 52},{mt + ah / 2}) rotate(-90)" '
                   f'text-anchor="middle">{escape(unit_label(metric))}</text>')
        gw = aw / max(1, len(variants))
        bw = gw * 0.8 / max(1, len(series))
        for vi, v in enumerate(variants):
            for si, s in enumerate(series):
                if s not in data[d][v]:
                    continue
                val, cnt = data[d][v][s]
                h = ah * val / vmax
                x = x0 + vi * gw + gw * 0.1 + si * bw
                col = COLORS[si % len(COLORS)]
                tip = f"{v} {s}: {val:.1f}" + (f" (median of {cnt})" if cnt > 1 else "")
                out.append(f'<rect x="{x:.1f}" y="{y0 - h:.1f}" width="{bw:.1f}" '
                           f'height="{h:.1f}" fill="{col}"><title>{escape(tip)}</title></rect>')
                out.append(f'<text x="{x + bw / 2:.1f}" y="{y0 - h - 3:.1f}" '
                           f'text-anchor="middle" font-size="9">{val:.0f}</text>')
            out.append(f'<text transform="translate({x0 + vi * gw + gw / 2:.1f},{y0 + 14}) '
                       f'rotate(20)" text-anchor="start">{escape(v)}</text>')
        for si, s in enumerate(series):
            ly = H - 22 + 0 * si
            lx = x0 + si * 110
            out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" '
                       f'fill="{COLORS[si % len(COLORS)]}"/>')
            out.append(f'<text x="{lx + 14}" y="{ly}">{escape(s)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", default="plots")
    ap.add_argument("--kind", default="ntt")
    ap.add_argument("--metric", default=None)
    ap.add_argument("--no-matplotlib", action="store_true")
    ap.add_argument("--format", choices=["svg", "png"], default="svg",
                    help="png needs matplotlib")
    a = ap.parse_args()
    plots = collect(load(a.inputs), a.kind, a.metric)
    if not plots:
        sys.exit(f"no rows of kind {a.kind!r} with a metric in {a.inputs}")
    use_mpl = not a.no_matplotlib
    if use_mpl:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            use_mpl = False
    if a.format == "png" and not use_mpl:
        sys.exit("--format png needs matplotlib (the fallback writes SVG only)")
    os.makedirs(a.out, exist_ok=True)
    for (q, n), (metric, data) in plots.items():
        path = os.path.join(a.out, f"{a.kind}-q{q}-n{n}.{a.format}")
        title = f"{a.kind}: q = {q}, n = {n}"
        (plot_matplotlib if use_mpl else plot_svg)(path, title, metric, data)
        print(f"{path} ({'matplotlib' if use_mpl else 'plain SVG'})")


if __name__ == "__main__":
    main()
