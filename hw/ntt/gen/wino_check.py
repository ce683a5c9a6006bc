#!/usr/bin/env python3
"""Checks the Winograd core's schedule (wino_schedule.py, the source of the ROMs that
ntt_core_w8.v runs) for every (q, n) and both directions:

 1. banks: the 8 points of every pass cycle, and the 8 points of every bus beat, sit in
    8 different banks (one read and one write per bank per cycle);
 2. coverage: every pass touches every point exactly once;
 3. no read-after-write stall: a pass cycle issued c' cycles after the cycle of the
    previous pass that wrote one of its points must have c' >= W, where W is the
    core's issue-to-readable distance (16: ROM 1 + bank read 1 + unit 14); the largest
    W without a stall is printed per configuration;
 4. arithmetic: a model of the passes (Winograd unit: twist, 8-point cyclic transform,
    output order brv3; inverse: input brv3, cyclic transform, index negation, untwist;
    radix-2 passes with their per-lane twiddles) equals the library's radix-2
    Cooley-Tukey / Gentleman-Sande transform built from the same twiddle tables, on
    random and edge inputs, and the kernel vectors in hw/ntt/tb/vectors where present.

Usage: wino_check.py [W]   (default 16); exits 1 on any failure.
"""
import os
import random
import sys

import wino_schedule as ws

HERE = os.path.dirname(os.path.abspath(__file__))


def ref_transform(q, n, inv, a):
    w, iw, S = ws.true_twiddles(q, n)
    a = list(a)
    sc = ws.scale(q, S)
    if not inv:
        k, ln = 0, n // 2
        while ln >= 1:
            for st in range(0, n, 2 * ln):
                k += 1
                for j in range(st, st + ln):
                    t = w[k] * a[j + ln] % q
                    a[j], a[j + ln] = (a[j] + t) % q, (a[j] - t) % q
            ln //= 2
    else:
        ln = 1
        while ln < n:
            m = n // (2 * ln)
            for g in range(m):
                st = g * 2 * ln
                for j in range(st, st + ln):
                    u, v = a[j], a[j + ln]
                    a[j] = (u + v) * sc % q
                    a[j + ln] = (u - v) * iw[m + g] % q * sc % q
            ln *= 2
    return a


def cyc8(q, y):
    om = [pow(ws.omega(q), e, q) for e in range(8)]
    return [sum(y[i] * om[i * k % 8] for i in range(8)) % q for k in range(8)]


def unit(q, kind, inv, x, f):
    if kind == "w":
        if not inv:
            X = cyc8(q, [x[i] * f[i] % q for i in range(8)])
            return [X[ws.brv(t, 3)] for t in range(8)]
        Y = cyc8(q, [x[ws.brv(k, 3)] for k in range(8)])
        return [Y[(8 - i) % 8] * f[i] % q for i in range(8)]
    out = [0] * 8
    for j in range(4):
        if not inv:
            a, b = x[2 * j], x[2 * j + 1] * f[2 * j + 1] % q
            out[2 * j], out[2 * j + 1] = (a + b) % q, (a - b) % q
        else:
            a, b = x[2 * j], x[2 * j + 1]
            out[2 * j] = (a + b) * f[2 * j] % q
            out[2 * j + 1] = (a - b) * f[2 * j + 1] % q
    return out


def model(q, n, inv, a):
    a = list(a)
    T = n // 8
    for p, (kind, _) in enumerate(ws.passes(n, inv)):
        b = list(a)                     # ping-pong: read a, write b
        for t in range(T):
            pts = ws.points(n, inv, p, t)
            out = unit(q, kind, inv, [a[x] for x in pts], ws.factors(q, n, inv, p, t))
            for x, v in zip(pts, out):
                b[x] = v
        a = b
    return a


def max_w(n, inv):
    """Largest issue-to-readable distance with no stall (continuous issue)."""
    T = n // 8
    ps = ws.passes(n, inv)
    best = 10 ** 9
    for p in range(1, len(ps)):
        wrote = {}
        for t in range(T):
            for x in ws.points(n, inv, p - 1, t):
                wrote[x] = t
        for t in range(T):
            last = max(wrote[x] for x in ws.points(n, inv, p, t))
            best = min(best, (T + t) - last)
    return best


def read_hex(path):
    with open(path) as f:
        return [int(l, 16) for l in f if l.strip()]


def main():
    need_w = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    bad = 0
    for q, n in ws.CONFIGS:
        T = n // 8
        for inv in (0, 1):
            name = f"q={q} n={n} {'inverse' if inv else 'forward'}"
            for p in range(len(ws.passes(n, inv))):
                seen = set()
                for t in range(T):
                    pts = ws.points(n, inv, p, t)
                    if len({ws.bank(x) for x in pts}) != 8:
                        print(f"{name} pass {p} cycle {t}: bank conflict"); bad += 1
                    seen.update(pts)
                if seen != set(range(n)):
                    print(f"{name} pass {p}: does not cover every point"); bad += 1
            mw = max_w(n, inv)
            ok_w = mw >= need_w
            bad += not ok_w
            rnd = random.Random(n + inv)
            trials = [[rnd.randrange(q) for _ in range(n)] for _ in range(3)]
            trials += [[q - 1] * n, [1] + [0] * (n - 1)]
            mism = sum(model(q, n, inv, a) != ref_transform(q, n, inv, a) for a in trials)
            vin = os.path.join(HERE, "..", "tb", "vectors", f"q{q}_n{n}_in.hex")
            kv = "no kernel vectors"
            if os.path.exists(vin):
                src = read_hex(vin)
                want = read_hex(vin.replace("_in.", "_intt." if inv else "_ntt."))
                kbad = 0
                for i in range(len(src) // n):
                    kbad += model(q, n, inv, src[i * n:(i + 1) * n]) != want[i * n:(i + 1) * n]
                kv = f"kernel vectors {'OK' if kbad == 0 else 'MISMATCH'} ({len(src) // n} polys)"
                bad += kbad
            bad += mism
            print(f"{name}: passes {''.join(k.upper() + str(s) + ' ' for k, s in ws.passes(n, inv)).strip()}, "
                  f"banks OK, max stall-free W = {mw} ({'OK' if ok_w else 'TOO SMALL'} for W = {need_w}), "
                  f"model {'=' if mism == 0 else '!='} radix-2 reference, {kv}")
    for q, n in ws.CONFIGS:
        for a in range(n // 8):
            if len({ws.bank(8 * a + i) for i in range(8)}) != 8:
                print(f"n={n} beat {a}: bank conflict"); bad += 1
    print("schedule OK" if not bad else f"{bad} FAILURES")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
