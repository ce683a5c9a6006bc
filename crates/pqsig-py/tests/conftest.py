import pathlib
import sys

import pytest

import pqsig

ALL = pqsig.algorithms()


@pytest.fixture(params=ALL, ids=[a.name for a in ALL])
def alg(request):
    return request.param


@pytest.fixture(scope="session")
def vector_text():
    """Reads an official vector file as text: `vector_text("ml-dsa/wycheproof/...")`,
    through scripts/vectors.py (the repository's vectors/, or $PQSIG_VECTORS), checked
    against vectors/MANIFEST."""
    root = pathlib.Path(__file__).resolve().parents[3]
    sys.path.insert(0, str(root / "scripts"))
    import vectors

    return vectors.read_text
