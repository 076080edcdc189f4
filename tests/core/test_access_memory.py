"""The chat member statuses the bot remembers (bot/core/access.py): each looked up at most once
per `STATUS_TTL`, and no more of them than `MEMBER_STATUSES`, the least recently used going
first: a bot in groups of 10,000 members for months does not keep every member ever seen."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core.access import STATUS_TTL, is_member
from bot.core.context import MEMBER_STATUSES, Services
from content.catalog import Catalog
from storage import Storage


class Telegram:
    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        self.asked.append((chat_id, user_id))
        return SimpleNamespace(status="member")


@asynccontextmanager
async def services_on(tmp_path: Path, clock: Callable[[], float]) -> AsyncIterator[Services]:
    """The services on a new database file, without a bot."""
    storage = await Storage.open(tmp_path / "quiz.sqlite3")
    try:
        yield Services(
            Settings(token="1:x", db_path=tmp_path / "quiz.sqlite3"),
            storage,
            Catalog.from_folder(DEFAULT_CONTENT_DIR, "en"),
            clock=clock,
        )
    finally:
        await storage.close()


async def test_statuses_are_remembered_for_a_while_and_never_more_than_the_bound(
    tmp_path: Path,
) -> None:
    now = 1_000.0
    async with services_on(tmp_path, lambda: now) as services:
        telegram = Telegram()
        context: Any = SimpleNamespace(services=services, bot=telegram)
        members = range(1, MEMBER_STATUSES + 501)
        for member in members:
            assert await is_member(context, -100, member)
        assert len(services.member_status) == MEMBER_STATUSES
        assert len(telegram.asked) == len(members)
        # the latest are remembered; the first 500, dropped, are asked again
        assert await is_member(context, -100, members[-1])
        assert len(telegram.asked) == len(members)
        assert await is_member(context, -100, members[0])
        assert telegram.asked[-1] == (-100, members[0])
        asked = len(telegram.asked)
        now += STATUS_TTL  # too old to trust: asked again
        assert await is_member(context, -100, members[-1])
        assert len(telegram.asked) == asked + 1


async def test_a_moved_chat_is_forgotten_under_its_old_id(tmp_path: Path) -> None:
    async with services_on(tmp_path, time.time) as services:
        old, new, other = -42, -10042, -7
        services.member_status[(old, 1)] = (0.0, "administrator")
        services.member_status[(other, 1)] = (0.0, "member")
        services.usual_languages[old] = (0.0, "yo")
        services.usual_languages[new] = (0.0, "en")  # worked out while the supergroup was empty
        services.poll_chats["p1"] = old
        services.poll_chats["p2"] = other
        services.forget_chat(old, new)
        assert dict(services.member_status) == {(other, 1): (0.0, "member")}
        assert dict(services.usual_languages) == {}
        assert dict(services.poll_chats) == {"p1": new, "p2": other}
