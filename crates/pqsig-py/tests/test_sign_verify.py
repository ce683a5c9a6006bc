"""Every algorithm: key generation, sign/verify, tampering, contexts, encodings."""

import threading

import pytest

import pqsig

MSG = b"The quick brown fox jumps over the lazy dog"


def test_registry():
    names = [a.name for a in pqsig.algorithms()]
    assert len(names) == 27 and len(set(names)) == 27
    assert names[:3] == ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
    assert pqsig.MLDSA65 == pqsig.algorithm("ml_dsa_65") == pqsig.algorithm("ML-DSA-65")
    assert pqsig.SNOVA_I_S == pqsig.algorithm("snova-i-s")
    assert pqsig.FNDSA512.name == "FN-DSA-512"
    assert pqsig.FalconPadded1024.name == "Falcon-padded-1024"
    for name in names:  # every algorithm has a module-level name
        attr = name.replace("-", "") if not name.startswith("SNOVA") else name
        attr = attr.replace("Falconpadded", "FalconPadded").replace("FNDSA", "FNDSA")
        assert getattr(pqsig, attr) == pqsig.algorithm(name), name
        assert attr in pqsig.__all__
    with pytest.raises(ValueError, match="unknown algorithm"):
        pqsig.algorithm("ML-DSA-66")
    assert issubclass(pqsig.InvalidSignature, Exception)
    assert pqsig.backend() in ("portable", "avx2", "avx512", "neon")


