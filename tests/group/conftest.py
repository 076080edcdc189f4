from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi
from tests.support.room import room_settings


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """The group tests' bot: the small bank (tests/support/room.py), questions of a second."""
    return room_settings(api, tmp_path, group_min_seconds=1)
