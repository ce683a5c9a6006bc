#!/usr/bin/env python3
"""The pass schedule of the Winograd radix-8 core (ntt_core_w8.v), shared by the ROM
generator (gen_wino_rom.py) and the checker (wino_check.py).

A pass works on 8 points per cycle whose indices differ in three consecutive bits
s, s+1, s+2 (the pass's "triple"): x_i = base | i << s, i = 0..7.
  - Winograd pass: the three NTT layers of half-distance 2^(s+2), 2^(s+1), 2^s.
  - radix-2 pass: one layer of half-distance 2^s; butterflies (x_2j, x_2j+1).
Forward passes go from the top bits down, Winograd while three layers are left, then
radix-2 passes for the remainder; the inverse runs the same passes in reverse order:
  n = 256:  W(5) W(2) R(1) R(0)     inverse R(0) R(1) W(2) W(5)
  n = 512:  W(6) W(3) W(0)          inverse W(0) W(3) W(6)
  n = 1024: W(7) W(4) W(1) R(0)     inverse R(0) W(1) W(4) W(7)

Banks: point x lives in bank bank(x) (bit b of the bank = XOR of the bits of x at
positions p = b mod 3) at address x >> 3. Any three consecutive bit positions map to
three independent bank bits, so the 8 points of a pass cycle, and the 8 consecutive
points of a bus beat, sit in 8 different banks.

Cycle order inside a pass: counter bit j -> index bit order[j] (the table ORDERS), chosen
so that a pass never reads a point before the previous pass's write of it has landed,
for the core's read-to-write latency (wino_check.py proves it).
"""

import functools

CONFIGS = [(8380417, 256), (12289, 512), (12289, 1024)]


def brv(x, bits):
    r = 0
    for i in range(bits):
        r |= ((x >> i) & 1) << (bits - 1 - i)
    return r


def logn_of(n):
    return n.bit_length() - 1


def passes(n, inv):
    """[(kind, s)] in execution order; kind 'w' (Winograd, 3 layers) or 'r' (radix-2)."""
    logn = logn_of(n)
    fwd, top = [], logn
    while top >= 3:
        fwd.append(("w", top - 3))
        top -= 3
    while top > 0:
        fwd.append(("r", top - 1))
        top -= 1
    return list(reversed(fwd)) if inv else fwd


def bank(x):
    b = 0
    p = 0
    while x >> p:
        if (x >> p) & 1:
            b ^= 1 << (p % 3)
        p += 1
    return b


# Pass-counter bit -> index bit, per (n, inverse), per pass. Found by
# wino_order_search.py (a depth-first search over the orders that keep the relative
# order of the bits a pass shares with the previous one, maximising the smallest
# read-after-write distance); wino_check.py verifies them. Smallest distance in
# cycles: n = 256: 16 both ways; 512: 29; 1024: 61 forward, 64 inverse.
ORDERS = {
    (256, 0): [[0, 2, 3, 4, 1], [5, 6, 7, 0, 1], [4, 5, 6, 7, 0], [3, 4, 5, 6, 7]],
    (256, 1): [[3, 4, 5, 6, 7], [0, 4, 5, 6, 7], [0, 5, 6, 7, 1], [2, 3, 4, 0, 1]],
    (512, 0): [[3, 4, 5, 0, 1, 2], [0, 1, 6, 7, 8, 2], [3, 4, 5, 6, 7, 8]],
    (512, 1): [[3, 4, 5, 6, 7, 8], [6, 7, 0, 1, 2, 8], [3, 4, 5, 0, 1, 2]],
    (1024, 0): [[4, 5, 6, 0, 1, 2, 3], [7, 8, 0, 1, 2, 3, 9], [4, 5, 6, 7, 8, 0, 9],
                [3, 4, 5, 6, 7, 8, 9]],
    (1024, 1): [[3, 4, 5, 6, 7, 8, 9], [4, 5, 6, 7, 8, 9, 0], [1, 2, 3, 7, 8, 9, 0],
                [4, 5, 6, 1, 2, 3, 0]],
}


def order(n, inv, p):
    """Index bit of each pass-counter bit (lowest counter bit first)."""
    return ORDERS[(n, int(bool(inv)))][p]


def base(n, inv, p, t):
    x = 0
    for j, b in enumerate(order(n, inv, p)):
        x |= ((t >> j) & 1) << b
    return x


def points(n, inv, p, t):
    s = passes(n, inv)[p][1]
    b = base(n, inv, p, t)
    return [b | (i << s) for i in range(8)]


# ---------------------------------------------------------------- twiddles
@functools.lru_cache(maxsize=None)
def true_twiddles(q, n):
    """(w, iw, S): the library kernels' forward twiddle w[k] and inverse twiddle iw[k]
    (for group index k = m + g of the layer with m groups; iw without the 2^S layer
    scale), as in gen_twiddles.py."""
    if q == 8380417:
        z = [pow(1753, brv(k, 8), q) for k in range(256)]
        w = [0] * n
        iw = [0] * n
        for k in range(1, n):
            m = 1 << (k.bit_length() - 1)
            w[k] = z[k]
            iw[k] = (-z[3 * m - 1 - k]) % q
        return w, iw, 3
    inv7 = pow(7, q - 2, q)
    w = [pow(7, brv(k, 10), q) for k in range(n)]
    iw = [pow(inv7, brv(k, 10), q) for k in range(n)]
    return w, iw, -1


def scale(q, e):
    return pow(2, e, q) if e >= 0 else pow(pow(2, q - 2, q), -e, q)


def factors(q, n, inv, p, t):
    """The 8 true multiplier factors of the cycle, lane 0..7 (lane 0 is applied by
    shifts in the hardware: 1 forward, 2^(3S) inverse Winograd, 2^S inverse radix-2)."""
    w, iw, S = true_twiddles(q, n)
    kind, s = passes(n, inv)[p]
    pts = points(n, inv, p, t)
    if kind == "w":
        m = n >> (s + 3)               # groups of the pass's first layer
        k1 = m + (pts[0] >> (s + 3))
        rho = w[4 * k1]
        if not inv:
            return [pow(rho, i, q) for i in range(8)]
        rinv = pow(rho, q - 2, q)
        return [scale(q, 3 * S) * pow(rinv, i, q) % q for i in range(8)]
    m = n >> (s + 1)
    f = []
    for j in range(4):
        k = m + (pts[2 * j] >> (s + 1))
        if inv:
            f += [scale(q, S), iw[k] * scale(q, S) % q]
        else:
            f += [1, w[k]]
    return f


def omega(q):
    """The primitive 8th root of unity of the 8-point cyclic core (ntt_cyc8.v)."""
    return pow(1753, 64, q) if q == 8380417 else pow(7, 256, q)
