"""The formats that carry a whole bank (Moodle XML, Excel) give it back equal in everything:
YAML -> format -> YAML for the three sample banks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.formats import DRILL, EVERYTHING_BANK, SEED, load, trip


@pytest.mark.parametrize(
    "path", [SEED, DRILL, EVERYTHING_BANK], ids=["seed", "drill", "everything"]
)
@pytest.mark.parametrize(("fmt", "images_beside"), [("xml", False), ("xlsx", True)])
def test_yaml_to_a_lossless_format_to_yaml_gives_the_same_bank(
    fmt: str, images_beside: bool, path: Path
) -> None:
    loaded = load(path)
    back, output = trip(loaded, fmt)
    assert back.quiz == loaded.quiz
    assert dict(back.images) == dict(loaded.images)
    # Moodle XML embeds the images; an Excel sheet travels with them beside it
    assert dict(output.images) == (dict(loaded.images) if images_beside else {})
    assert output.warnings == ()
    assert back.warnings == ()
