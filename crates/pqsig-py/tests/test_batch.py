"""verify_many / sign_many (the library's batch engine): every result equals the single
call's, across algorithms, contexts, buffer types and bad items."""

import pytest

import pqsig

MSG = b"batch message"
FAMILIES = (pqsig.MLDSA44, pqsig.MLDSA65, pqsig.Falcon512, pqsig.FNDSA512, pqsig.SNOVA_I_S)


def single_verify(pk, sig, data, ctx=b""):
    try:
        pk.verify(sig, data, ctx)
        return True
    except (pqsig.InvalidSignature, ValueError):
        return False


@pytest.fixture(scope="module")
def keys():
    return {alg.name: alg.generate() for alg in FAMILIES}


def mixed_items(keys):
    """Valid, tampered, truncated, wrong-message and context items of every family, in
    an interleaved order, with bytes, bytearray and memoryview fields."""
    items = []
    for i in range(12):
        for alg in FAMILIES:
            key = keys[alg.name]
            pk = key.public_key()
            msg = MSG + bytes([i])
            ctx = b"ctx" if (alg.supports_context and i % 2) else b""
            sig = key.sign(msg, ctx)
            kind = i % 6
            if kind == 1:
                sig = bytes([sig[0] ^ 1]) + sig[1:]
            elif kind == 2:
                sig = sig[:-1]
            elif kind == 3:
                msg = msg + b"!"
            elif kind == 4:
                msg, sig = bytearray(msg), memoryview(sig)
            items.append((pk, sig, msg, ctx) if ctx or i % 3 else (pk, sig, msg))
    # A context where the algorithm takes none: False, as the single call raises.
    fal = keys["Falcon-512"]
    items.append((fal.public_key(), fal.sign(MSG), MSG, b"c"))
    return items


def test_verify_many_equals_single_calls(keys):
    items = mixed_items(keys)
    want = [single_verify(*it) for it in items]
    assert True in want and False in want
    assert pqsig.verify_many(items) == want
    assert pqsig.verify_many(iter(items)) == want
    assert pqsig.verify_many(tuple(items)) == want
    assert pqsig.verify_many([]) == []


def test_verify_many_one_key_many_items(keys):
    # More items than the lockstep units and threads, one key: the data-engineer case.
    key = keys["ML-DSA-65"]
    pk = key.public_key()
    msgs = [b"row %d" % i for i in range(100)]
    sigs = [key.sign(m) for m in msgs]
    items = [(pk, s, m) for s, m in zip(sigs, msgs)]
    items[37] = (pk, sigs[38], msgs[37])
    want = [i != 37 for i in range(100)]
    assert pqsig.MLDSA65.verify_many(items) == want
    assert pqsig.verify_many(items) == want


def test_verify_many_bad_items(keys):
    pk = keys["ML-DSA-44"].public_key()
    sig = keys["ML-DSA-44"].sign(MSG)
    with pytest.raises(ValueError, match="item 1 holds a ML-DSA-65 key, not ML-DSA-44"):
        pqsig.MLDSA44.verify_many([(pk, sig, MSG), (keys["ML-DSA-65"].public_key(), sig, MSG)])
    with pytest.raises(TypeError, match="item 0: first field must be a pqsig.PublicKey"):
        pqsig.verify_many([(b"pk", sig, MSG)])
    with pytest.raises(TypeError, match="item 1 has 2 fields"):
        pqsig.verify_many([(pk, sig, MSG), (pk, sig)])
    with pytest.raises(TypeError, match="item 0 must be a tuple"):
        pqsig.verify_many([[pk, sig, MSG]])
    with pytest.raises(TypeError, match="item 1: data must be bytes"):
        pqsig.verify_many([(pk, sig, MSG), (pk, sig, "text")])
    with pytest.raises(TypeError, match="item 0: context must be bytes"):
        pqsig.verify_many([(pk, sig, MSG, 5)])
    with pytest.raises(TypeError):
        pqsig.verify_many(5)
    # A context of None is the empty context.
    assert pqsig.verify_many([(pk, sig, MSG, None)]) == [True]


