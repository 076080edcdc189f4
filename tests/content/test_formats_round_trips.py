"""The formats that carry a whole bank (Moodle XML, Excel) give it back equal in everything:
YAML -> format -> YAML for the three sample banks."""

from __future__ import annotations

import pytest

from content.formats.convert import Loaded
from tests.support.formats import trip


@pytest.mark.parametrize(("fmt", "images_beside"), [("xml", False), ("xlsx", True)])
def test_yaml_to_a_lossless_format_to_yaml_gives_the_same_bank(
    fmt: str, images_beside: bool, sample_bank: Loaded
) -> None:
    loaded = sample_bank
    back, output = trip(loaded, fmt)
    assert back.quiz == loaded.quiz
    assert dict(back.images) == dict(loaded.images)
    # Moodle XML embeds the images; an Excel sheet travels with them beside it
    assert dict(output.images) == (dict(loaded.images) if images_beside else {})
    assert output.warnings == ()
    assert back.warnings == ()
