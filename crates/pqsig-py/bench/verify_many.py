#!/usr/bin/env python3
"""What a data engineer would measure: ``MLDSA65.verify_many`` over 2,000 signed rows
under one key against a plain Python loop of ``PublicKey.verify``.

    python crates/pqsig-py/bench/verify_many.py [--items 2000] [--rounds 21] [--json]

The two are timed in alternating rounds (so that load from elsewhere on the machine hits
both alike) and the medians are reported: µs per item and the ratio verify_many / loop
(target: at most 0.6 on 2 cores). The CPU model, core count, load average and pqsig's
arithmetic backend are printed with the figures (other work on the machine takes cores
from the batch, not from the single-threaded loop: compare runs at similar load). Needs the package installed (README: Install).
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

import pqsig


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count()


def loop(items):
    """The plain loop: one verify per row, a bool per row."""
    out = []
    for pk, sig, data in items:
        try:
            pk.verify(sig, data)
            out.append(True)
        except pqsig.InvalidSignature:
            out.append(False)
    return out


def timed(f, items):
    t0 = time.perf_counter()
    r = f(items)
    return time.perf_counter() - t0, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=2000)
    # A round is only ~10-20 ms: many short alternating rounds and their median ride out
    # a busy machine better than a few long ones.
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of text")
    o = ap.parse_args()

    key = pqsig.MLDSA65.generate()
    pk = key.public_key()
    rows = [b"row %06d: " % i + os.urandom(48) for i in range(o.items)]
    sigs = key.sign_many(rows)
    items = [(pk, s, m) for s, m in zip(sigs, rows)]

    # Warm up both paths (thread pool start, caches), and check they agree.
    want = [True] * o.items
    assert loop(items) == want and pqsig.MLDSA65.verify_many(items) == want

    per_loop, per_batch, ratios = [], [], []
    for _ in range(o.rounds):
        t_loop, r1 = timed(loop, items)
        t_batch, r2 = timed(pqsig.MLDSA65.verify_many, items)
        assert r1 == want and r2 == want
        per_loop.append(1e6 * t_loop / o.items)
        per_batch.append(1e6 * t_batch / o.items)
        ratios.append(t_batch / t_loop)

    res = {
        "benchmark": "MLDSA65.verify_many vs a Python loop of verify",
        "items": o.items,
        "rounds": o.rounds,
        "loop_us_per_item": statistics.median(per_loop),
        "verify_many_us_per_item": statistics.median(per_batch),
        "ratio_median": statistics.median(ratios),
        "ratios": ratios,
        "target": 0.6,
        "cpu": cpu_model(),
        "cores": cores(),
        "backend": pqsig.backend(),
        "python": platform.python_version(),
        "loadavg_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    res["met"] = res["ratio_median"] <= res["target"]
    if o.json:
        print(json.dumps(res))
        return 0
    print(f"CPU: {res['cpu']} ({res['cores']} cores available), pqsig backend {res['backend']}, "
          f"Python {res['python']}, load average {res['loadavg_1min']}")
    print(f"{o.items} ML-DSA-65 signatures under one key, {o.rounds} alternating rounds (medians):")
    print(f"  Python loop of verify: {res['loop_us_per_item']:7.2f} µs/item")
    print(f"  MLDSA65.verify_many:   {res['verify_many_us_per_item']:7.2f} µs/item")
    print(f"  ratio verify_many / loop: {res['ratio_median']:.2f} "
          f"(rounds: {' '.join(f'{r:.2f}' for r in ratios)}); "
          f"target <= {res['target']}: {'met' if res['met'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
