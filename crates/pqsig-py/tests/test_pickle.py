"""Pickling by the standard encodings, and batch verification in a multiprocessing pool."""

import multiprocessing
import pickle

import pytest

import pqsig

MSG = b"pickled message"


def test_pickle_round_trip(alg):
    key = alg.generate()
    pk = key.public_key()
    for proto in (2, pickle.HIGHEST_PROTOCOL):
        assert pickle.loads(pickle.dumps(alg, proto)) == alg
        pk2 = pickle.loads(pickle.dumps(pk, proto))
        assert pk2 == pk
        k2 = pickle.loads(pickle.dumps(key, proto))
        assert k2.seed == key.seed and k2.public_key() == pk
        pk.verify(k2.sign(MSG), MSG)


def test_pickle_uses_standard_encodings():
    key = pqsig.MLDSA65.from_seed(bytes(range(32)))
    pk = key.public_key()
    fn, args = pk.__reduce__()
    assert fn is pqsig._public_key_from_bytes and args == ("ML-DSA-65", pk.public_bytes())
    fn, args = key.__reduce__()
    assert fn is pqsig._private_key_from_bytes and args == ("ML-DSA-65", bytes(range(32)))
    # A key loaded from its expanded form pickles as the expanded form.
    expanded = pqsig.MLDSA65.from_private_bytes(key.private_bytes())
    assert expanded.__reduce__()[1] == ("ML-DSA-65", key.private_bytes())
    again = pickle.loads(pickle.dumps(expanded))
    assert again.seed is None and again.private_bytes() == key.private_bytes()


def _batch(algs, per_alg):
    items, expected = [], []
    for i, alg in enumerate(algs):
        key = alg.generate()
        pk = key.public_key()
        for j in range(per_alg):
            m = b"item %d/%d" % (i, j)
            sig = key.sign(m)
            if j % 3 == 2:  # every third item does not verify
                items.append((pk, sig, m + b"x"))
                expected.append(False)
            else:
                items.append((pk, sig, m))
                expected.append(True)
    return items, expected


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_verify_many_in_multiprocessing_pool(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"start method {method} not available")
    algs = [pqsig.MLDSA44, pqsig.MLDSA87, pqsig.Falcon512, pqsig.FNDSA1024, pqsig.SNOVA_I_S]
    items, expected = _batch(algs, 6)
    chunks = [items[k : k + 4] for k in range(0, len(items), 4)]
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        # pqsig.verify_many itself is the worker: items travel pickled (keys by their
        # standard encodings, signatures and messages as bytes).
        results = pool.map(pqsig.verify_many, chunks)
    assert [ok for chunk in results for ok in chunk] == expected
    assert pqsig.verify_many(items) == expected
