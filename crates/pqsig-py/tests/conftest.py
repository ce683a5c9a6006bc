import os
import pathlib

import pytest

import pqsig

ALL = pqsig.algorithms()


@pytest.fixture(params=ALL, ids=[a.name for a in ALL])
def alg(request):
    return request.param


@pytest.fixture(scope="session")
def vectors():
    """The official vectors folder ($PQSIG_VECTORS, else ../shared/vectors beside the
    checkout, as the Rust suites look for it)."""
    env = os.environ.get("PQSIG_VECTORS")
    if env:
        return pathlib.Path(env)
    root = pathlib.Path(__file__).resolve().parents[3]
    return root.parent / "shared" / "vectors"
