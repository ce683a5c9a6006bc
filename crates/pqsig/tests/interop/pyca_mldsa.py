#!/usr/bin/env python3
"""ML-DSA key-file interoperability between pqsig and pyca `cryptography`.

    pyca_mldsa.py gen DIR     cryptography writes keys (PKCS#8 seed form and SPKI, PEM
                              and DER) and signatures into DIR
    (the Rust test keyfile_interop_pyca then loads them with pqsig, checks them and
     writes its own keys and signatures into DIR/pqsig)
    pyca_mldsa.py check DIR   cryptography loads pqsig's keys and verifies pqsig's
                              signatures

Run by scripts/test-all.sh in a virtual environment with cryptography pinned.
"""
import os
import sys

import cryptography
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import mldsa

SETS = {"44": mldsa.MLDSA44PrivateKey, "65": mldsa.MLDSA65PrivateKey, "87": mldsa.MLDSA87PrivateKey}
CTX = b"pqsig-interop"
MSG = b"message signed across implementations\n" * 3


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def gen(d):
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, "msg.bin"), MSG)
    for n, cls in SETS.items():
        sk = cls.generate()
        pk = sk.public_key()
        write(os.path.join(d, f"{n}_seed.bin"), sk.private_bytes_raw())
        for enc, ext in ((ser.Encoding.PEM, "pem"), (ser.Encoding.DER, "der")):
            write(os.path.join(d, f"{n}_sk.{ext}"),
                  sk.private_bytes(enc, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
            write(os.path.join(d, f"{n}_pk.{ext}"),
                  pk.public_bytes(enc, ser.PublicFormat.SubjectPublicKeyInfo))
        write(os.path.join(d, f"{n}_sig.bin"), sk.sign(MSG, CTX))
    print(f"pyca cryptography {cryptography.__version__}: wrote ML-DSA-44/65/87 keys and signatures")


def check(d):
    d = os.path.join(d, "pqsig")
    fails = 0
    for n in SETS:
        pk_der = ser.load_der_public_key(read(os.path.join(d, f"{n}_pk.der")))
        pk_pem = ser.load_pem_public_key(read(os.path.join(d, f"{n}_pk.pem")))
        assert pk_der.public_bytes_raw() == pk_pem.public_bytes_raw()
        sk = ser.load_pem_private_key(read(os.path.join(d, f"{n}_sk.pem")), None)
        sk_der = ser.load_der_private_key(read(os.path.join(d, f"{n}_sk.der")), None)
        assert sk.private_bytes_raw() == sk_der.private_bytes_raw()
        if sk.public_key().public_bytes_raw() != pk_der.public_bytes_raw():
            print(f"FAIL ML-DSA-{n}: public key derived by cryptography differs from pqsig's")
            fails += 1
        # pqsig's own key file bytes equal what cryptography writes for the same key.
        if sk.private_bytes(ser.Encoding.DER, ser.PrivateFormat.PKCS8, ser.NoEncryption()) != read(
                os.path.join(d, f"{n}_sk.der")):
            print(f"FAIL ML-DSA-{n}: PKCS#8 bytes differ")
            fails += 1
        if pk_der.public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo) != read(
                os.path.join(d, f"{n}_pk.pem")):
            print(f"FAIL ML-DSA-{n}: SPKI PEM bytes differ")
            fails += 1
        try:
            pk_der.verify(read(os.path.join(d, f"{n}_sig.bin")), MSG, CTX)
        except InvalidSignature:
            print(f"FAIL ML-DSA-{n}: cryptography rejects pqsig's signature")
            fails += 1
        try:
            pk_der.verify(read(os.path.join(d, f"{n}_sig.bin")), MSG + b"x", CTX)
            print(f"FAIL ML-DSA-{n}: a wrong message verified")
            fails += 1
        except InvalidSignature:
            pass
        # The other private-key forms pqsig writes (informational: cryptography may
        # accept only the seed form).
        for form in ("both", "expanded"):
            try:
                k = ser.load_der_private_key(read(os.path.join(d, f"{n}_sk_{form}.der")), None)
                ok = k.public_key().public_bytes_raw() == pk_der.public_bytes_raw()
                print(f"ML-DSA-{n} {form} form: loaded by cryptography, public key "
                      f"{'matches' if ok else 'DIFFERS'}")
                fails += 0 if ok else 1
            except Exception as e:  # noqa: BLE001 (reported, not a failure)
                print(f"ML-DSA-{n} {form} form: not accepted by cryptography "
                      f"{cryptography.__version__} ({type(e).__name__}; it reads the seed form)")
    if fails:
        sys.exit(1)
    print(f"pyca cryptography {cryptography.__version__}: loaded pqsig's ML-DSA keys, "
          "verified pqsig's signatures")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("gen", "check"):
        sys.exit(__doc__)
    (gen if sys.argv[1] == "gen" else check)(sys.argv[2])
