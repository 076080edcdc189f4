"""People's names inside the bot's messages, end to end: a name with right-to-left overrides
and zero-width characters is cleaned and isolated on the boards and in the welcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import bank_settings, running_bot
from tests.support.learner import Learner

BANK = """
id: duo
title: "Duo"
level: easy
questions:
  - id: d1
    text: "Two plus two?"
    options: ["three", "four"]
    answer: 1
"""
FSI, PDI = "\u2068", "\u2069"
CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u200b\u200c\u200d\u2060\ufeff"
ADA = FakeUser(1, "Ada")
# "‮" reverses everything after it on the line; the joiner makes "Mal‍lory" look like "Mallory"
MALLORY = FakeUser(2, "\u202eMal\u200dlory")
GROUP_ID = -100321


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(api, tmp_path, {"duo": BANK}, group_min_seconds=1)


def isolated_only(text: str) -> None:
    """No bidi control or zero-width character outside our own balanced FSI…PDI pairs."""
    assert not any(char in CONTROLS for char in text), repr(text)
    depth = 0
    for char in text:
        depth += {FSI: 1, PDI: -1}.get(char, 0)
        assert 0 <= depth <= 1, repr(text)
    assert depth == 0, repr(text)


async def test_a_name_with_an_override_and_a_joiner_is_isolated_on_the_boards(
    api: FakeBotApi, settings: Settings
) -> None:
    chat = api.group(GROUP_ID, "study", admins={ADA.id})
    async with running_bot(settings):
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, "/groupquiz duo 60", chat)
        question = await api.wait_for_bot_message(GROUP_ID, "Question 1 of 1", after=seen)
        query = api.tap(MALLORY, question, question.button_data()[1], forge=True)
        assert (await api.wait_for_answer(query))["text"].startswith("✅")
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, "/stopquiz", chat)
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, "/leaderboard", chat)
        board = await api.wait_for_bot_message(GROUP_ID, "All-time", after=seen)
    for message in (final, board):
        isolated_only(message.text)
        assert f"🥇 {FSI}Mallory{PDI}: " in message.text
    assert [c for c in api.calls if not c.ok] == []


async def test_the_welcome_isolates_the_name_and_names_an_empty_one(
    api: FakeBotApi, settings: Settings
) -> None:
    async with running_bot(settings):
        welcome = await Learner(api, MALLORY).send("/start", "Hello")
        assert welcome.text.startswith(f"Hello, {FSI}Mallory{PDI}! I am Quiz Tutor.")
        isolated_only(welcome.text)
        invisible = Learner(api, FakeUser(3, "\u200b\u2060\u202e", "yo"))
        welcome = await invisible.send("/start", "Quiz Tutor")
        assert "(kò ní orúkọ)" in welcome.text.splitlines()[0]
        isolated_only(welcome.text)
