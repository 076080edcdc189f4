"""A group chat in the stand-in with people in it, and the small bank its quizzes use."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.core.callbacks import GroupAnswer, GroupPick, GroupReveal, decode
from bot.sandbox import Chat, FakeBotApi, FakeUser, Message
from tests.support.harness import bank_settings

LONG_WHY = "Two and two make four: " + "count them on your fingers, one by one, " * 8
BANK = f"""
id: tiny
title: "Tiny <quiz> & co"
level: easy
questions:
  - id: t1
    text: "Two plus two?"
    options: ["three", "four", "five"]
    answer: 1
    explanation: "{LONG_WHY.strip()}"
  - id: t2
    text: "Capital of France?"
    options: ["Paris", "Lyon"]
    answer: 0
    explanation: "Paris."
  - id: t3
    text: "Colour of a clear sky?"
    options: ["green", "blue"]
    answer: 1
"""

ADA = FakeUser(1, "Ada")  # the chat's admin
BO = FakeUser(2, "Bo")
CY = FakeUser(3, "<Cy & Co>")  # a name that is HTML, to be shown as text
DI = FakeUser(4, "Di")
ED = FakeUser(5, "Ed")


GROUP_ID = -100123
ISOLATE = "\u2068\u2069"  # FSI...PDI around each name on a board


def plain(line: str) -> str:
    """A board line without the isolation marks around its name."""
    return line.replace(ISOLATE[0], "").replace(ISOLATE[1], "")


@dataclass
class Room:
    """A chat with several people in it, driven through the stand-in."""

    api: FakeBotApi
    chat: Chat
    keyboards: dict[int, list[str]] = field(default_factory=dict)

    def messages(self) -> list[Message]:
        return self.api.bot_messages(self.chat.id)

    async def say(self, user: FakeUser, text: str, expect: str) -> Message:
        seen = len(self.messages())
        self.api.send_text(user, text, self.chat)
        return await self.api.wait_for_bot_message(self.chat.id, expect, after=seen)

    async def tap(self, user: FakeUser, message: Message, index: int) -> str:
        """`user` taps button `index` of `message` (its keyboard as first seen); the toast."""
        data = self.keyboards.setdefault(message.message_id, message.button_data())[index]
        query = self.api.tap(user, self.api.messages[(self.chat.id, message.message_id)], data,
                             forge=True)  # fmt: skip
        answer: dict[str, Any] = await self.api.wait_for_answer(query)
        return str(answer["text"] or "")

    async def reveal_tap(self, user: FakeUser, message: Message) -> str:
        """`user` presses Reveal on a question (a forged tap, as a message of an older version
        had the button: the chat's keyboard is for answering only now); the toast."""
        query = self.api.tap(user, self.current(message), reveal_data(message), forge=True)
        answer: dict[str, Any] = await self.api.wait_for_answer(query)
        return str(answer["text"] or "")

    def current(self, message: Message) -> Message:
        return self.api.messages[(self.chat.id, message.message_id)]

    async def revealed(self, message: Message) -> Message:
        """The question as its reveal shows it (a text, or a photo's caption)."""
        return await self.api.wait_for(
            lambda: self.current(message) if "chose it" in self.current(message).shown else None
        )

    def polls(self) -> list[Message]:
        return [message for message in self.messages() if message.poll is not None]

    async def poll_quiz(self, user: FakeUser, quiz: str) -> Message:
        """`user` starts `quiz` as quiz polls of a minute; its first poll."""
        self.api.send_text(user, f"/groupquiz {quiz} 60 poll", self.chat)
        return await self.poll(1)

    async def poll(self, number: int) -> Message:
        """The chat's `number`th poll (from 1), once the bot has sent it."""
        return await self.api.wait_for(
            lambda: self.polls()[number - 1] if len(self.polls()) >= number else None
        )


def reveal_data(message: Message) -> str:
    """The callback data of a Reveal button for a group quiz's question (none is shown now)."""
    tap = decode(message.button_data()[0])
    assert isinstance(tap, GroupAnswer | GroupPick), message.button_data()
    return GroupReveal(tap.session_id, tap.position).encode()


def group_answers(db_path: Path) -> list[tuple[int, int, int, int]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT position, user_id, chosen, points FROM group_answers ORDER BY position, user_id"
        ).fetchall()


def room_settings(api: FakeBotApi, tmp_path: Path, **overrides: object) -> Settings:
    """A bot whose only bank is the small one above, with its own database in `tmp_path`."""
    return bank_settings(api, tmp_path, {"tiny": BANK}, **overrides)
