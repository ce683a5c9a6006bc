#!/usr/bin/env python3
"""Checks that the NTT core's butterfly order never reads a row before the previous
layer's write of it has landed, for a write-back latency up to L cycles, so the core can
issue one butterfly group per cycle across layers with no stall (ntt_core.v relies on
it: its write-back lands 9 cycles after the issue).

Row order of ntt_core: layer s with half-distance len (forward: n/2^(s+1), inverse: 2^s),
BFUS butterflies per cycle, l = log2(len/BFUS) if len >= BFUS else 0; cycle t of the
layer reads rows J = t with a 0 inserted at bit l, and J + 2^l, and writes them back L
cycles later. A row R written in cycle u = R with bit l removed.

Usage: schedule_check.py [L_max]   (default 12); exits 1 if some configuration stalls.
"""
import sys


def ins0(x, l):
    return ((x >> l) << (l + 1)) | (x & ((1 << l) - 1))


def rem0(x, l):
    return ((x >> (l + 1)) << l) | (x & ((1 << l) - 1))


def layers(n, bfus, inv):
    out = []
    for s in range(n.bit_length() - 1):
        ln = (1 << s) if inv else n >> (s + 1)
        out.append((ln // bfus).bit_length() - 1 if ln >= bfus else 0)
    return out


def stalls(n, bfus, inv, lat):
    t_cyc = n // (2 * bfus)
    ls = layers(n, bfus, inv)
    retire, now, total = [], 0, 0
    for s, l in enumerate(ls):
        for t in range(t_cyc):
            j = ins0(t, l)
            j2 = j + (1 << l)
            if s > 0:
                lp = ls[s - 1]
                dep = (s - 1) * t_cyc + max(rem0(j, lp), rem0(j2, lp))
                need = retire[dep] + 1
                if now < need:
                    total += need - now
                    now = need
            retire.append(now + lat)
            now += 1
    return total


if __name__ == "__main__":
    lmax = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    bad = 0
    for n in (256, 512, 1024):
        for b in (1, 2, 4):
            for inv in (0, 1):
                for lat in range(1, lmax + 1):
                    st = stalls(n, b, inv, lat)
                    if st:
                        bad += 1
                        print(f"n={n} bfus={b} {'inverse' if inv else 'forward'} L={lat}: {st} stall cycles")
    print("no stalls up to L = %d" % lmax if not bad else "stalls found")
    sys.exit(1 if bad else 0)
