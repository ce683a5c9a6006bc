"""pqsig: post-quantum signatures (ML-DSA, Falcon, FN-DSA, SNOVA) implemented in Rust.

    import pqsig
    key = pqsig.MLDSA65.generate()
    sig = key.sign(b"message", context=b"app-v1")
    key.public_key().verify(sig, b"message", context=b"app-v1")  # raises InvalidSignature
    pem = key.private_bytes(encoding="pem")      # PKCS#8 (RFC 9881 seed form for ML-DSA)
    same = pqsig.load_pem_private_key(pem)       # algorithm told by the OID

Every algorithm is an :class:`Algorithm` object: the module-level names below
(``MLDSA44`` ... ``SNOVA_V_S_AES``) or ``algorithm(name)`` for any spelling of a canonical
name; ``algorithms()`` lists them all.
"""

from ._native import (
    Algorithm,
    InvalidSignature,
    PrivateKey,
    PublicKey,
    algorithm,
    algorithms,
    backend,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    sign_many,
    verify_many,
)

# Python names of the algorithms: ML-DSA-65 -> MLDSA65, Falcon-padded-512 ->
# FalconPadded512, FN-DSA-512 -> FNDSA512, SNOVA names as they are (SNOVA_I_S_AES).
MLDSA44 = algorithm("ML-DSA-44")
MLDSA65 = algorithm("ML-DSA-65")
MLDSA87 = algorithm("ML-DSA-87")
Falcon512 = algorithm("Falcon-512")
Falcon1024 = algorithm("Falcon-1024")
FalconPadded512 = algorithm("Falcon-padded-512")
FalconPadded1024 = algorithm("Falcon-padded-1024")
FNDSA512 = algorithm("FN-DSA-512")
FNDSA1024 = algorithm("FN-DSA-1024")
SNOVA_I_K = algorithm("SNOVA_I_K")
SNOVA_I_B = algorithm("SNOVA_I_B")
SNOVA_I_S = algorithm("SNOVA_I_S")
SNOVA_III_K = algorithm("SNOVA_III_K")
SNOVA_III_B = algorithm("SNOVA_III_B")
SNOVA_III_S = algorithm("SNOVA_III_S")
SNOVA_V_K = algorithm("SNOVA_V_K")
SNOVA_V_B = algorithm("SNOVA_V_B")
SNOVA_V_S = algorithm("SNOVA_V_S")
SNOVA_I_K_AES = algorithm("SNOVA_I_K_AES")
SNOVA_I_B_AES = algorithm("SNOVA_I_B_AES")
SNOVA_I_S_AES = algorithm("SNOVA_I_S_AES")
SNOVA_III_K_AES = algorithm("SNOVA_III_K_AES")
SNOVA_III_B_AES = algorithm("SNOVA_III_B_AES")
SNOVA_III_S_AES = algorithm("SNOVA_III_S_AES")
SNOVA_V_K_AES = algorithm("SNOVA_V_K_AES")
SNOVA_V_B_AES = algorithm("SNOVA_V_B_AES")
SNOVA_V_S_AES = algorithm("SNOVA_V_S_AES")


def _private_key_from_bytes(name: str, data: bytes) -> PrivateKey:
    """Unpickler for PrivateKey (seed or standard encoding, by length)."""
    return algorithm(name).from_private_bytes(data)


def _public_key_from_bytes(name: str, data: bytes) -> PublicKey:
    """Unpickler for PublicKey (standard encoding)."""
    return algorithm(name).from_public_bytes(data)


__all__ = [
    "Algorithm",
    "InvalidSignature",
    "PrivateKey",
    "PublicKey",
    "algorithm",
    "algorithms",
    "backend",
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
    "sign_many",
    "verify_many",
    "MLDSA44",
    "MLDSA65",
    "MLDSA87",
    "Falcon512",
    "Falcon1024",
    "FalconPadded512",
    "FalconPadded1024",
    "FNDSA512",
    "FNDSA1024",
] + [a.name for a in algorithms() if a.name.startswith("SNOVA_")]
