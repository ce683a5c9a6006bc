#!/usr/bin/env python3
"""The official test vectors (vectors/ in the repository, listed in vectors/MANIFEST),
for the Python suites and the shell scripts: the one Python reader of them.

Each file is read from $PQSIG_VECTORS when that is set (an uncompressed tree laid out as
vectors/, e.g. the collection the files came from), else from vectors/ in the
repository, where the large ones are stored xz-compressed (`PATH.xz`). Either way the
bytes are checked against the SHA-256 the MANIFEST gives for the original file.

  scripts/vectors.py cat PATH       the file's bytes on stdout (e.g. `| cmp - out.rsp`)
  scripts/vectors.py unpack DIR     the whole uncompressed tree into DIR
  scripts/vectors.py check          every file against the MANIFEST (exit 1 on a mismatch)
  scripts/vectors.py pack SRC       rewrite vectors/ from the uncompressed tree SRC: every
                                    MANIFEST file, stored as its `stored` column says
                                    (maintainers: add a new file's MANIFEST line first)

Exit status: 0 on success, 1 on a missing file or a hash mismatch, 2 on a usage error."""
import hashlib
import lzma
import os
import sys

REPO_VECTORS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "vectors")


class Entry:
    """One `file` line of the MANIFEST."""

    def __init__(self, fields):
        self.path, size, self.sha256, self.stored, self.source, self.licence = fields
        self.size = int(size)


def manifest():
    """The MANIFEST's file entries, in order."""
    out = []
    with open(os.path.join(REPO_VECTORS, "MANIFEST"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "file":
                if len(fields) != 7 or fields[4] not in ("raw", "xz"):
                    raise ValueError(f"MANIFEST: bad file line: {line!r}")
                out.append(Entry(fields[1:]))
    return out


def entry(rel):
    for e in manifest():
        if e.path == rel:
            return e
    raise KeyError(f"{rel}: not in vectors/MANIFEST")


def _stored_bytes(e):
    """The original bytes of `e`, unchecked: from $PQSIG_VECTORS, else from vectors/."""
    override = os.environ.get("PQSIG_VECTORS")
    if override:
        with open(os.path.join(override, e.path), "rb") as f:
            return f.read()
    stored = os.path.join(REPO_VECTORS, e.path + (".xz" if e.stored == "xz" else ""))
    with open(stored, "rb") as f:
        data = f.read()
    return lzma.decompress(data, format=lzma.FORMAT_XZ) if e.stored == "xz" else data


def read_bytes(rel):
    """The bytes of the vector file `rel` (a MANIFEST path), checked against the MANIFEST."""
    e = entry(rel)
    data = _stored_bytes(e)
    got = hashlib.sha256(data).hexdigest()
    if len(data) != e.size or got != e.sha256:
        raise ValueError(f"{rel}: {len(data)} bytes, sha256 {got}; MANIFEST says "
                         f"{e.size} bytes, {e.sha256}")
    return data


def read_text(rel):
    return read_bytes(rel).decode("utf-8")


def main(argv):
    if len(argv) == 2 and argv[0] == "cat":
        sys.stdout.buffer.write(read_bytes(argv[1]))
        return 0
    if len(argv) == 2 and argv[0] == "unpack":
        for e in manifest():
            dest = os.path.join(argv[1], e.path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(read_bytes(e.path))
        return 0
    if argv == ["check"]:
        bad = 0
        entries = manifest()
        for e in entries:
            try:
                read_bytes(e.path)
            except (OSError, ValueError, lzma.LZMAError) as err:
                print(f"FAILED {err}", file=sys.stderr)
                bad += 1
        where = os.environ.get("PQSIG_VECTORS") or REPO_VECTORS
        print(f"{len(entries) - bad} of {len(entries)} files match vectors/MANIFEST ({where})")
        return 1 if bad else 0
    if len(argv) == 2 and argv[0] == "pack":
        for e in manifest():
            with open(os.path.join(argv[1], e.path), "rb") as f:
                data = f.read()
            if hashlib.sha256(data).hexdigest() != e.sha256 or len(data) != e.size:
                print(f"{e.path}: does not match its MANIFEST line", file=sys.stderr)
                return 1
            dest = os.path.join(REPO_VECTORS, e.path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if e.stored == "xz":
                # xz -9e, CRC64: what every reader (Rust lzma-rust2, Python lzma, xz) takes.
                data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64,
                                     preset=9 | lzma.PRESET_EXTREME)
                dest += ".xz"
            with open(dest, "wb") as f:
                f.write(data)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, KeyError, ValueError, lzma.LZMAError) as err:
        print(f"vectors.py: {err}", file=sys.stderr)
        sys.exit(1)
