"""Fixtures of the stand-in's own tests: a bare PTB `Bot` talking to it, and a person with a
private chat. (test_page.py has a `client` of its own: the page's HTTP client.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.sandbox import FakeBotApi, FakeUser


@pytest.fixture
async def client(api: FakeBotApi) -> AsyncIterator[Bot]:
    bot = Bot(api.token, base_url=api.base_url)
    async with bot:
        yield bot


@pytest.fixture
def user(api: FakeBotApi) -> FakeUser:
    person = FakeUser(7, "Tola")
    api.private_chat(person)
    return person
