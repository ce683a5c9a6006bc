#!/usr/bin/env python3
"""Instructions per function inside each measured operation of the Cortex-M4 baseline,
traced only where it matters (fast enough for Falcon-1024).

    scripts/m4-func-split.py ELF [WORDS...]        (e.g. ... pqsig-m4 Falcon-1024)

Like scripts/m4-insn-mix.py (`-d in_asm,exec,nochain`: every executed block with its
instructions), but QEMU is told to log only the blocks of the functions that split a
Falcon signature for the co-design model (`-dfilter`: the address ranges of the symbols
matched by FUNCS below, plus the harness's stack::paint / stack::peak, which bracket one
operation). Everything else (key generation's own code, hashing, the harness) runs
unlogged, so the trace is a fraction of the full one. The operation's total instruction
count is the harness's own `-icount` reading (the same run), so

    other = instructions - sum(by_function)

is exact: the work outside the traced functions.

Prints one JSON line per measured operation:
  {"alg","op","instructions","traced","by_function":{demangled name without hash: n}}
Exit status 0 when the harness finished, 1 otherwise.
"""
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The functions traced: every Falcon kernel (FFT and FFT-domain arithmetic, SamplerZ,
# ChaCha20, NTT) and the signer's own functions. Key generation's are left out.
FUNCS = re.compile(r"^pqsig::(kernels::falcon::(fft|samplerz|ntt)::|falcon::sign::)")
BRACKET = re.compile(r"^pqsig_m4::m4::stack::(paint|peak)$")

INSN = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{4})(?: ([0-9a-f]{4}))?\s+(\S+)")
TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\]")
HASH = re.compile(r"::h[0-9a-f]{16}$")


def symbols(elf):
    """[(start, end, demangled name without its hash)] of the traced functions."""
    # llvm-nm where installed, else binutils' nm (both read the ARM ELF and demangle Rust).
    nm = "llvm-nm" if shutil.which("llvm-nm") else "nm"
    out = subprocess.run([nm, "-S", "--demangle", "--defined-only", elf],
                         check=True, capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) != 4 or parts[2] not in "tT":
            continue
        name = HASH.sub("", parts[3])
        if FUNCS.match(name) or BRACKET.match(name):
            start, size = int(parts[0], 16) & ~1, int(parts[1], 16)
            if BRACKET.match(name):
                # Only the entry block: the painting loop itself need not be logged.
                size = 2
            if size:
                syms.append((start, start + size, name))
    return sorted(syms)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    elf, words = sys.argv[1], " ".join(sys.argv[2:])
    syms = symbols(elf)
    starts = [s for s, _, _ in syms]
    dfilter = ",".join(f"0x{s:x}..0x{e - 1:x}" for s, e, _ in syms)
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, "trace")
    console = os.path.join(tmp, "console.jsonl")
    os.mkfifo(fifo)
    qemu = subprocess.Popen(
        ["qemu-system-arm", "-M", "mps2-an386", "-cpu", "cortex-m4", "-nographic",
         "-monitor", "none", "-serial", "none", "-icount", "shift=0",
         "-chardev", f"file,id=semihost,path={console}",
         "-semihosting-config", "enable=on,target=native,chardev=semihost",
         "-kernel", elf, "-append", words,
         "-d", "in_asm,exec,nochain", "-dfilter", dfilter, "-D", fifo],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def owner(pc):
        i = bisect.bisect_right(starts, pc) - 1
        if i >= 0 and pc < syms[i][1]:
            return syms[i][2]
        return None

    blocks = {}   # start pc -> instruction count
    cur = None
    in_op = False
    acc = {}
    ops = []
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
                    blocks[cur[0]] = len(cur)
                cur = None
            m = TRACE.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            name = owner(pc)
            if name is None:
                continue
            if name.endswith("stack::paint"):
                in_op, acc = True, {}
                continue
            if name.endswith("stack::peak"):
                if in_op:
                    ops.append(acc)
                in_op = False
                continue
            if in_op:
                acc[name] = acc.get(name, 0) + blocks.get(pc, 0)
    rc = qemu.wait()
    records = []
    with open(console) as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("{"):
                records.append(json.loads(raw))
    os.unlink(fifo)
    measured = [r for r in records if "op" in r and r.get("alg") != "calibration"]
    for r, acc in zip(measured, ops):
        traced = sum(acc.values())
        print(json.dumps({
            "alg": r["alg"], "op": r["op"], "instructions": r["instructions"],
            "traced": traced,
            "by_function": dict(sorted(acc.items(), key=lambda kv: -kv[1])),
        }, separators=(",", ":")), flush=True)
    done = any(r.get("done") for r in records)
    if rc != 0 or not done or len(measured) != len(ops):
        sys.exit(f"error: qemu exit {rc}, done={done}, {len(measured)} records, "
                 f"{len(ops)} traced operations")


if __name__ == "__main__":
    main()
