"""Dataflow graphs of the small NTT units compared in this study.

One graph per unit is the single source of truth: `butterfly.py` turns it into
straight-line Python (and times it), `hardware.py` counts its nodes and measures its
longest paths. Nothing here needs gmpy2; the graphs hold plain integers mod q.

Conventions
-----------
Cyclic N-point NTT (the "butterfly unit" of a radix-N engine):

    X[k] = sum_{n<N} x[n] * w^(n*k)  (mod q),  w a primitive N-th root of unity mod q.

Negacyclic N-point NTT (what the PQC NTTs are made of: evaluation at the roots of
z^N + 1):

    X[k] = sum_{n<N} x[n] * psi^(n*(2k+1))  (mod q),  psi a primitive 2N-th root.

Every unit returns its outputs in natural order k = 0..N-1 (any reordering is free: it
only renames wires).

Node kinds: "in" (an input), "add", "sub", "mul" (multiplication by a constant mod q).
Every add/sub/mul node is one modular operation: in hardware one modular adder,
subtractor or multiplier; in the Python code one operation followed by `% q` (or, in the
lazy mode of butterfly.py, no reduction after additions).

Units
-----
r2-full   radix-2 Cooley-Tukey (decimation in time) network, N/2*log2(N) butterflies,
          every butterfly multiplies by its twiddle, w^0 = 1 included: the generic
          radix-2 butterfly that a hardware pipeline or a generic Python loop executes.
r2-skip   the same network with the multiplications by w^0 = 1 left out (the best a
          radix-2 network does on a cyclic unit).
winograd  Winograd's small-DFT algorithm (N = 8 or 16) carried over to Z_q: pre-additions,
          one layer of multiplications by precomputed constants, post-additions. In Z_q a
          multiplication by a 4th root of unity i = w^(N/4) is a real modular
          multiplication (unlike j in the complex FFT), so it is counted as one.
r2-nega   negacyclic radix-2 CT network as in FIPS 204 / Falcon (twiddles psi^brv(k)),
          N/2*log2(N) multiplications, none of them trivial.
w-nega    negacyclic by pre-twisting: x[n] * psi^n (N-1 multiplications), then the
          cyclic Winograd unit with w = psi^2.
"""

from __future__ import annotations

MODULI = {8380417: "ML-DSA", 12289: "Falcon"}
SIZES = (8, 16)
UNITS = ("r2-full", "r2-skip", "winograd", "r2-nega", "w-nega")


