#!/usr/bin/env python3
"""Vectors for tb/tb_w8bfu.v: the Winograd core's unit ntt_w8bfu in both directions,
Winograd and radix-2 passes mixed cycle by cycle, from the pass model of wino_check.py
(twist / cyclic transform / brv3 order; inverse: brv3, cyclic transform, index negation,
untwist; radix-2 butterflies on lane pairs), not from the RTL's formulas.

Files: vectors/units_q<q>_w8bfu_{fwd,inv}.hex, COUNT vectors of 24 words each: the r2
flag, 8 inputs, the lane factors c1..c7 in Montgomery form (R = 2^RB), 8 outputs.
Lane 0's factor is the power of two the unit applies by shifts (1 forward; 2^(3S)
inverse Winograd, 2^S inverse radix-2); forward radix-2 even lanes get 1.
"""
import os
import random

import wino_check as wc
import wino_schedule as ws

COUNT = 64


def gen(q, inv, outdir):
    rb = q.bit_length()
    R = pow(2, rb, q)
    S = 3 if q == 8380417 else -1
    rnd = random.Random(q * 2 + inv)
    out = []
    for v in range(COUNT):
        r2 = rnd.random() < 0.4
        x = [rnd.randrange(q) for _ in range(8)]
        if rnd.random() < 0.1:
            x = [rnd.choice([0, 1, q - 1]) for _ in range(8)]
        f = [rnd.randrange(1, q) for _ in range(8)]
        if r2:
            f[0] = ws.scale(q, S) if inv else 1
            if not inv:
                f[2] = f[4] = f[6] = 1
        else:
            f[0] = ws.scale(q, 3 * S) if inv else 1
        z = wc.unit(q, "r" if r2 else "w", inv, x, f)
        out += [int(r2)] + x + [f[i] * R % q for i in range(1, 8)] + z
    name = f"units_q{q}_w8bfu_{'inv' if inv else 'fwd'}.hex"
    with open(os.path.join(outdir, name), "w") as fh:
        fh.write("".join(f"{w:08x}\n" for w in out))


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tb", "vectors")
    for q in (8380417, 12289):
        for inv in (0, 1):
            gen(q, inv, out)
