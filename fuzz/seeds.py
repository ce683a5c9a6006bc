#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/ from the official vectors
(the repository's vectors/, or $PQSIG_VECTORS; read through scripts/vectors.py): ML-DSA Wycheproof keys, signatures, μ and DER
key files, Falcon round-3 (compact and padded) KAT keys and signatures, SNOVA round-3 KAT
keys, plus hand-written protocol frames, HTTP bodies and verify-batch lines. Each seed
is laid out as its fuzz target reads its input (fuzz/src/lib.rs, fuzz_targets/*.rs).
Deterministic: rerunning rewrites the same files (names are content hashes)."""
import base64, hashlib, json, os, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import vectors  # noqa: E402  (scripts/vectors.py)

OUT = os.path.join(HERE, "corpus")
ALL = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "Falcon-512", "Falcon-1024",
       "Falcon-padded-512", "Falcon-padded-1024", "FN-DSA-512", "FN-DSA-1024"] + \
      [f"SNOVA-{s}" for s in ["I-K", "I-B", "I-S", "III-K", "III-B", "III-S", "V-K", "V-B", "V-S"]] + \
      [f"SNOVA-{s}-AES" for s in ["I-K", "I-B", "I-S", "III-K", "III-B", "III-S", "V-K", "V-B", "V-S"]]


def put(target, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def verify_seed(sel, mode, pk, sig, ctx, msg):
    return bytes([sel, mode]) + pk + struct.pack("<I", len(sig)) + sig + bytes([len(ctx)]) + ctx + msg


def rsp(rel, limit):
    """The first `limit` entries of the NIST .rsp vector file `rel`, as dicts of bytes/ints."""
    out, cur = [], {}
    for line in vectors.read_text(rel).splitlines():
        line = line.strip()
        if " = " not in line:
            continue
        k, v = line.split(" = ", 1)
        if k == "count" and cur:
            out.append(cur)
            cur = {}
            if len(out) == limit:
                break
        cur[k] = int(v) if k in ("count", "mlen", "smlen") else bytes.fromhex(v)
    if cur and len(out) < limit:
        out.append(cur)
    return out


def be32(b):
    return struct.pack(">I", len(b)) + b


def frame(opcode, rid, payload):
    return b"PQSG" + bytes([1, opcode, 0, 0]) + struct.pack(">II", rid, len(payload)) + payload


def main():
    b64 = lambda b: base64.b64encode(b).decode()
    lines, verify_items = [], []
    # ML-DSA: Wycheproof verify (pk, msg, sig) and sign (seed, PKCS#8, μ) vectors.
    for i, p in enumerate(["44", "65", "87"]):
        v = json.loads(vectors.read_text(f"ml-dsa/wycheproof/mldsa_{p}_verify_test.json"))
        for g in v["testGroups"][:2]:
            pk = bytes.fromhex(g["publicKey"])
            put("keyfile", b"\x00" + bytes.fromhex(g["publicKeyDer"]))
            for t in g["tests"][:3]:
                msg, sig = bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"])
                ctx = bytes.fromhex(t.get("ctx", ""))
                put("verify", verify_seed(i, 0, pk, sig, ctx, msg))
                lines.append(json.dumps({"alg": ALL[i], "pk": b64(pk), "msg": b64(msg),
                                         "sig": b64(sig), "ctx": b64(ctx)}).encode())
                verify_items.append((ALL[i], pk, msg, ctx, sig))
        s = json.loads(vectors.read_text(f"ml-dsa/wycheproof/mldsa_{p}_sign_seed_test.json"))
        g = s["testGroups"][0]
        put("keyfile", b"\x80" + bytes.fromhex(g["privateKeyPkcs8"]))
        pem = b"-----BEGIN PRIVATE KEY-----\n" + base64.encodebytes(bytes.fromhex(g["privateKeyPkcs8"])) + b"-----END PRIVATE KEY-----\n"
        put("keyfile", b"\x01" + pem)
        pk = bytes.fromhex(g["publicKey"])
        for t in g["tests"][:2]:
            if t.get("mu"):
                put("verify", verify_seed(i, 1, pk, bytes.fromhex(t["sig"]), b"", bytes.fromhex(t["mu"])))
        put("sign_roundtrip", bytes([i]) + bytes.fromhex(g["privateSeed"]) + b"\x03ctxmessage")
    # Falcon round 3, compact and padded: keys and detached signatures from the KATs.
    for i, (name, f) in enumerate([("Falcon-512", "round3/falcon512-KAT.rsp"),
                                   ("Falcon-1024", "round3/falcon1024-KAT.rsp"),
                                   ("Falcon-padded-512", "round3-padded/falcon-padded-512-KAT.rsp"),
                                   ("Falcon-padded-1024", "round3-padded/falcon-padded-1024-KAT.rsp")]):
        sel = 3 + i
        for e in rsp(f"falcon/{f}", 2):
            pk, sk, sm, mlen = e["pk"], e["sk"], e["sm"], e["mlen"]
            siglen = struct.unpack(">H", sm[:2])[0]
            nonce, msg, esig = sm[2:42], sm[42:42 + mlen], sm[42 + mlen:]
            put("signing_key", bytes([sel, 1]) + sk + msg)
            if not esig or esig[0] >> 4 != 2:
                continue  # not the compact signed-message layout: keys only
            sig = bytes([esig[0] + 0x10]) + nonce + esig[1:]   # 0x2X signed-message header → 0x3X
            put("verify", verify_seed(sel, 0, pk, sig, b"", msg))
            lines.append(json.dumps({"alg": name, "pk": b64(pk), "msg": b64(msg), "sig": b64(sig)}).encode())
            verify_items.append((name, pk, msg, b"", sig))
        put("sign_roundtrip", bytes([sel]) + bytes(48) + b"\x00message")
    for sel in (7, 8):
        put("sign_roundtrip", bytes([sel]) + bytes(32) + b"\x06domainmessage")
    # SNOVA round 3: the KAT keys of the sets the vectors carry.
    snova = [e.path for e in vectors.manifest() if e.path.startswith("snova/round3/")]
    for f in sorted(p.rsplit("/", 1)[1] for p in snova):
        if not f.endswith(".rsp"):
            continue
        name = "SNOVA-" + f[len("PQCsignKAT_SNOVA_"):-4].replace("_", "-")
        if name not in ALL:
            continue
        sel = ALL.index(name)
        for e in rsp(f"snova/round3/{f}", 1):
            put("signing_key", bytes([sel, 0]) + e["sk"] + e["msg"])
            put("verify", verify_seed(sel, 0, e["pk"], e["sm"][:-e["mlen"]] if e["mlen"] else e["sm"], b"", e["msg"]))
            put("verify", verify_seed(sel, 0, e["pk"], e["sm"][e["mlen"]:], b"", e["msg"]))
    for sel in range(9, 27):
        put("sign_roundtrip", bytes([sel]) + bytes(48) + b"\x00message")
    # verify-batch lines.
    for l in lines[:20]:
        put("cli_verify_batch_line", l)
    put("cli_verify_batch_line", b'{"alg":"ML-DSA-44","pk":"AA","msg":"","sig":"AA==","ctx":null}')
    put("cli_verify_batch_line", b"   ")
    put("cli_verify_batch_line", b"[1,2]")
    # Protocol frames and BATCH payloads; HTTP JSON and binary bodies.
    batch_items = b""
    for alg, pk, msg, ctx, sig in verify_items[:3]:
        body = b"\x01" + be32(alg.encode()) + be32(pk) + b"\x00" + be32(ctx) + be32(msg) + be32(sig)
        put("proto_frame", b"\x00" + frame(0x11, 7, body))
        batch_items += b"\x11" + be32(body)
        put("server_http", b"\x02" + json.dumps({"algorithm": alg, "public_key": b64(pk),
                                                  "message": b64(msg), "signature": b64(sig)}).encode())
    sign_body = be32(b"k1") + b"\x02" + be32(b"ctx") + be32(b"message")
    sign_items = b"\x10" + be32(sign_body)
    put("proto_frame", b"\x00" + frame(0x10, 1, sign_body))
    put("proto_frame", b"\x00" + frame(0x01, 2, be32(b"ping")))
    put("proto_frame", b"\x00" + frame(0x02, 3, be32(b"token-token-token")))
    put("proto_frame", b"\x00" + frame(0x20, 4, struct.pack(">I", 3) + batch_items))
    put("proto_frame", b"\x02\x20" + struct.pack(">I", 1) + sign_items)
    put("proto_frame", b"\x03" + struct.pack(">I", 3) + batch_items)
    put("proto_frame", b"\x01" + frame(0x81, 2, be32(b"ping")))
    put("server_http", b"\x05" + struct.pack(">I", 3) + batch_items)
    put("server_http", b"\x05" + struct.pack(">I", 1) + sign_items)
    put("server_http", b"\x00" + b'{"alg":"ML-DSA-65"}')
    put("server_http", b"\x01" + b'{"message":"bWVzc2FnZQ==","context":"Y3R4","deterministic":true}')
    put("server_http", b"\x01" + b'{"mu":"' + b64(bytes(64)).encode() + b'"}')
    put("server_http", b"\x03" + b'{"context":"Y3R4","deterministic":false,"items":[{"message":"AA=="},{"mu":"AAAA"}]}')
    put("server_http", b"\x04" + b'{"key_id":"k1","items":[{"message":"AA==","signature":"AAAA"}]}')
    # Kernel inputs: each selector with a pseudo-random body.
    h = hashlib.shake_256(b"pqsig simd_equiv seeds").digest(7 * 1200)
    for sel in range(7):
        put("simd_equiv", bytes([sel, 200, 1]) + h[sel * 1200:(sel + 1) * 1200])
        put("simd_equiv", bytes([sel | 0x80, 17, 0]) + h[sel * 100:(sel + 1) * 100])
    return 0


if __name__ == "__main__":
    sys.exit(main())
