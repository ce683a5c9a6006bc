#!/usr/bin/env python3
"""Resource counts and LUT depth of a Yosys synth_xilinx netlist (write_json output).

Usage: netlist_stats.py net.json  ->  one JSON object on stdout:
  lut   LUT1..LUT6 cells + LUTs used as memory (SRL16E/SRLC32E = 1, RAM32M = 4,
        RAM64M = 4, RAM32X1D/RAM64X1D = 2, RAM128X1D = 4): Vivado's "Slice LUTs" view
  ff    FDRE/FDSE/FDCE/FDPE
  dsp   DSP48E1
  bram  block RAM in 36 Kb units (RAMB36E1 = 1, RAMB18E1 = 0.5)
  lut_levels  the most LUTs on any path between sequential elements or ports
        (registers, block RAM, DSP, LUTRAM and I/O cut paths; CARRY4 and MUXF7/F8
        count 0 levels, LUTs 1): the logic depth of the synthesised netlist. No timing
        model, so no Fmax.
"""
import json
import sys
from collections import defaultdict

LUTS = {f"LUT{i}" for i in range(1, 7)}
ZERO = {"CARRY4", "MUXF7", "MUXF8", "INV", "BUFG", "IBUF", "OBUF"}
LUTMEM = {"SRL16E": 1, "SRLC32E": 1, "RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2,
          "RAM64X1D": 2, "RAM128X1D": 4, "RAM32X1S": 1, "RAM64X1S": 1}
FF = {"FDRE", "FDSE", "FDCE", "FDPE"}


def main(path):
    net = json.load(open(path))
    mods = net["modules"]
    top = [m for m, v in mods.items() if v.get("attributes", {}).get("top")]
    mod = mods[top[0]] if top else max(mods.values(), key=lambda v: len(v.get("cells", {})))
    cells = mod["cells"]
    count = defaultdict(int)
    for c in cells.values():
        count[c["type"]] += 1
    lut = sum(count[t] for t in LUTS) + sum(count[t] * w for t, w in LUTMEM.items())
    ff = sum(count[t] for t in FF)
    dsp = count["DSP48E1"]
    bram = count["RAMB36E1"] + 0.5 * count["RAMB18E1"]

    # combinational graph: bit -> driving comb cell; comb cell -> input bits
    comb = {n: c for n, c in cells.items() if c["type"] in LUTS or c["type"] in ZERO}
    driver = {}
    for n, c in comb.items():
        for p, d in c.get("port_directions", {}).items():
            if d == "output":
                for b in c["connections"][p]:
                    if isinstance(b, int):
                        driver[b] = n
    inputs = {}
    for n, c in comb.items():
        bits = []
        for p, d in c.get("port_directions", {}).items():
            if d == "input":
                bits += [b for b in c["connections"][p] if isinstance(b, int)]
        inputs[n] = bits
    depth = {}
    sys.setrecursionlimit(100000)

    def dep(n):
        if n in depth:
            return depth[n]
        depth[n] = 0  # guards against combinational loops
        best = 0
        for b in inputs[n]:
            d = driver.get(b)
            if d is not None:
                best = max(best, dep(d))
        depth[n] = best + (1 if comb[n]["type"] in LUTS else 0)
        return depth[n]

    levels = max((dep(n) for n in comb), default=0)
    print(json.dumps({"lut": lut, "ff": ff, "dsp": dsp, "bram": bram, "lut_levels": levels,
                      "cells": dict(sorted(count.items()))}))


if __name__ == "__main__":
    main(sys.argv[1])
