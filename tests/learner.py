"""A simulated learner in a private chat with the bot, built on the stand-in's primitives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.fakebot.server import FakeBotApi, FakeUser, Message


@dataclass
class Learner:
    api: FakeBotApi
    user: FakeUser

    @property
    def chat_id(self) -> int:
        return self.user.id

    def messages(self) -> list[Message]:
        return self.api.bot_messages(self.chat_id)

    async def send(self, text: str, expect: str) -> Message:
        """Send `text`; return the first new bot message containing `expect`."""
        seen = len(self.messages())
        self.api.send_text(self.user, text)
        return await self.api.wait_for_bot_message(self.chat_id, expect, after=seen)

    async def tap(self, message: Message, data: str, forge: bool = False) -> dict[str, Any]:
        """Tap a button and return the bot's callback answer (its toast)."""
        query_id = self.api.tap(self.user, message, data, forge=forge)
        return await self.api.wait_for_answer(query_id)

    async def choose(
        self, question: Message, option: int, expect_next: str
    ) -> tuple[dict[str, Any], Message]:
        """Tap option `option` of a question; wait for the next bot message containing `expect_next`."""
        seen = len(self.messages())
        answer = await self.tap(question, question.button_data()[option])
        following = await self.api.wait_for_bot_message(self.chat_id, expect_next, after=seen)
        return answer, following
