from __future__ import annotations

import pytest

from content.formats.convert import Loaded
from tests.support.formats import DRILL, EVERYTHING_BANK, SEED, load


@pytest.fixture(params=[SEED, DRILL, EVERYTHING_BANK], ids=["seed", "drill", "everything"])
def sample_bank(request: pytest.FixtureRequest) -> Loaded:
    """Each of the three sample banks in turn (the shipped one, the drill of every type, the
    test bank of every field), as the converter reads it: what the round trips start from."""
    return load(request.param)
