"""PEM/DER key files: round trips for every algorithm, the RFC 9881 ML-DSA forms,
algorithm detection by OID, malformed input, and interop with pyca/cryptography."""

import pytest

import pqsig

MSG = b"key files"


def test_round_trip_every_algorithm(alg):
    key = alg.generate()
    pub = key.public_key()
    sig = key.sign(MSG)
    for enc in ("pem", "der"):
        sk_file = key.private_bytes(encoding=enc)
        pk_file = pub.public_bytes(encoding=enc)
        if enc == "pem":
            assert sk_file.startswith(b"-----BEGIN PRIVATE KEY-----")
            assert pk_file.startswith(b"-----BEGIN PUBLIC KEY-----")
        loaded = (pqsig.load_pem_private_key if enc == "pem" else pqsig.load_der_private_key)(
            sk_file
        )
        assert loaded.algorithm == alg
        assert loaded.private_bytes() == key.private_bytes()
        assert loaded.public_key() == pub
        again = alg.from_private_bytes(sk_file, encoding=enc)
        assert again.private_bytes() == key.private_bytes()
        pk = (pqsig.load_pem_public_key if enc == "pem" else pqsig.load_der_public_key)(pk_file)
        assert pk == pub and pk.algorithm == alg
        assert alg.from_public_bytes(pk_file, encoding=enc) == pub
        pk.verify(sig, MSG)
        pub.verify(loaded.sign(MSG), MSG)


def test_mldsa_private_key_forms():
    alg = pqsig.MLDSA65
    key = alg.from_seed(bytes(range(32)))
    der = {f: key.private_bytes(encoding="der", format=f) for f in ("seed", "expanded", "both")}
    assert key.private_bytes(encoding="der") == der["seed"]  # RFC 9881's recommended form
    assert len(der["seed"]) < len(der["expanded"]) < len(der["both"])
    for form, data in der.items():
        k = pqsig.load_der_private_key(data)
        assert k.private_bytes() == key.private_bytes()
        assert (k.seed is not None) == (form != "expanded")
    # A key loaded without its seed writes the expanded form only.
    seedless = alg.from_private_bytes(key.private_bytes())
    assert seedless.seed is None
    assert seedless.private_bytes(encoding="der") == der["expanded"]
    with pytest.raises(ValueError, match="seed"):
        seedless.private_bytes(encoding="pem", format="seed")
    with pytest.raises(ValueError, match="unknown format"):
        key.private_bytes(encoding="pem", format="compressed")


def test_wrong_algorithm_and_armour_are_value_errors():
    key = pqsig.MLDSA44.generate()
    pem = key.private_bytes(encoding="pem")
    der = key.private_bytes(encoding="der")
    with pytest.raises(ValueError):
        pqsig.MLDSA65.from_private_bytes(pem, encoding="pem")
    with pytest.raises(ValueError):
        pqsig.Falcon512.from_public_bytes(key.public_key().public_bytes("der"), encoding="der")
    with pytest.raises(ValueError, match="not PEM"):
        pqsig.load_pem_private_key(der)
    with pytest.raises(ValueError, match="not DER"):
        pqsig.load_der_private_key(pem)
    with pytest.raises(ValueError):
        pqsig.load_pem_public_key(pem)  # a private key where a public one is expected


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n",
        b"\x30\x03\x02\x01\x00",
        b"\x30\x80",
    ],
)
def test_malformed_files_raise_value_error(data):
    for load in (
        pqsig.load_pem_private_key,
        pqsig.load_der_private_key,
        pqsig.load_pem_public_key,
        pqsig.load_der_public_key,
    ):
        with pytest.raises(ValueError):
            load(data)


def test_truncated_der_never_crashes():
    der = pqsig.SNOVA_I_S.generate().private_bytes(encoding="der")
    for n in range(0, len(der), 7):
        with pytest.raises(ValueError):
            pqsig.load_der_private_key(der[:n])


def test_pyca_interop():
    """pyca/cryptography 50 reads and writes ML-DSA keys (RFC 9881 seed form)."""
    crypto = pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import mldsa

    assert crypto.__version__.startswith("50.")
    # pyca writes, pqsig reads and signs; pyca verifies.
    theirs = mldsa.MLDSA65PrivateKey.generate()
    pem = theirs.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    ours = pqsig.load_pem_private_key(pem)
    assert ours.algorithm == pqsig.MLDSA65
    theirs.public_key().verify(ours.sign(MSG, context=b"ctx"), MSG, b"ctx")
    # pqsig writes (with pyca's own Encoding enum), pyca reads and signs; pqsig verifies.
    mine = pqsig.MLDSA65.generate()
    loaded = serialization.load_pem_private_key(
        mine.private_bytes(encoding=serialization.Encoding.PEM), password=None
    )
    mine.public_key().verify(loaded.sign(MSG, b"ctx"), MSG, context=b"ctx")
    spki = mine.public_key().public_bytes(encoding="der")
    pub = serialization.load_der_public_key(spki)
    assert (
        pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        == spki
    )
