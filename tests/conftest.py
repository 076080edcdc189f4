from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi
from storage import Storage
from tests.support import browser
from tests.support.harness import make_settings, running_bot
from tests.support.room import ADA, GROUP_ID, Room

# The stand-in lives on loopback; no proxy of the environment may sit in between.
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
os.environ["no_proxy"] = "127.0.0.1,localhost"


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    server = FakeBotApi()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "quiz.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    """Every store on a new database file, without a bot."""
    storage = await Storage.open(db_path)
    yield storage
    await storage.close()


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path) -> Settings:
    return make_settings(api, db_path)


@pytest.fixture
async def bot(settings: Settings) -> AsyncIterator[QuizApplication]:
    async with running_bot(settings) as application:
        yield application


@pytest.fixture
def room(api: FakeBotApi) -> Room:
    """A study group (tests/support/room.py), Ada its admin."""
    return Room(api, api.group(GROUP_ID, "study", admins={ADA.id}))


@pytest.fixture
def browser_ready() -> None:
    """Headless Chromium can run here. In CI (`QUIZ_REQUIRE_BROWSER=1`, set by .ci/run, which
    installs Chromium, or `CI` set by a CI service) a missing browser fails the test;
    elsewhere it is skipped, with the reason shown."""
    reason = browser.missing()
    if reason is None:
        return
    if os.environ.get("QUIZ_REQUIRE_BROWSER") or os.environ.get("CI"):
        pytest.fail(f"the browser test cannot run: {reason}", pytrace=False)
    pytest.skip(f"no headless browser here ({reason}); CI installs it")
