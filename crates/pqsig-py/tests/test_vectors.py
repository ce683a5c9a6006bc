"""from_seed against known answers: the Wycheproof ML-DSA seed vectors (seed -> public
key, deterministic signatures) and, when $PQSIG_CLI names the pqsig binary, the CLI's
`keygen --seed` for every algorithm (keys from the same seed sign for each other)."""

import json
import os
import subprocess

import pytest

import pqsig


@pytest.mark.parametrize("level", [44, 65, 87])
def test_wycheproof_mldsa_seed_vectors(vector_text, level):
    text = vector_text(f"ml-dsa/wycheproof/mldsa_{level}_sign_seed_test.json")
    alg = pqsig.algorithm(f"ML-DSA-{level}")
    checked = 0
    for group in json.loads(text)["testGroups"]:
        seed = bytes.fromhex(group["privateSeed"])
        if len(seed) != alg.seed_size:
            with pytest.raises(ValueError):
                alg.from_seed(seed)
            continue
        key = alg.from_seed(seed)
        pk = key.public_key()
        assert pk.public_bytes().hex() == group["publicKey"].lower()
        for t in group["tests"]:
            if "msg" not in t or "rnd" in t or "Internal" in t["flags"]:
                continue
            msg = bytes.fromhex(t["msg"])
            ctx = bytes.fromhex(t.get("ctx", ""))
            sig = bytes.fromhex(t["sig"])
            if t["result"] == "valid":
                assert key.sign_deterministic(msg, ctx) == sig, t["tcId"]
                pk.verify(sig, msg, ctx)
                checked += 1
            elif len(ctx) > 255:
                with pytest.raises(ValueError):
                    key.sign_deterministic(msg, ctx)
    assert checked > 0


CLI = os.environ.get("PQSIG_CLI")


@pytest.mark.skipif(not CLI, reason="PQSIG_CLI (path of the pqsig binary) not set")
def test_from_seed_matches_cli(alg, tmp_path):
    seed = bytes((7 * i + 1) & 0xFF for i in range(alg.seed_size))
    pk_file, sk_file = tmp_path / "k.pk", tmp_path / "k.sk"
    subprocess.run(
        [CLI, "keygen", "--alg", alg.name, "--seed", seed.hex(),
         "--pk", str(pk_file), "--sk", str(sk_file)],
        check=True,
    )
    key = alg.from_seed(seed)
    raw_pk = pk_file.read_bytes()
    if len(raw_pk) == alg.public_key_size:  # raw key files: compare the bytes too
        assert raw_pk == key.public_key().public_bytes()
    msg_file, sig_file = tmp_path / "m", tmp_path / "m.sig"
    msg_file.write_bytes(b"cli interop")
    # The CLI verifies a signature made from the Python key ...
    sig_file.write_bytes(key.sign(b"cli interop"))
    verify = [CLI, "verify", "--alg", alg.name, "--pk", str(pk_file),
              "--in", str(msg_file), "--sig", str(sig_file)]
    assert subprocess.run(verify).returncode == 0
    # ... rejects it for another message ...
    msg_file.write_bytes(b"cli interop?")
    assert subprocess.run(verify, stderr=subprocess.DEVNULL).returncode == 1
    # ... and the Python key verifies what the CLI signs with its key file.
    subprocess.run(
        [CLI, "sign", "--alg", alg.name, "--sk", str(sk_file),
         "--in", str(msg_file), "--out", str(sig_file)],
        check=True,
    )
    key.public_key().verify(sig_file.read_bytes(), b"cli interop?")
