#!/usr/bin/env python3
"""Largest stack frames of a release binary, read from its x86-64 prologues.

Usage: objdump -d --no-show-raw-insn BINARY | scripts/stack-frames.py [--limit BYTES] [--top N]

A frame is `sub $N,%rsp`, or, for frames over a page, the bound of the stack-probe loop
(`sub $N,%r11` / `lea -N(%rsp),%r11`) that rustc emits before it. Exit status 1 when a
`pqsig` function's frame exceeds --limit (the issue's 64 KB budget by default), so the
check can run in the test script.
"""
import re
import sys


def main():
    limit, top = 65536, 15
    args = sys.argv[1:]
    if "--limit" in args:
        limit = int(args[args.index("--limit") + 1])
    if "--top" in args:
        top = int(args[args.index("--top") + 1])
    pat = [
        re.compile(r"sub\s+\$0x([0-9a-f]+),%rsp"),
        re.compile(r"sub\s+\$0x([0-9a-f]+),%r11"),
        re.compile(r"lea\s+-0x([0-9a-f]+)\(%rsp\),%r11"),
    ]
    # Per function, the prologue (first 40 instructions): the frame is the sum of its
    # `sub $N,%rsp` plus the probe-loop bound (`sub $N,%r11`), less the loop's own
    # one-page step, which the bound already covers.
    fn, seen, frames, probe = None, 0, {}, {}
    for line in sys.stdin:
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            fn, seen = m.group(1), 0
            continue
        if fn is None or seen >= 40:
            continue
        seen += 1
        m = pat[0].search(line)
        if m and int(m.group(1), 16) < 1 << 31:
            frames[fn] = frames.get(fn, 0) + int(m.group(1), 16)
        for p in pat[1:]:
            m = p.search(line)
            if m:
                probe[fn] = int(m.group(1), 16)
    for f, bound in probe.items():
        frames[f] = frames.get(f, 0) + bound - 0x1000
    ranked = sorted(frames.items(), key=lambda x: -x[1])
    for f, v in ranked[:top]:
        print(f"{v:8d}  {f[:140]}")
    bad = [(f, v) for f, v in ranked if v > limit and "pqsig" in f]
    for f, v in bad:
        print(f"FRAME OVER {limit} BYTES: {v} {f}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
