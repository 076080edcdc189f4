from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi
from tests.support.harness import make_settings
from tests.support.room import BANK


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """The homework tests' bot: the small bank (tests/support/room.py), counts redrawn each
    second."""
    banks = tmp_path / "banks"
    banks.mkdir()
    (banks / "tiny.yaml").write_text(BANK, encoding="utf-8")
    return make_settings(
        api, tmp_path / "quiz.sqlite3", content_dir=banks, group_count_interval=1.0
    )