def test_sign_verify_tamper(alg):
    key = alg.generate()
    pk = key.public_key()
    assert key.algorithm == alg and pk.algorithm == alg
    assert len(pk.public_bytes()) == alg.public_key_size
    assert len(key.private_bytes()) == alg.private_key_size
    assert len(key.seed) == alg.seed_size
    sig = key.sign(MSG)
    assert isinstance(sig, bytes) and 0 < len(sig) <= alg.signature_size
    assert pk.verify(sig, MSG) is None
    assert pk.verify(bytearray(sig), memoryview(MSG)) is None  # bytes-like inputs
    with pytest.raises(pqsig.InvalidSignature):
        pk.verify(sig, MSG + b".")
    bad = bytearray(sig)
    bad[len(bad) // 2] ^= 0x01
    with pytest.raises(pqsig.InvalidSignature):
        pk.verify(bytes(bad), MSG)
    with pytest.raises(pqsig.InvalidSignature):
        pk.verify(sig[:-1], MSG)
    with pytest.raises(pqsig.InvalidSignature):
        pk.verify(b"", MSG)
    # Another key of the same algorithm rejects it.
    with pytest.raises(pqsig.InvalidSignature):
        alg.generate().public_key().verify(sig, MSG)


def test_encodings_round_trip(alg):
    key = alg.generate()
    pk = key.public_key()
    pk2 = alg.from_public_bytes(pk.public_bytes())
    assert pk2 == pk and hash(pk2) == hash(pk)
    # The standard private encoding: same key, no seed known.
    k2 = alg.from_private_bytes(key.private_bytes())
    assert k2.seed is None and k2.public_key() == pk
    assert k2.private_bytes() == key.private_bytes()
    with pytest.raises(ValueError, match="no seed"):
        k2.private_bytes(format="seed")
    pk.verify(k2.sign(MSG), MSG)
    # The seed form.
    k3 = alg.from_private_bytes(key.private_bytes(format="seed"))
    assert k3.seed == key.seed and k3.public_key() == pk
    # Wrong lengths and garbage are ValueErrors, never crashes.
    with pytest.raises(ValueError):
        alg.from_public_bytes(pk.public_bytes()[:-1])
    with pytest.raises(ValueError):
        alg.from_private_bytes(b"\x00" * 7)
    with pytest.raises(ValueError):
        alg.from_seed(b"\x00" * (alg.seed_size + 1))
    with pytest.raises(TypeError):
        alg.from_public_bytes("not bytes")


def test_from_seed_is_deterministic(alg):
    seed = bytes(range(alg.seed_size))
    a, b = alg.from_seed(seed), alg.from_seed(bytearray(seed))
    assert a.public_key() == b.public_key()
    assert a.private_bytes() == b.private_bytes()
    assert a.seed == seed
    other = alg.from_seed(bytes([1]) + seed[1:])
    assert other.public_key() != a.public_key()


def test_contexts(alg):
    key = alg.from_seed(bytes(alg.seed_size))
    pk = key.public_key()
    if alg.supports_context:
        sig = key.sign(MSG, context=b"ctx")
        pk.verify(sig, MSG, context=b"ctx")
        with pytest.raises(pqsig.InvalidSignature):
            pk.verify(sig, MSG)
        with pytest.raises(pqsig.InvalidSignature):
            pk.verify(sig, MSG, context=b"ctx2")
        pk.verify(key.sign(MSG, context=b"x" * 255), MSG, context=b"x" * 255)
        with pytest.raises(ValueError, match="255"):
            key.sign(MSG, context=b"x" * 256)
    else:
        with pytest.raises(ValueError, match="context"):
            key.sign(MSG, context=b"ctx")
        with pytest.raises(ValueError, match="context"):
            pk.verify(key.sign(MSG), MSG, context=b"ctx")
    # The empty context and None are the same.
    pk.verify(key.sign(MSG, context=b""), MSG, context=None)


def test_deterministic_signing():
    key = pqsig.MLDSA44.from_seed(bytes(32))
    assert key.sign_deterministic(MSG, b"c") == key.sign_deterministic(MSG, context=b"c")
    assert key.sign(MSG) != key.sign(MSG)  # hedged by default
    for alg in (pqsig.Falcon512, pqsig.FNDSA512, pqsig.SNOVA_I_S):
        with pytest.raises(ValueError):
            alg.from_seed(bytes(alg.seed_size)).sign_deterministic(MSG)


def test_encoding_parameter():
    key = pqsig.MLDSA44.generate()
    assert key.private_bytes("raw") == key.private_bytes(encoding="RAW")
    assert key.private_bytes("pem") == key.private_bytes(encoding="PEM")
    with pytest.raises(ValueError, match="unknown encoding"):
        key.private_bytes(encoding="base64")
    with pytest.raises(TypeError):
        key.private_bytes(encoding=3)


def test_verify_many():
    items, expected = [], []
    for alg in (pqsig.MLDSA44, pqsig.Falcon512, pqsig.FNDSA512, pqsig.SNOVA_I_S):
        key = alg.generate()
        pk = key.public_key()
        sig = key.sign(MSG)
        items += [(pk, sig, MSG), (pk, sig, MSG + b"!"), (pk, sig[:-1], MSG)]
        expected += [True, False, False]
        if alg.supports_context:
            sig_c = key.sign(MSG, b"ctx")
            items += [(pk, sig_c, MSG, b"ctx"), (pk, sig_c, MSG, b""), (pk, sig_c, MSG)]
            expected += [True, False, False]
    assert pqsig.verify_many(items) == expected
    assert pqsig.verify_many(iter(items)) == expected
    assert pqsig.verify_many([]) == []
    mldsa = [it for it in items if it[0].algorithm == pqsig.MLDSA44]
    assert pqsig.MLDSA44.verify_many(mldsa) == [True, False, False, True, False, False]
    with pytest.raises(ValueError, match="not ML-DSA-44"):
        pqsig.MLDSA44.verify_many(items)
    with pytest.raises(TypeError):
        pqsig.verify_many([(b"pk", b"sig", MSG)])
    with pytest.raises(TypeError):
        pqsig.verify_many([(items[0][0], b"sig")])


def test_threads_share_keys():
    # Keys are used from several threads at once (the GIL is released in sign/verify).
    key = pqsig.MLDSA65.generate()
    pk = key.public_key()
    errors = []

    def work():
        try:
            for i in range(20):
                m = MSG + bytes([i])
                pk.verify(key.sign(m), m)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