# ---------------------------------------------------------------------------------------
# number theory
# ---------------------------------------------------------------------------------------
def _factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def primitive_root_of_unity(q: int, order: int) -> int:
    """The smallest-generator-derived primitive `order`-th root of unity mod prime q."""
    assert (q - 1) % order == 0, (q, order)
    fs = _factors(q - 1)
    g = 2
    while any(pow(g, (q - 1) // p, q) == 1 for p in fs):
        g += 1
    r = pow(g, (q - 1) // order, q)
    assert pow(r, order, q) == 1 and all(pow(r, order // p, q) != 1 for p in _factors(order))
    return r


def naive_cyclic(x: list[int], w: int, q: int) -> list[int]:
    n = len(x)
    return [sum(x[j] * pow(w, j * k, q) for j in range(n)) % q for k in range(n)]


def naive_negacyclic(x: list[int], psi: int, q: int) -> list[int]:
    n = len(x)
    return [sum(x[j] * pow(psi, j * (2 * k + 1), q) for j in range(n)) % q for k in range(n)]


def bitrev(i: int, bits: int) -> int:
    return int(format(i, f"0{bits}b")[::-1], 2) if bits else 0


# ---------------------------------------------------------------------------------------
# graph
# ---------------------------------------------------------------------------------------
class Graph:
    """A straight-line dataflow graph over Z_q. Node ids are creation order (a
    topological order)."""

    def __init__(self, name: str, q: int, n: int):
        self.name, self.q, self.n = name, q, n
        self.kind: list[str] = []
        self.args: list[tuple[int, ...]] = []
        self.const: list[int | None] = []
        self.outputs: list[int] = []
        self.inputs = [self._node("in", (), None) for _ in range(n)]

    def _node(self, kind, args, const):
        self.kind.append(kind)
        self.args.append(tuple(args))
        self.const.append(const)
        return len(self.kind) - 1

    def add(self, a: int, b: int) -> int:
        return self._node("add", (a, b), None)

    def sub(self, a: int, b: int) -> int:
        return self._node("sub", (a, b), None)

    def mul(self, a: int, c: int, force: bool = False) -> int:
        """a * c mod q. A multiplication by 1 is not a node unless `force` (the generic
        radix-2 butterfly multiplies by every twiddle, 1 included)."""
        c %= self.q
        assert c != 0
        if c == 1 and not force:
            return a
        assert c != self.q - 1 or force, "multiplication by -1: fold it into an add/sub"
        return self._node("mul", (a,), c)

    def count(self) -> dict[str, int]:
        c = {"mul": 0, "add": 0, "sub": 0}
        for k in self.kind:
            if k in c:
                c[k] += 1
        return c

    def evaluate(self, x: list[int]) -> list[int]:
        """Reference interpreter (plain ints, every node reduced)."""
        q, v = self.q, []
        for kind, args, c in zip(self.kind, self.args, self.const):
            if kind == "in":
                v.append(x[len(v)] % q)
            elif kind == "add":
                v.append((v[args[0]] + v[args[1]]) % q)
            elif kind == "sub":
                v.append((v[args[0]] - v[args[1]]) % q)
            else:
                v.append(v[args[0]] * c % q)
        return [v[o] for o in self.outputs]

    def depths(self, t_mul: int = 1, t_add: int = 1) -> dict[str, int]:
        """Longest input-to-output paths: adder depth (add/sub nodes on the path with the
        most of them), multiplier depth, and the weighted critical path with latencies
        t_mul, t_add (and its adder/multiplier composition)."""
        add_d, mul_d, lat, comp = [], [], [], []
        for kind, args in zip(self.kind, self.args):
            if kind == "in":
                add_d.append(0)
                mul_d.append(0)
                lat.append(0)
                comp.append((0, 0))
                continue
            a = max(add_d[i] for i in args)
            m = max(mul_d[i] for i in args)
            j = max(args, key=lambda i: lat[i])
            if kind == "mul":
                add_d.append(a)
                mul_d.append(m + 1)
                lat.append(lat[j] + t_mul)
                comp.append((comp[j][0], comp[j][1] + 1))
            else:
                add_d.append(a + 1)
                mul_d.append(m)
                lat.append(lat[j] + t_add)
                comp.append((comp[j][0] + 1, comp[j][1]))
        o = max(self.outputs, key=lambda i: lat[i])
        return {
            "adder_depth": max(add_d[i] for i in self.outputs),
            "mul_depth": max(mul_d[i] for i in self.outputs),
            "critical_latency": lat[o],
            "critical_adders": comp[o][0],
            "critical_muls": comp[o][1],
        }


# ---------------------------------------------------------------------------------------
# builders
# ---------------------------------------------------------------------------------------
def _r2_cyclic(g: Graph, xs: list[int], w: int, force: bool) -> list[int]:
    """Radix-2 DIT: inputs taken in bit-reversed order, outputs in natural order."""
    n, q = len(xs), g.q
    bits = n.bit_length() - 1
    a = [xs[bitrev(i, bits)] for i in range(n)]
    half = 1
    while half < n:
        step = n // (2 * half)
        for start in range(0, n, 2 * half):
            for k in range(half):
                tw = pow(w, k * step, q)
                t = g.mul(a[start + k + half], tw, force=force)
                u = a[start + k]
                a[start + k] = g.add(u, t)
                a[start + k + half] = g.sub(u, t)
        half *= 2
    return a


def _r2_negacyclic(g: Graph, xs: list[int], psi: int) -> list[int]:
    """Negacyclic CT network, FIPS 204 order: output j holds X[brv(j)]; we return
    natural order."""
    n, q = len(xs), g.q
    bits = n.bit_length() - 1
    a = list(xs)
    k, ln = 0, n // 2
    while ln >= 1:
        for start in range(0, n, 2 * ln):
            k += 1
            z = pow(psi, bitrev(k, bits), q)
            for j in range(start, start + ln):
                t = g.mul(a[j + ln], z, force=True)
                a[j + ln] = g.sub(a[j], t)
                a[j] = g.add(a[j], t)
        ln //= 2
    return [a[bitrev(i, bits)] for i in range(n)]


def _inv2(q: int) -> int:
    return (q + 1) // 2


def _w4(g: Graph, a: list[int], w: int) -> list[int]:
    """Cyclic 4-point NTT, w a primitive 4th root (the 'i' of Z_q): 1 multiplication,
    8 additions/subtractions."""
    s02, d02 = g.add(a[0], a[2]), g.sub(a[0], a[2])
    s13, d13 = g.add(a[1], a[3]), g.sub(a[1], a[3])
    m = g.mul(d13, w)
    return [g.add(s02, s13), g.add(d02, m), g.sub(s02, s13), g.sub(d02, m)]


def _w8(g: Graph, x: list[int], w: int) -> list[int]:
    """Cyclic 8-point Winograd unit: 4 multiplications, 26 additions/subtractions."""
    q = g.q
    i = pow(w, 2, q)
    a = [g.add(x[n], x[n + 4]) for n in range(4)]
    b = [g.sub(x[n], x[n + 4]) for n in range(4)]
    even = _w4(g, a, i)
    # odd outputs: X[2k+1] = b0 + w^(2k+1) b1 + i^(2k+1) b2 + w^(3(2k+1)) b3
    c = g.mul(b[2], i)
    # (w b1 + w^3 b3, w^3 b1 + w b3) is a 2x2 symmetric product: 2 multiplications
    s = (w - pow(w, 3, q)) * _inv2(q) % q
    t = (w + pow(w, 3, q)) * _inv2(q) % q
    u = g.mul(g.sub(b[1], b[3]), s)
    v = g.mul(g.add(b[1], b[3]), t)
    p0, m0 = g.add(b[0], c), g.sub(b[0], c)
    r1, r3 = g.add(v, u), g.sub(v, u)  # w b1 + w^3 b3, w^3 b1 + w b3
    odd = [g.add(p0, r1), g.add(m0, r3), g.sub(p0, r1), g.sub(m0, r3)]  # k = 1, 3, 5, 7
    return [even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3]]


def _w16(g: Graph, x: list[int], w: int) -> list[int]:
    """Cyclic 16-point Winograd unit: 13 multiplications, 74 additions/subtractions."""
    q = g.q
    h = _inv2(q)
    W = [pow(w, e, q) for e in range(16)]
    a = [g.add(x[n], x[n + 8]) for n in range(8)]
    b = [g.sub(x[n], x[n + 8]) for n in range(8)]
    even = _w8(g, a, W[2])  # X[2k]
    # odd outputs Y(m) = X[m], m odd: b0 + i^m b4 + (w^2m b2 + w^6m b6) + O(m)
    w4 = g.mul(b[4], W[4])  # i * b4
    # b2, b6: the 8-point odd trick with alpha = w^2
    s = (W[2] - W[6]) * h % q
    t = (W[2] + W[6]) * h % q
    pu = g.mul(g.sub(b[2], b[6]), s)
    pv = g.mul(g.add(b[2], b[6]), t)
    P, Q = g.add(pv, pu), g.sub(pv, pu)  # m = 1: P, m = 3: Q, m = 5: -P, m = 7: -Q
    # odd n: rows m = 1, 3, 5, 7 of [w^(n m)], n = 1, 3, 5, 7, split into two 2x2
    # "rotations" [[A, B], [B, -A]] and [[C, D], [D, -C]], 3 multiplications each
    up, um = g.add(b[1], b[7]), g.sub(b[1], b[7])
    vp, vm = g.add(b[3], b[5]), g.sub(b[3], b[5])
    A = (W[1] + W[7]) * h % q
    B = (W[3] + W[5]) * h % q
    C = (W[1] - W[7]) * h % q
    D = (W[3] - W[5]) * h % q
    h1 = g.mul(g.add(up, vp), B)
    h2 = g.mul(up, A - B)
    h3 = g.mul(vp, A + B)
    g1 = g.mul(g.add(um, vm), D)
    g2 = g.mul(um, C - D)
    g3 = g.mul(vm, C + D)
    Sp, Tp = g.add(h1, h2), g.sub(h1, h3)  # (R1 + R7)/2, (R3 + R5)/2
    Sm, Tm = g.add(g1, g2), g.sub(g1, g3)  # (R1 - R7)/2, (R3 - R5)/2
    R = {1: g.add(Sp, Sm), 7: g.sub(Sp, Sm), 3: g.add(Tp, Tm), 5: g.sub(Tp, Tm)}
    f_p, f_m = g.add(b[0], w4), g.sub(b[0], w4)
    G = {1: g.add(f_p, P), 5: g.sub(f_p, P), 3: g.add(f_m, Q), 7: g.sub(f_m, Q)}
    X = [None] * 16
    for k in range(8):
        X[2 * k] = even[k]
    for m in (1, 3, 5, 7):
        X[m] = g.add(G[m], R[m])
        X[m + 8] = g.sub(G[m], R[m])
    return X


WINOGRAD = {8: _w8, 16: _w16}


def build_r2_butterfly(q: int, n: int = 8) -> Graph:
    """One radix-2 CT butterfly (a + w b, a - w b) with a twiddle from an n-point unit."""
    g = Graph("r2-butterfly", q, 2)
    t = g.mul(g.inputs[1], primitive_root_of_unity(q, n), force=True)
    g.outputs = [g.add(g.inputs[0], t), g.sub(g.inputs[0], t)]
    return g


def build(unit: str, q: int, n: int) -> Graph:
    g = Graph(unit, q, n)
    w = primitive_root_of_unity(q, n)
    psi = primitive_root_of_unity(q, 2 * n)
    g.root = psi if unit.endswith("nega") else w
    g.negacyclic = unit.endswith("nega")
    xs = list(g.inputs)
    if unit == "r2-full":
        g.outputs = _r2_cyclic(g, xs, w, force=True)
    elif unit == "r2-skip":
        g.outputs = _r2_cyclic(g, xs, w, force=False)
    elif unit == "winograd":
        g.outputs = WINOGRAD[n](g, xs, w)
    elif unit == "r2-nega":
        g.outputs = _r2_negacyclic(g, xs, psi)
    elif unit == "w-nega":
        tw = [g.mul(xs[j], pow(psi, j, q)) for j in range(n)]
        g.outputs = WINOGRAD[n](g, tw, pow(psi, 2, q))
    else:
        raise ValueError(unit)
    return g


def reference(g: Graph, x: list[int]) -> list[int]:
    if g.negacyclic:
        return naive_negacyclic(x, g.root, g.q)
    return naive_cyclic(x, g.root, g.q)


def closed_form(unit: str, n: int) -> dict[str, int]:
    """Closed-form operation counts (what the builders must produce)."""
    lg = n.bit_length() - 1
    r2 = n // 2 * lg
    wino = {8: (4, 26), 16: (13, 74)}
    if unit in ("r2-full", "r2-nega"):
        return {"mul": r2, "addsub": n * lg}
    if unit == "r2-skip":
        # DIT stage s (half = 2^(s-1)) has n/(2 half) groups with one w^0 each
        return {"mul": r2 - sum(n // (2 << s) for s in range(lg)), "addsub": n * lg}
    m, a = wino[n]
    if unit == "winograd":
        return {"mul": m, "addsub": a}
    if unit == "w-nega":
        return {"mul": m + n - 1, "addsub": a}
    raise ValueError(unit)


# ---------------------------------------------------------------------------------------
# full-length negacyclic NTTs composed of units (closed-form counts, checked by building)
# ---------------------------------------------------------------------------------------
UNIT_COUNTS = {2: (0, 2), 4: (1, 8), 8: (4, 26), 16: (13, 74)}  # cyclic r-point: (mul, addsub)


def _cyclic(g: Graph, xs: list[int], w: int, how: str) -> list[int]:
    r = len(xs)
    if r == 1:
        return xs
    if r == 2:
        return [g.add(xs[0], xs[1]), g.sub(xs[0], xs[1])]
    if r == 4:
        return _w4(g, xs, w)
    if how == "winograd":
        return WINOGRAD[r](g, xs, w)
    return _r2_cyclic(g, xs, w, force=False)


def build_full(q: int, n: int, radices: list[int], how: str = "winograd") -> Graph:
    """Negacyclic n-point NTT (evaluation at the odd powers of psi, psi a primitive
    2n-th root) as a mixed-radix Cooley-Tukey tree: a stage of radix r splits each
    residue mod z^M - rho^r into r residues mod z^(M/r) - rho*w_r^l by twisting the r
    inputs of each unit with rho^m (r - 1 multiplications) and running the cyclic r-point
    unit (`how`: "winograd" units for r = 8, 16, or "radix2" pruned networks). Radix 2 is
    exactly the CT butterfly. Outputs in natural order X[k] = x(psi^(2k+1))."""
    assert _prod(radices) == n
    g = Graph(f"full-{'x'.join(map(str, radices))}-{how}", q, n)
    psi = primitive_root_of_unity(q, 2 * n)
    g.root, g.negacyclic = psi, True
    two_n = 2 * n
    leaves: dict[int, int] = {}

    def split(coeffs: list[int], e: int, rs: list[int]) -> None:
        # coeffs: a residue mod z^M - psi^e
        m_len = len(coeffs)
        if m_len == 1:
            leaves[e % two_n] = coeffs[0]
            return
        r, rest = rs[0], rs[1:]
        assert e % r == 0
        sub = m_len // r
        rho_e = e // r
        w_e = two_n // r
        outs = [[None] * sub for _ in range(r)]
        for j in range(sub):
            tw = [g.mul(coeffs[j + sub * m], pow(psi, rho_e * m, q)) for m in range(r)]
            y = _cyclic(g, tw, pow(psi, w_e, q), how)
            for l in range(r):
                outs[l][j] = y[l]
        for l in range(r):
            split(outs[l], rho_e + w_e * l, rest)

    split(list(g.inputs), n, list(radices))
    g.outputs = [leaves[(2 * k + 1) % two_n] for k in range(n)]
    return g


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def full_closed_form(n: int, radices: list[int]) -> dict[str, int]:
    """Per stage of radix r: n/r units, each (r - 1) twist multiplications plus the
    cyclic unit's (Winograd counts; radix 2: the butterfly)."""
    mul = sum(n // r * (r - 1 + UNIT_COUNTS[r][0]) for r in radices)
    addsub = sum(n // r * UNIT_COUNTS[r][1] for r in radices)
    return {"mul": mul, "addsub": addsub}
