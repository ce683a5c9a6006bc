#!/usr/bin/env python3
"""SVG plots of the offload study (docs/OFFLOAD.md) from a measure.sh output directory.

    python3 crates/pqsig-card/scripts/offload-plots.py RUNDIR [OUTDIR]   # OUTDIR: docs/plots

Reads RUNDIR/kernel.jsonl (pqsig bench ntt/intt rows, card devices, both accelerators),
RUNDIR/ops.jsonl (verify_batch / sign_batch rows: card kernel devices, whole-op card,
CPU), RUNDIR/cpu_ntt.jsonl (examples/cpu_ntt) and writes, with no dependency beyond the
standard library (the SVG is written by hand):

  offload-kernel-throughput.svg  polynomials/s against batch size, NTT: each driver mode
                                 and accelerator, the cycle model's limit, the CPU backends
  offload-kernel-overhead.svg    overhead_frac against batch size (the design's 0.84 and
                                 the 0.20 target drawn)
  offload-breakdown.svg          where one call's time goes (median call), stacked:
                                 per-call and pooled at 4 and 64 polynomials, the design's
                                 101.9 µs call beside them
  offload-ops-throughput.svg     verify_batch / sign_batch items/s against batch size
                                 (ML-DSA-65, one thread): kernel offload, whole-op, CPU
Every figure plotted is a row's median figure as measured (operation rows: median ns per
item; kernel rows and the breakdown: the median call); nothing is fitted.
"""
import json
import math
import os
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#17becf", "#bcbd22"]


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Plot:
    """A log-log (or log-x, linear-y) line chart."""

    def __init__(self, title, xlabel, ylabel, logy=True, w=760, h=460):
        self.title, self.xlabel, self.ylabel, self.logy = title, xlabel, ylabel, logy
        self.w, self.h = w, h
        self.series = []  # (name, [(x, y)], dashed)
        self.hlines = []  # (y, label)

    def add(self, name, pts, dashed=False):
        pts = sorted((x, y) for x, y in pts if x > 0 and (y > 0 or not self.logy))
        if pts:
            self.series.append((name, pts, dashed))

    def svg(self):
        L, R, T, B = 80, 230, 40, 55
        xs = [x for _, p, _ in self.series for x, _ in p]
        ys = [y for _, p, _ in self.series for _, y in p] + [y for y, _ in self.hlines]
        x0, x1 = math.log10(min(xs)), math.log10(max(xs))
        if x1 == x0:
            x1 += 1
        if self.logy:
            y0 = math.floor(math.log10(min(ys)))
            y1 = math.ceil(math.log10(max(ys)))
        else:
            y0, y1 = 0.0, max(1.0, max(ys) * 1.05)
        pw, ph = self.w - L - R, self.h - T - B

        def px(x):
            return L + (math.log10(x) - x0) / (x1 - x0) * pw

        def py(y):
            v = math.log10(y) if self.logy else y
            return T + ph - (v - y0) / (y1 - y0) * ph

        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}" height="{self.h}" '
               f'font-family="sans-serif" font-size="12">',
               f'<rect width="{self.w}" height="{self.h}" fill="white"/>',
               f'<text x="{self.w / 2}" y="22" text-anchor="middle" font-size="14">{esc(self.title)}</text>',
               f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>']
        # x ticks at the measured batch sizes
        for x in sorted(set(xs)):
            X = px(x)
            out.append(f'<line x1="{X:.1f}" y1="{T + ph}" x2="{X:.1f}" y2="{T + ph + 5}" stroke="#444"/>')
            out.append(f'<text x="{X:.1f}" y="{T + ph + 18}" text-anchor="middle">{x:g}</text>')
        if self.logy:
            ticks = [10 ** e for e in range(int(y0), int(y1) + 1)]
        else:
            step = 10 ** math.floor(math.log10(y1 / 2)) if y1 > 0 else 1
            step = step * (2 if y1 / step > 10 else 1)
            ticks = [i * step for i in range(int(y1 / step) + 1)]
        for y in ticks:
            Y = py(y)
            out.append(f'<line x1="{L}" y1="{Y:.1f}" x2="{L + pw}" y2="{Y:.1f}" stroke="#ddd"/>')
            label = f"{y:g}" if not self.logy or y < 1e5 else f"1e{int(round(math.log10(y)))}"
            out.append(f'<text x="{L - 6}" y="{Y + 4:.1f}" text-anchor="end">{label}</text>')
        out.append(f'<text x="{L + pw / 2}" y="{self.h - 12}" text-anchor="middle">{esc(self.xlabel)}</text>')
        out.append(f'<text x="18" y="{T + ph / 2}" text-anchor="middle" '
                   f'transform="rotate(-90 18 {T + ph / 2})">{esc(self.ylabel)}</text>')
        for y, label in self.hlines:
            Y = py(y)
            out.append(f'<line x1="{L}" y1="{Y:.1f}" x2="{L + pw}" y2="{Y:.1f}" stroke="#000" '
                       f'stroke-dasharray="2,3"/>')
            out.append(f'<text x="{L + 4}" y="{Y - 4:.1f}" font-size="11">{esc(label)}</text>')
        for i, (name, pts, dashed) in enumerate(self.series):
            c = COLORS[i % len(COLORS)]
            d = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
            dash = ' stroke-dasharray="6,4"' if dashed else ""
            out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"{dash}/>')
            for x, y in pts:
                out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
            ly = T + 14 + 18 * i
            out.append(f'<line x1="{L + pw + 12}" y1="{ly - 4}" x2="{L + pw + 36}" y2="{ly - 4}" '
                       f'stroke="{c}" stroke-width="2"{dash}/>')
            out.append(f'<text x="{L + pw + 42}" y="{ly}">{esc(name)}</text>')
        out.append("</svg>")
        return "\n".join(out)


