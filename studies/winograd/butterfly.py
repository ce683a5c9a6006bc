#!/usr/bin/env python3
"""The paper's software experiment, reproduced: one small NTT unit alone, radix-2 network
vs Winograd radix-8 / radix-16 unit, in Python with gmpy2, one thread, 100,000 runs.

    python3 butterfly.py                     # the experiment (gmpy2, every op reduced)
    python3 butterfly.py --json > out.jsonl  # the same, JSON lines
    python3 butterfly.py --counts            # operation counts only (no timing)

Source: Mandal and Roy, "Winograd for NTT", IEEE TCAS-I 71(12), 2024; the numbers to
compare with (Python, gmpy2, one thread, 100,000 runs): N=8 radix-2 6.61 us vs radix-8
Winograd 4.88 us; N=16 radix-2 18.29 us vs radix-16 Winograd 20.83 us.

What runs
---------
Each unit is a dataflow graph from units.py (the same graph hardware.py measures),
compiled here into one straight-line Python function: one statement per graph node,
`v = (a + b) % q`, `v = (a - b) % q`, `v = (a * c) % q` with the constant c a gmpy2.mpz
bound as a local (default argument). Mode "lazy" reduces only after multiplications and
at the outputs (Python integers do not overflow), to show what the reductions cost.
`r2-loop` is the textbook iterative radix-2 loop (index arithmetic and a twiddle table in
the interpreter) that a Python NTT usually is.

Before timing, every function is checked exact against the O(N^2) naive transform on
random inputs (and the run stops if one differs). The operations each function
performs are counted by running it once on an instrumented integer type, and compared
with the count taken from its graph.

Timing: time.perf_counter() around each call, 100,000 calls per unit on pre-generated
random inputs (1,000 vectors, cycled), units interleaved in chunks of 1,000 calls so
that they share the machine's state; garbage collector off while timing; median and
mean per call in nanoseconds. The cost of the timer itself (median of an empty
perf_counter pair) is reported on its own and not subtracted.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time

import units as U

try:
    import gmpy2
except ImportError:  # the counts and checks still work on Python ints
    gmpy2 = None


# ---------------------------------------------------------------------------------------
# code generation from a graph
# ---------------------------------------------------------------------------------------
def source(g: U.Graph, mode: str = "eager") -> tuple[str, list[int]]:
    """Python source of one straight-line function `unit(x)` and its constants."""
    consts: dict[int, str] = {}
    for c in g.const:
        if c is not None and c not in consts:
            consts[c] = f"c{len(consts)}"
    params = ", ".join(["q=q"] + [f"{name}={name}" for name in consts.values()])
    lines = [f"def unit(x, {params}):"]
    lines.append("    " + ", ".join(f"v{i}" for i in g.inputs) + " = x")
    reduced = set(g.inputs)
    for i, (kind, args, c) in enumerate(zip(g.kind, g.args, g.const)):
        if kind == "in":
            continue
        if kind == "mul":
            expr = f"v{args[0]} * {consts[c]}"
        else:
            expr = f"v{args[0]} {'+' if kind == 'add' else '-'} v{args[1]}"
        if mode == "eager" or kind == "mul":
            expr = f"({expr}) % q"
            reduced.add(i)
        lines.append(f"    v{i} = {expr}")
    outs = [f"v{o}" if o in reduced else f"v{o} % q" for o in g.outputs]
    lines.append("    return [" + ", ".join(outs) + "]")
    return "\n".join(lines) + "\n", list(consts)


def compile_unit(g: U.Graph, mode: str, conv):
    src, consts = source(g, mode)
    env = {"q": conv(g.q)}
    for j, c in enumerate(consts):
        env[f"c{j}"] = conv(c)
    exec(compile(src, f"<{g.name}-{g.n}-{mode}>", "exec"), env)  # noqa: S102 (our own code)
    return env["unit"]


def r2_loop(q: int, n: int, conv):
    """Textbook iterative radix-2 DIT NTT (cyclic), every twiddle multiplied."""
    w = U.primitive_root_of_unity(q, n)
    bits = n.bit_length() - 1
    rev = [U.bitrev(i, bits) for i in range(n)]
    tw = [conv(pow(w, k, q)) for k in range(n // 2)]
    qq = conv(q)

    def unit(x, q=qq, rev=rev, tw=tw, n=n):
        a = [x[r] for r in rev]
        half = 1
        while half < n:
            step = n // (2 * half)
            for start in range(0, n, 2 * half):
                for k in range(half):
                    t = (a[start + k + half] * tw[k * step]) % q
                    u = a[start + k]
                    a[start + k] = (u + t) % q
                    a[start + k + half] = (u - t) % q
            half *= 2
        return a

    return unit


# ---------------------------------------------------------------------------------------
# operation counting on an instrumented integer
# ---------------------------------------------------------------------------------------
class Counted:
    """An int that counts the arithmetic done on it (class-wide counters)."""

    __slots__ = ("v",)
    ops = {"mul": 0, "add": 0, "sub": 0, "reduce": 0}

    def __init__(self, v):
        self.v = int(v)

    @staticmethod
    def _v(o):
        return o.v if isinstance(o, Counted) else int(o)

    def __add__(self, o):
        Counted.ops["add"] += 1
        return Counted(self.v + self._v(o))

    __radd__ = __add__

    def __sub__(self, o):
        Counted.ops["sub"] += 1
        return Counted(self.v - self._v(o))

    def __rsub__(self, o):
        Counted.ops["sub"] += 1
        return Counted(self._v(o) - self.v)

    def __mul__(self, o):
        Counted.ops["mul"] += 1
        return Counted(self.v * self._v(o))

    __rmul__ = __mul__

    def __mod__(self, o):
        Counted.ops["reduce"] += 1
        return Counted(self.v % self._v(o))

    def __int__(self):
        return self.v

    def __index__(self):
        return self.v


def count_runtime(make, q: int, n: int) -> dict[str, int]:
    """Run the function once on Counted inputs, constants and modulus."""
    f = make(Counted)
    for k in Counted.ops:
        Counted.ops[k] = 0
    f([Counted(random.randrange(q)) for _ in range(n)])
    return dict(Counted.ops)


def static_count(g: U.Graph, mode: str) -> dict[str, int]:
    c = g.count()
    if mode == "eager":
        c["reduce"] = c["mul"] + c["add"] + c["sub"]
    else:
        red = c["mul"] + sum(1 for o in g.outputs if g.kind[o] in ("add", "sub"))
        c["reduce"] = red
    return c


# ---------------------------------------------------------------------------------------
# the experiment
# ---------------------------------------------------------------------------------------
def variants(q: int, n: int, modes: list[str], conv):
    """(name, mode, graph or None, maker(conv) -> function)."""
    out = []
    for mode in modes:
        for unit in U.UNITS:
            g = U.build(unit, q, n)
            out.append((unit, mode, g, lambda cv, g=g, mode=mode: compile_unit(g, mode, cv)))
    out.append(("r2-loop", "eager", None, lambda cv: r2_loop(q, n, cv)))
    return out


def check(f, g, q, n, conv, trials) -> None:
    w = U.primitive_root_of_unity(q, n)
    for _ in range(trials):
        x = [random.randrange(q) for _ in range(n)]
        want = U.reference(g, x) if g is not None else U.naive_cyclic(x, w, q)
        got = [int(v) for v in f([conv(v) for v in x])]
        if got != want:
            sys.exit(f"MISMATCH {g.name if g else 'r2-loop'} q={q} n={n}: {got} != {want}")


def timer_overhead(runs: int) -> float:
    pc = time.perf_counter
    s = []
    for _ in range(runs):
        t0 = pc()
        t1 = pc()
        s.append(t1 - t0)
    return statistics.median(s) * 1e9


def time_units(funcs, inputs, runs: int, chunk: int):
    pc = time.perf_counter
    samples = [[] for _ in funcs]
    nin = len(inputs)
    done = 0
    gc.disable()
    try:
        while done < runs:
            m = min(chunk, runs - done)
            for fi, f in enumerate(funcs):
                s = samples[fi]
                for r in range(done, done + m):
                    x = inputs[r % nin]
                    t0 = pc()
                    f(x)
                    t1 = pc()
                    s.append(t1 - t0)
            done += m
    finally:
        gc.enable()
    return [(statistics.median(s) * 1e9, statistics.fmean(s) * 1e9) for s in samples]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=100_000)
    ap.add_argument("--chunk", type=int, default=1_000)
    ap.add_argument("--check", type=int, default=1_000, help="random exactness checks per unit")
    ap.add_argument("--backend", choices=["gmpy2", "int"], default="gmpy2",
                    help="gmpy2.mpz (the paper) or plain Python int")
    ap.add_argument("--modes", default="eager",
                    help="comma list of eager (reduce after every op) and lazy")
    ap.add_argument("--moduli", default="8380417,12289")
    ap.add_argument("--sizes", default="8,16")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--counts", action="store_true", help="counts and checks only")
    ap.add_argument("--json", action="store_true", help="JSON lines on stdout")
    ap.add_argument("--print-source", metavar="UNIT", help="print the generated code of UNIT")
    a = ap.parse_args()
    random.seed(a.seed)
    if a.backend == "gmpy2":
        if gmpy2 is None:
            sys.exit("gmpy2 is not installed (pip install -r requirements.txt), or use --backend int")
        conv = gmpy2.mpz
    else:
        conv = int
    modes = a.modes.split(",")
    moduli = [int(v) for v in a.moduli.split(",")]
    sizes = [int(v) for v in a.sizes.split(",")]
    if a.print_source:
        for q in moduli:
            for n in sizes:
                for mode in modes:
                    print(f"# q={q} n={n} mode={mode}")
                    print(source(U.build(a.print_source, q, n), mode)[0])
        return
    meta = {
        "python": platform.python_version(),
        "gmpy2": getattr(gmpy2, "version", lambda: None)() if gmpy2 else None,
        "machine": platform.machine(),
        "processor": platform.processor() or None,
    }
    if not a.counts:
        meta["timer_overhead_ns"] = round(timer_overhead(a.runs), 1)
    log = sys.stderr if a.json else sys.stdout
    print(f"# python {meta['python']}, gmpy2 {meta['gmpy2']}, backend {a.backend}, "
          f"{a.runs} runs, one thread"
          + (f", perf_counter pair {meta['timer_overhead_ns']} ns (not subtracted)"
             if "timer_overhead_ns" in meta else ""), file=log)
    if a.json:
        print(json.dumps({"kind": "meta", **meta, "backend": a.backend, "runs": a.runs}))
    hdr = (f"{'q':>8} {'N':>3} {'unit':<9} {'mode':<5} {'mul':>4} {'add':>4} {'sub':>4} "
           f"{'red':>4}" + ("" if a.counts else f" {'median ns':>10} {'mean ns':>10}"))
    print(hdr, file=log)
    for q in moduli:
        for n in sizes:
            vs = variants(q, n, modes, conv)
            funcs, rows = [], []
            for name, mode, g, make in vs:
                f = make(conv)
                check(f, g, q, n, conv, a.check)
                rc = count_runtime(make, q, n)
                if g is not None:
                    sc = static_count(g, mode)
                    if sc != rc:
                        sys.exit(f"COUNT MISMATCH {name} {mode} q={q} n={n}: graph {sc} run {rc}")
                funcs.append(f)
                rows.append((name, mode, rc))
            if a.counts:
                times = [(None, None)] * len(rows)
            else:
                inputs = [[conv(random.randrange(q)) for _ in range(n)] for _ in range(1000)]
                times = time_units(funcs, inputs, a.runs, a.chunk)
            for (name, mode, rc), (med, mean) in zip(rows, times):
                line = (f"{q:>8} {n:>3} {name:<9} {mode:<5} {rc['mul']:>4} {rc['add']:>4} "
                        f"{rc['sub']:>4} {rc['reduce']:>4}")
                if med is not None:
                    line += f" {med:>10.0f} {mean:>10.0f}"
                print(line, file=log)
                if a.json:
                    print(json.dumps({
                        "kind": "butterfly-python", "modulus": q, "n": n, "variant": name,
                        "mode": mode, "backend": a.backend, "direction": "forward",
                        "runs": None if a.counts else a.runs,
                        "median_ns": None if med is None else round(med, 1),
                        "mean_ns": None if mean is None else round(mean, 1),
                        "mul": rc["mul"], "add": rc["add"], "sub": rc["sub"],
                        "reductions": rc["reduce"]}), flush=True)
            log.flush()


if __name__ == "__main__":
    main()
