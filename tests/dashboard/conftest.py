from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi
from tests.support.dashboard import APP_URL, Clock
from tests.support.room import room_settings


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """The dashboard tests' bot: the small bank (tests/support/room.py), questions of a second."""
    return room_settings(api, tmp_path, group_min_seconds=1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app_settings(settings: Settings) -> Settings:
    """The dashboard turned on."""
    return replace(settings, app_url=APP_URL, group_min_seconds=1)
