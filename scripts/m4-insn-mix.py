#!/usr/bin/env python3
"""Dynamic instruction mix of the Cortex-M4 baseline, and cycle bounds from it.

    scripts/m4-insn-mix.py ELF [WORDS...]      (e.g. ... pqsig-m4 short)

Boots the harness ELF (built by scripts/m4-baseline.sh) under qemu-system-arm with
`-d in_asm,exec,nochain`: QEMU logs every translated block once (its instructions) and
every block execution (its start address and symbol). Between the end of the harness's
stack painting (`stack::paint`) and the start of its scan (`stack::peak`) lies exactly one
measured operation; for each, the executed instructions are classed and each class given
the Cortex-M4 cycle range of the Cortex-M4 TRM (r0p1, table 3-1, "Cortex-M4 instruction
set summary"; P = pipeline refill, 1 to 3 cycles):

  class            cycles lo..hi   note
  alu / other      1..1            incl. IT, MOV, shifts, compares, VMOV
  mul              1..1            MUL, UMULL, SMULL, UMLAL, SMLAL (single cycle on M4)
  mla              1..2            MLA, MLS
  div              2..12           UDIV, SDIV (early termination)
  load             1..2            LDR*, pipelined with a neighbouring load: 1
  store            1..2            STR*, STRD/LDRD 1..3
  ldm/stm/push/pop 1+N..1+N        N registers (+P when PC is loaded: counted as a branch)
  branch taken     2..4            1+P; not taken: 1..1
  tbb/tbh          3..5            2+P

Taken or not is known exactly: QEMU ends a block at a branch, and the next block's
address tells whether it was the fall-through. Prints one JSON line per operation:
{"seq","instructions","classes":{...},"cycles_lo","cycles_hi","cpi_lo","cpi_hi",
 "by_symbol":{...}}
in the order the harness prints its records (`seq` 0 = its first record). `by_symbol`:
instructions per function (the symbol QEMU names for each executed block; inlined code
counts for its caller), the 25 largest; e.g. Falcon signing's FFT/iFFT and SamplerZ
kernels are separate functions (reached through the kernel tables), which splits a
signature into device-side and host-side work for the co-design's cycle model.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

LOAD = re.compile(r"^(ldr|ldrex|vldr)")
STORE = re.compile(r"^(str|strex|vstr)")
MULTI = re.compile(r"^(ldm|stm|push|pop|vpush|vpop|vldm|vstm)")
BRANCH = re.compile(r"^(b|bl|blx|bx|cbz|cbnz)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.w|\.n)?$")
TABLE = re.compile(r"^(tbb|tbh)")
DIV = re.compile(r"^(udiv|sdiv)")
MULL = re.compile(r"^(mul|muls|umull|smull|umlal|smlal|smul|smla|smmul|umaal)")
MLA = re.compile(r"^(mla|mls)")

INSN = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{4})(?: ([0-9a-f]{4}))?\s+(\S+)\s*(.*)$")
TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] (.*)$")


def reg_count(ops):
    m = re.search(r"\{([^}]*)\}", ops)
    if not m:
        return 1
    n = 0
    for part in m.group(1).split(","):
        part = part.strip()
        r = re.match(r"^[rsd](\d+)-[rsd](\d+)$", part)
        n += int(r.group(2)) - int(r.group(1)) + 1 if r else 1
    return n


def classify(mn, ops):
    """(class, lo, hi) for one instruction; branches are resolved later."""
    mn = mn.lower()
    if TABLE.match(mn):
        return "tbb", 3, 5
    if MULTI.match(mn):
        n = reg_count(ops)
        if "pc" in ops:
            return "branch_multi", 1 + n + 1, 1 + n + 3
        return "multi", 1 + n, 1 + n
    if mn.startswith(("ldrd", "strd")):
        return ("load" if mn.startswith("ldrd") else "store"), 1, 3
    if LOAD.match(mn):
        if re.match(r"^pc\b", ops):
            return "branch_multi", 3, 5
        return "load", 1, 2
    if STORE.match(mn):
        return "store", 1, 2
    if BRANCH.match(mn):
        return "branch", 1, 1
    if DIV.match(mn):
        return "div", 2, 12
    if MLA.match(mn):
        return "mla", 1, 2
    if MULL.match(mn):
        return "mul", 1, 1
    if mn.startswith(("mov", "add", "sub")) and re.match(r"^pc\b", ops):
        return "branch_multi", 2, 4
    return "alu", 1, 1


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    elf, words = sys.argv[1], " ".join(sys.argv[2:])
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, "trace")
    os.mkfifo(fifo)
    qemu = subprocess.Popen(
        ["qemu-system-arm", "-M", "mps2-an386", "-cpu", "cortex-m4", "-nographic",
         "-monitor", "none", "-serial", "none", "-semihosting", "-icount", "shift=0",
         "-kernel", elf, "-append", words, "-d", "in_asm,exec,nochain", "-D", fifo],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    blocks = {}      # start pc -> (list of (class, lo, hi), end pc)
    cur_block = None
    pending = None   # the previous executed block, its branch unresolved
    state = "idle"   # idle -> paint -> op -> idle
    seq = 0
    acc = None
    results = []

    def account(block, next_pc):
        insns, end, sym = block
        acc["syms"][sym] = acc["syms"].get(sym, 0) + len(insns)
        for k, (cls, lo, hi) in enumerate(insns):
            if cls == "branch" and k == len(insns) - 1:
                if next_pc is not None and next_pc != end:
                    cls, lo, hi = "branch_taken", 2, 4
                else:
                    cls = "branch_not_taken"
            c = acc["classes"].setdefault(cls, 0)
            acc["classes"][cls] = c + 1
            acc["lo"] += lo
            acc["hi"] += hi
            acc["n"] += 1

    with open(fifo) as log:
        for line in log:
            if line.startswith("IN:"):
                cur_block = []
                continue
            if cur_block is not None:
                m = INSN.match(line)
                if m:
                    size = 2 if m.group(3) is None else 4
                    cur_block.append((int(m.group(1), 16), size, m.group(4), m.group(5)))
                    continue
                if cur_block:
                    start = cur_block[0][0]
                    end = cur_block[-1][0] + cur_block[-1][1]
                    blocks[start] = ([classify(mn, ops) for _, _, mn, ops in cur_block], end)
                cur_block = None
            m = TRACE.match(line)
            if not m:
                continue
            pc, sym = int(m.group(1), 16), m.group(2)
            if pending is not None and acc is not None:
                account(pending, pc)
                pending = None
            if "stack5paint" in sym or "stack::paint" in sym:
                state = "paint"
            elif state == "paint":
                state = "op"
                acc = {"classes": {}, "lo": 0, "hi": 0, "n": 0, "syms": {}}
            if state == "op" and ("stack4peak" in sym or "stack::peak" in sym):
                results.append({
                    "seq": seq, "instructions": acc["n"], "classes": acc["classes"],
                    "cycles_lo": acc["lo"], "cycles_hi": acc["hi"],
                    "cpi_lo": round(acc["lo"] / max(acc["n"], 1), 3),
                    "cpi_hi": round(acc["hi"] / max(acc["n"], 1), 3),
                    "by_symbol": dict(sorted(acc["syms"].items(), key=lambda kv: -kv[1])[:25]),
                })
                print(json.dumps(results[-1], separators=(",", ":")), flush=True)
                seq += 1
                acc = None
                state = "idle"
                continue
            if state == "op" and pc in blocks:
                pending = (*blocks[pc], sym)
    rc = qemu.wait()
    os.unlink(fifo)
    os.rmdir(tmp)
    if rc != 0:
        sys.exit(f"error: qemu exited with {rc}")


if __name__ == "__main__":
    main()
