"""Type stubs for pqsig (the compiled module pqsig._native and its re-exports)."""

from typing import Iterable, List, Literal, Optional, Tuple, Union

_Bytes = Union[bytes, bytearray, memoryview]
# A string in any case, or an enum member whose .value is one (pyca's Encoding.PEM works).
_Encoding = Union[Literal["raw", "pem", "der", "RAW", "PEM", "DER", "Raw"], object]
_Item = Union[
    Tuple["PublicKey", _Bytes, _Bytes],
    Tuple["PublicKey", _Bytes, _Bytes, Optional[_Bytes]],
]
_SignItem = Union[
    Tuple["PrivateKey", _Bytes],
    Tuple["PrivateKey", _Bytes, Optional[_Bytes]],
]

class InvalidSignature(Exception):
    """The signature does not verify (or is malformed) for this key, data and context."""

class Algorithm:
    """A signature algorithm: ``pqsig.MLDSA65``, ``pqsig.algorithm("SNOVA_I_S")``."""

    @property
    def name(self) -> str: ...
    @property
    def public_key_size(self) -> int: ...
    @property
    def private_key_size(self) -> int: ...
    @property
    def signature_size(self) -> int:
        """The signature size (the maximum for compressed Falcon signatures)."""
    @property
    def seed_size(self) -> int: ...
    @property
    def supports_context(self) -> bool:
        """Whether a non-empty context string is accepted (ML-DSA, FN-DSA)."""
    @property
    def oid(self) -> str:
        """The key-file OID, dotted."""
    @property
    def oid_is_provisional(self) -> bool:
        """True where no final OID exists yet (Falcon, FN-DSA, SNOVA)."""
    def generate(self) -> PrivateKey: ...
    def from_seed(self, seed: _Bytes) -> PrivateKey: ...
    def from_private_bytes(self, data: _Bytes, encoding: _Encoding = "raw") -> PrivateKey:
        """Raw: the standard private encoding (validated) or a seed, told apart by length.
        PEM/DER: PKCS#8 of this algorithm (ML-DSA: any RFC 9881 form)."""
    def from_public_bytes(self, data: _Bytes, encoding: _Encoding = "raw") -> PublicKey:
        """Raw: the standard encoding. PEM/DER: SubjectPublicKeyInfo of this algorithm."""
    def verify_many(self, items: Iterable[_Item]) -> List[bool]:
        """One bool per (public_key, signature, data[, context]); keys of this algorithm."""
    def sign_many(
        self, items: Iterable[_SignItem], *, deterministic: bool = False
    ) -> List[bytes]:
        """One signature per (private_key, data[, context]); keys of this algorithm."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class PrivateKey:
    @property
    def algorithm(self) -> Algorithm: ...
    @property
    def seed(self) -> Optional[bytes]:
        """The key-generation seed, or None for a key loaded from its expanded form."""
    def sign(self, data: _Bytes, context: Optional[_Bytes] = b"") -> bytes: ...
    def sign_deterministic(self, data: _Bytes, context: Optional[_Bytes] = b"") -> bytes:
        """ML-DSA only (ValueError for the other algorithms)."""
    def sign_many(
        self,
        items: Iterable[_Bytes],
        context: Optional[_Bytes] = b"",
        *,
        deterministic: bool = False,
    ) -> List[bytes]:
        """One signature per data item, one context for all, signed as one batch."""
    def public_key(self) -> PublicKey: ...
    def private_bytes(
        self,
        encoding: _Encoding = "raw",
        format: Optional[Literal["expanded", "seed", "both"]] = None,
    ) -> bytes:
        """Raw: the standard encoding ("expanded", the default) or the seed ("seed").
        PEM/DER: PKCS#8; for ML-DSA the RFC 9881 form ("seed" by default when the seed
        is known, else "expanded"; or "both")."""

class PublicKey:
    @property
    def algorithm(self) -> Algorithm: ...
    def verify(self, signature: _Bytes, data: _Bytes, context: Optional[_Bytes] = b"") -> None:
        """Returns None when valid; raises InvalidSignature otherwise."""
    def public_bytes(self, encoding: _Encoding = "raw") -> bytes: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def algorithm(name: str) -> Algorithm: ...
def algorithms() -> List[Algorithm]: ...
def backend() -> str: ...
def load_pem_private_key(data: _Bytes) -> PrivateKey:
    """A PKCS#8 PEM private key of any algorithm (told by its OID)."""
def load_der_private_key(data: _Bytes) -> PrivateKey: ...
def load_pem_public_key(data: _Bytes) -> PublicKey:
    """A SubjectPublicKeyInfo PEM public key of any algorithm (told by its OID)."""
def load_der_public_key(data: _Bytes) -> PublicKey: ...
def verify_many(items: Iterable[_Item]) -> List[bool]:
    """One bool per (public_key, signature, data[, context]), keys of any algorithm,
    verified as one batch over the cores with the GIL released."""
def sign_many(items: Iterable[_SignItem], *, deterministic: bool = False) -> List[bytes]:
    """One signature per (private_key, data[, context]), keys of any algorithm; hedged,
    or deterministic (ML-DSA only). The first failing item raises."""

MLDSA44: Algorithm
MLDSA65: Algorithm
MLDSA87: Algorithm
Falcon512: Algorithm
Falcon1024: Algorithm
FalconPadded512: Algorithm
FalconPadded1024: Algorithm
FNDSA512: Algorithm
FNDSA1024: Algorithm
SNOVA_I_K: Algorithm
SNOVA_I_B: Algorithm
SNOVA_I_S: Algorithm
SNOVA_III_K: Algorithm
SNOVA_III_B: Algorithm
SNOVA_III_S: Algorithm
SNOVA_V_K: Algorithm
SNOVA_V_B: Algorithm
SNOVA_V_S: Algorithm
SNOVA_I_K_AES: Algorithm
SNOVA_I_B_AES: Algorithm
SNOVA_I_S_AES: Algorithm
SNOVA_III_K_AES: Algorithm
SNOVA_III_B_AES: Algorithm
SNOVA_III_S_AES: Algorithm
SNOVA_V_K_AES: Algorithm
SNOVA_V_B_AES: Algorithm
SNOVA_V_S_AES: Algorithm

__all__: List[str]
