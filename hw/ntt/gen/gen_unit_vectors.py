#!/usr/bin/env python3
"""Vectors for tb/tb_units.v: the Winograd radix-8 unit (ntt_wino8) and its radix-2
counterpart (ntt_r2x8), from direct models (not the RTL's formulas):

  wino8: X_k = sum_n x_n rho^n w^(nk) mod q, w = primitive 8th root (q = 8380417:
         1753^64; q = 12289: 7^256), rho random;
  r2x8:  three Cooley-Tukey layers (a' = a + t b, b' = a - t b) with random twiddles
         t1 (layer 1), t2, t3 (layer 2), t4..t7 (layer 3).

Files (hex, one word a line, COUNT vectors of 23 words each: 8 inputs, 7 constants in
Montgomery form R = 2^RB (rho^1..rho^7 or t1..t7), 8 expected outputs):
  vectors/units_q<q>_{wino8,r2x8}.hex
"""
import os
import random

COUNT = 64


def gen(q, g, e, outdir):
    rb = q.bit_length()
    R = pow(2, rb, q)
    w = pow(g, e, q)
    rnd = random.Random(q)
    wino, r2 = [], []
    for _ in range(COUNT):
        x = [rnd.randrange(q) for _ in range(8)]
        if rnd.random() < 0.1:
            x = [rnd.choice([0, 1, q - 1]) for _ in range(8)]
        rho = rnd.randrange(1, q)
        X = [sum(x[n] * pow(rho, n, q) * pow(w, n * k, q) for n in range(8)) % q
             for k in range(8)]
        wino += x + [pow(rho, n, q) * R % q for n in range(1, 8)] + X
        t = [rnd.randrange(q) for _ in range(8)]
        a = list(x)
        for layer, (ln, tw) in enumerate([(4, [1]), (2, [2, 3]), (1, [4, 5, 6, 7])]):
            for grp, ti in enumerate(tw):
                start = grp * 2 * ln
                for j in range(start, start + ln):
                    u, v = a[j], a[j + ln] * t[ti] % q
                    a[j], a[j + ln] = (u + v) % q, (u - v) % q
        r2 += x + [t[i] * R % q for i in range(1, 8)] + a
    for name, data in (("wino8", wino), ("r2x8", r2)):
        with open(os.path.join(outdir, f"units_q{q}_{name}.hex"), "w") as f:
            f.write("".join(f"{v:08x}\n" for v in data))


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tb", "vectors")
    gen(8380417, 1753, 64, out)
    gen(12289, 7, 256, out)
