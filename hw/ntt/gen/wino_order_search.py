#!/usr/bin/env python3
"""Searches the pass-counter bit orders of the Winograd core (wino_schedule.ORDERS):
for each (n, direction), a depth-first search over the orders of each pass that keep
the relative order of the free bits it shares with the previous pass (any order for
the first pass, n = 256 and 512), maximising the smallest read-after-write distance
between consecutive passes under continuous issue. Prints the best orders found; takes
a few minutes. Usage: python3 wino_order_search.py
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wino_schedule as ws  # noqa: E402

def pts_of(n, s, order, t):
    x = 0
    for j, b in enumerate(order):
        x |= ((t >> j) & 1) << b
    return [x | (i << s) for i in range(8)]

def trans(n, s0, o0, s1, o1):
    T = n // 8
    wrote = {}
    for t in range(T):
        for x in pts_of(n, s0, o0, t):
            wrote[x] = t
    best = 10**9
    for t in range(T):
        last = max(wrote[x] for x in pts_of(n, s1, o1, t))
        best = min(best, T + t - last)
        if best < 0: break
    return best

def interleavings(shared, new):
    k = len(shared) + len(new)
    for pos in itertools.combinations(range(k), len(new)):
        for perm in itertools.permutations(new):
            out = []; si = 0; ni = 0
            for i in range(k):
                if i in pos: out.append(perm[ni]); ni += 1
                else: out.append(shared[si]); si += 1
            yield out

def search(n, inv):
    logn = n.bit_length() - 1
    ps = ws.passes(n, inv)
    frees = [[b for b in range(logn) if b not in (s, s+1, s+2)] for _, s in ps]
    best = (-1, None)
    def dfs(p, orders, mn):
        nonlocal best
        if mn <= best[0]: return
        if p == len(ps):
            best = (mn, list(orders)); return
        prev = orders[-1]
        shared = [b for b in prev if b in frees[p]]
        new = [b for b in frees[p] if b not in prev]
        cands = []
        for o in interleavings(shared, new):
            d = trans(n, ps[p-1][1], prev, ps[p][1], o)
            if d > best[0]: cands.append((d, o))
        cands.sort(key=lambda c: -c[0])
        for d, o in cands:
            dfs(p + 1, orders + [o], min(mn, d))
    f0 = frees[0]
    p0s = [ws.order(n, inv, 0)] if len(f0) > 6 else [list(o) for o in itertools.permutations(f0)]
    for o0 in p0s:
        dfs(1, [o0], 10**9)
    return best

if __name__ == "__main__":
    for n in (256, 512, 1024):
        for inv in (0, 1):
            print(n, inv, search(n, inv), flush=True)
