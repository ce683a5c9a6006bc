#!/usr/bin/env python3
"""Lists every `unsafe { ... }` block and `unsafe impl` in the project's Rust sources
(crates/, fuzz/) that lacks a `// SAFETY:` comment, outside `#[target_feature]` functions
(whose bodies are intrinsic calls on a detected CPU: their one precondition is stated at
the dispatch point), and outside the `unsafe fn` intrinsic helpers of the ISA modules
(files under or named avx2 / avx512 / neon / simd, inlined into `#[target_feature]`
functions: their blocks only call intrinsics, and the helper's own contract is the CPU
feature). Exit 1 when any is missing.

A block counts as justified when the comment lines directly above it (or above the
statement it starts on, or on the same line) contain `SAFETY:`, or when an earlier line of
the same function holds a group justification `SAFETY (all ...):` / `SAFETY (both):`
(the convention for a run of blocks with one argument). A multi-line statement
(`let x = unsafe {`) is looked up from its first line."""
import os
import re
import sys

ROOTS = ["crates", "fuzz"]
SKIP_DIRS = {"target", "corpus", "corpus-work", "artifacts", ".git"}
UNSAFE_BLOCK = re.compile(r"\bunsafe\s*\{|\bunsafe\s+impl\b")
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"[^\"]*\"\s+)?fn\s")


def code(line):
    """The line without a trailing // comment or string contents (roughly)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def comment_above(lines, i):
    """The comment lines (and attributes) directly above line i, joined."""
    out = []
    j = i - 1
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("//") or s.startswith("#[") or s.startswith("/*") or s.startswith("*"):
            out.append(s)
            j -= 1
        else:
            break
    return " ".join(out), j


ISA_FILE = re.compile(r"(avx2|avx512|neon|simd)")


def enclosing_fn_is_target_feature(lines, i, path=""):
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i, -1, -1):
        m = FN.match(lines[j])
        if m and len(m.group(1)) < indent or (m and j == i):
            attrs, _ = comment_above(lines, j)
            isa_helper = m.group(5) is not None and ISA_FILE.search(path) is not None
            return "#[target_feature" in attrs or isa_helper
        if lines[j].startswith("}") or lines[j].startswith("impl") or lines[j].startswith("mod "):
            return False
    return False


GROUP = re.compile(r"SAFETY \((all|both)[^)]*\):")


def group_safety(lines, i):
    """Whether a group SAFETY comment precedes line i inside the same function."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        if GROUP.search(lines[j]):
            return True
        m = FN.match(lines[j])
        if m and len(m.group(1)) < indent:
            return False
    return False


def statement_start(lines, i):
    """First line of the statement containing line i (back over continuation lines)."""
    j = i
    while j > 0:
        prev = code(lines[j - 1]).rstrip()
        if prev.endswith((";", "{", "}", ",")) or prev == "" or lines[j - 1].strip().startswith("//"):
            break
        j -= 1
    return j


def main():
    missing = []
    total = 0
    for root in ROOTS:
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for f in files:
                if not f.endswith(".rs"):
                    continue
                path = os.path.join(dirpath, f)
                lines = open(path, encoding="utf-8").read().split("\n")
                for i, line in enumerate(lines):
                    if not UNSAFE_BLOCK.search(code(line)):
                        continue
                    if enclosing_fn_is_target_feature(lines, i, path):
                        continue
                    total += 1
                    ok = "SAFETY:" in line or group_safety(lines, i)
                    for k in {i, statement_start(lines, i)}:
                        above, _ = comment_above(lines, k)
                        ok = ok or "SAFETY:" in above
                    if not ok:
                        missing.append(f"{path}:{i + 1}: {line.strip()}")
    for m in missing:
        print(m)
    print(f"unsafe-audit: {total} unsafe blocks/impls outside #[target_feature] code, "
          f"{len(missing)} without a SAFETY line")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
