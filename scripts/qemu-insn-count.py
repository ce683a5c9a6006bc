#!/usr/bin/env python3
"""Guest instructions executed by a program under QEMU user mode (e.g. qemu-aarch64).

    scripts/qemu-insn-count.py QEMU [QEMU OPTIONS...] -- PROGRAM [ARGS...]
    e.g. scripts/qemu-insn-count.py qemu-aarch64 -L /usr/aarch64-linux-gnu -- ./snova_ticks ...

Debian's QEMU ships no TCG plugins, so the count comes from QEMU's own log
(`-d in_asm,exec,nochain`: each translated block once with its instructions, then one
line per block execution; `nochain` makes every execution visible). Prints
{"instructions": N, "blocks": executed blocks}; the program's own output goes to stderr.
Counts are exact and repeat whatever the machine's load; they say nothing about the time
an ARM core would take (no cycles, no pipeline, no memory system).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

INSN = re.compile(r"^0x([0-9a-f]+):\s+[0-9a-f]{4,8}\b")
TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def main():
    if "--" not in sys.argv[2:]:
        sys.exit(__doc__)
    k = sys.argv.index("--")
    qemu, prog = sys.argv[1:k], sys.argv[k + 1:]
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, "trace")
    os.mkfifo(fifo)
    p = subprocess.Popen(qemu + ["-d", "in_asm,exec,nochain", "-D", fifo] + prog,
                         stdout=sys.stderr, stderr=sys.stderr)
    sizes = {}
    cur = None
    total = blocks = 0
    with open(fifo) as log:
        for line in log:
            if line.startswith("IN:"):
                cur = []
                continue
            if cur is not None:
                m = INSN.match(line)
                if m:
                    cur.append(int(m.group(1), 16))
                    continue
                if cur:
                    sizes[cur[0]] = len(cur)
                cur = None
            m = TRACE.match(line)
            if m:
                pc = int(m.group(1), 16)
                if pc not in sizes:
                    sys.exit(f"error: block at {pc:#x} executed before it was logged")
                total += sizes[pc]
                blocks += 1
    rc = p.wait()
    os.unlink(fifo)
    os.rmdir(tmp)
    if rc != 0:
        sys.exit(f"error: the program exited with {rc}")
    print(json.dumps({"instructions": total, "blocks": blocks}))


if __name__ == "__main__":
    main()