def test_sign_many_mixed_algorithms(keys):
    items = []
    for i, alg in enumerate(FAMILIES * 3):
        key = keys[alg.name]
        ctx = b"c%d" % i if alg.supports_context else b""
        items.append((key, MSG + bytes([i]), ctx) if i % 2 else (key, bytearray(MSG + bytes([i]))))
    sigs = pqsig.sign_many(items)
    assert len(sigs) == len(items)
    for it, sig in zip(items, sigs):
        assert isinstance(sig, bytes)
        ctx = it[2] if len(it) == 3 else b""
        it[0].public_key().verify(sig, bytes(it[1]), ctx)
    # Round trip through verify_many.
    checks = [(it[0].public_key(), s, it[1], it[2] if len(it) == 3 else b"") for it, s in zip(items, sigs)]
    assert pqsig.verify_many(checks) == [True] * len(items)
    assert pqsig.sign_many([]) == []


def test_sign_many_deterministic_equals_single_calls(keys):
    mldsa = [keys["ML-DSA-44"], keys["ML-DSA-65"]]
    items = [(mldsa[i % 2], MSG + bytes([i]), b"ctx" if i % 3 else b"") for i in range(10)]
    want = [k.sign_deterministic(m, c) for k, m, c in items]
    assert pqsig.sign_many(items, deterministic=True) == want
    ml65 = [it for it in items if it[0].algorithm == pqsig.MLDSA65]
    assert pqsig.MLDSA65.sign_many(ml65, deterministic=True) == [
        k.sign_deterministic(m, c) for k, m, c in ml65
    ]
    key = keys["ML-DSA-65"]
    msgs = [b"a", b"b", b"c"]
    assert key.sign_many(msgs, b"ctx", deterministic=True) == [
        key.sign_deterministic(m, b"ctx") for m in msgs
    ]
    # Hedged: fresh signatures, each valid.
    hedged = key.sign_many(msgs)
    assert hedged != key.sign_many(msgs)
    for m, s in zip(msgs, hedged):
        key.public_key().verify(s, m)


def test_sign_many_bad_items(keys):
    ml, fal = keys["ML-DSA-44"], keys["Falcon-512"]
    # The first failing item raises what the single call raises, naming the item.
    with pytest.raises(ValueError, match="sign_many: item 1: Falcon-512"):
        pqsig.sign_many([(ml, MSG, b"c"), (fal, MSG, b"c")])
    with pytest.raises(ValueError, match="item 1: Falcon-512"):
        pqsig.sign_many([(ml, MSG), (fal, MSG)], deterministic=True)
    with pytest.raises(ValueError, match="item 0: ML-DSA-44"):
        pqsig.sign_many([(ml, MSG, b"x" * 256)])
    with pytest.raises(ValueError, match="item 1 holds a Falcon-512 key, not ML-DSA-44"):
        pqsig.MLDSA44.sign_many([(ml, MSG), (fal, MSG)])
    with pytest.raises(TypeError, match="item 0: first field must be a pqsig.PrivateKey"):
        pqsig.sign_many([(ml.public_key(), MSG)])
    with pytest.raises(TypeError, match="item 0 has 1 fields"):
        pqsig.sign_many([(ml,)])
    with pytest.raises(TypeError, match="item 2: data must be bytes"):
        ml.sign_many([b"a", b"b", 3])
    with pytest.raises(ValueError, match="Falcon-512"):
        fal.sign_many([b"a"], deterministic=True)
    with pytest.raises(TypeError):
        pqsig.sign_many([(ml, MSG)], True)  # deterministic is keyword-only


def _child_batch(n):
    key = pqsig.MLDSA44.generate()
    msgs = [b"child %d" % i for i in range(n)]
    sigs = pqsig.sign_many([(key, m) for m in msgs])
    return pqsig.verify_many([(key.public_key(), s, m) for s, m in zip(sigs, msgs)])


def test_batches_in_a_child_forked_after_the_parent_used_them(keys):
    # The parent's thread pool exists now; forked children must not wait on its workers.
    multiprocessing = pytest.importorskip("multiprocessing")
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    test_verify_many_one_key_many_items(keys)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_child_batch, [20, 30]).get(timeout=120)
    assert got == [[True] * 20, [True] * 30]