def stacked(title, bars, parts, w=760, h=460):
    """Horizontal stacked bars: bars = [(label, {part: µs})]; parts = [(key, name)]."""
    L, R, T, B = 190, 30, 40, 90
    pw = w - L - R
    bh = (h - T - B) / max(1, len(bars))
    top = max(sum(v.values()) for _, v in bars)
    scale = pw / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" '
           f'font-size="12">', f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="14">{esc(title)}</text>']
    for i, (label, v) in enumerate(bars):
        y = T + i * bh + 4
        out.append(f'<text x="{L - 6}" y="{y + bh / 2}" text-anchor="end">{esc(label)}</text>')
        x = L
        for j, (k, _) in enumerate(parts):
            wd = v.get(k, 0) * scale
            if wd > 0:
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{wd:.1f}" height="{bh - 10:.1f}" '
                           f'fill="{COLORS[j % len(COLORS)]}"/>')
            x += wd
        out.append(f'<text x="{min(x + 4, w - R - 60):.1f}" y="{y + bh / 2}">{sum(v.values()):.1f} µs</text>')
    for j, (_, name) in enumerate(parts):
        lx, ly = L + (j % 4) * 150, h - B + 30 + (j // 4) * 18
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{COLORS[j % len(COLORS)]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{esc(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def main():
    run = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/plots"
    os.makedirs(out, exist_ok=True)
    kern = rows(f"{run}/kernel.jsonl")
    ops = rows(f"{run}/ops.jsonl")
    cpu = rows(f"{run}/cpu_ntt.jsonl")
    # The cycle model's limit: the device time the timed card reports for a call
    # (its cycle counters at the clock), i.e. the rate with zero host overhead.
    model = {r["batch"]: r for r in kern
             if r["op"] == "ntt" and r["accel"] == "timed" and r["device_mode"] == "pooled"}

    def per_poly_ns(r):
        return r["e2e_ns"] / r["batch"]

    # 1. kernel throughput (NTT)
    p = Plot("ML-DSA NTT through the card: polynomials per second (median call)",
             "polynomials per call", "polynomials / s")
    for accel in ("timed", "rtl"):
        for mode in ("pooled", "per-call"):
            pts = [(r["batch"], 1e9 / per_poly_ns(r)) for r in kern
                   if r["op"] == "ntt" and r["accel"] == accel and r["device_mode"] == mode]
            p.add(f"{mode}, {accel}", pts, dashed=accel == "rtl")
    if model:
        p.add("cycle model limit", [(b, 1e9 * b / m["device_ns"]) for b, m in model.items()])
    for b in sorted({r["backend"] for r in cpu}):
        p.add(f"CPU {b} (1 core)", [(r["batch"], 1e9 / r["ns_per_poly"]) for r in cpu
                                    if r["backend"] == b and r["op"] == "ntt"], dashed=True)
    open(f"{out}/offload-kernel-throughput.svg", "w").write(p.svg())

    # 2. kernel overhead_frac
    p = Plot("overhead_frac = (end-to-end − device time) / end-to-end (median call)",
             "polynomials per call", "overhead_frac", logy=False)
    p.hlines = [(0.84, "the design: 0.84 (101.9 µs call, 15.87 µs compute)"), (0.20, "target 0.20")]
    for accel in ("timed", "rtl"):
        for mode in ("pooled", "per-call"):
            for op in ("ntt", "intt"):
                pts = [(r["batch"], r["overhead_frac"]) for r in kern if r["op"] == op
                       and r["accel"] == accel and r["device_mode"] == mode]
                p.add(f"{mode} {accel} {op}", pts, dashed=accel == "rtl")
    open(f"{out}/offload-kernel-overhead.svg", "w").write(p.svg())

    # 3. breakdown of one call
    parts = [("device", "device time (cycles at 125 MHz)"), ("waitx", "waiting beyond device time"),
             ("copies", "copies in + out"), ("alloc", "ALLOC/FREE + mmap/munmap"),
             ("ring", "register writes + doorbell"), ("other", "other host work (seam, staging)"),
             ("overhead", "the design: driver overhead")]
    bars = [("the design, batch 4", {"device": 15.87, "overhead": 101.9 - 15.87})]
    for mode, batch in (("per-call", 4), ("pooled", 4), ("per-call", 64), ("pooled", 64)):
        for r in kern:
            if r["op"] == "ntt" and r["accel"] == "timed" and r["device_mode"] == mode and r["batch"] == batch:
                alloc, ring = r.get("alloc_ns", 0), r.get("ring_ns", 0)
                v = {"device": min(r["device_ns"], r["wait_ns"]),
                     "waitx": max(0, r["wait_ns"] - r["device_ns"]),
                     "copies": r["transfer_ns"], "alloc": alloc, "ring": ring,
                     "other": max(0, r["host_ns"] - alloc - ring)}
                bars.append((f"{mode}, batch {batch}", {k: x / 1e3 for k, x in v.items()}))
    open(f"{out}/offload-breakdown.svg", "w").write(
        stacked("One NTT call, median (µs): where the time goes", bars, parts))

    # 4. operation level, ML-DSA-65, one thread
    p = Plot("ML-DSA-65, one thread: items per second (median call)", "items per call", "items / s")
    for op in ("verify_batch", "sign_batch"):
        for label, sel in (("CPU", lambda r: r.get("device") == "cpu"),
                           ("card pooled timed", lambda r: r.get("device_mode") == "pooled" and r.get("accel") == "timed"),
                           ("card per-call timed", lambda r: r.get("device_mode") == "per-call" and r.get("accel") == "timed"),
                           ("card pooled rtl", lambda r: r.get("device_mode") == "pooled" and r.get("accel") == "rtl"),
                           ("whole-op card", lambda r: r.get("device_mode") == "whole-op")):
            pts = [(r["batch"], 1e9 / r["median_ns"])
                   for r in ops if r.get("algorithm") == "ML-DSA-65" and r["op"] == op and r.get("threads") == 1
                   and r.get("api") == "object" and sel(r)]
            p.add(f"{op} {label}", pts, dashed=op == "sign_batch")
    open(f"{out}/offload-ops-throughput.svg", "w").write(p.svg())
    print(f"offload-plots.py: 4 plots in {out}")


if __name__ == "__main__":
    main()
