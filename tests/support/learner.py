"""A simulated learner in a private chat with the bot, built on the stand-in's primitives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.sandbox import FakeBotApi, FakeUser, Message
from content.model import Question, Quiz


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

    async def converse(self, *steps: tuple[str, str]) -> Message:
        """A dialogue as its script: each (text, expected reply) step sent in turn, each
        reply waited for; the last reply."""
        replies = [await self.send(text, expect) for text, expect in steps]
        return replies[-1]

    async def tap(self, message: Message, data: str, forge: bool = False) -> dict[str, Any]:
        """Tap a button and return the bot's callback answer (its toast)."""
        query_id = self.api.tap(self.user, message, data, forge=forge)
        return await self.api.wait_for_answer(query_id)

    async def choose(
        self, question: Message, option: int | str, expect_next: str
    ) -> tuple[dict[str, Any], Message]:
        """Tap option `option` of a question; wait for the next bot message containing `expect_next`."""
        seen = len(self.messages())
        data = (
            button_for(question, option)
            if isinstance(option, str)
            else question.button_data()[option]
        )
        answer = await self.tap(question, data)
        following = await self.api.wait_for_bot_message(self.chat_id, expect_next, after=seen)
        return answer, following

    async def answer_right(self, quiz: Quiz, count: int) -> Message:
        """Start `quiz` and answer its first `count` questions right, each told so; the
        question then on screen."""
        total = len(quiz.questions)
        question = await self.send(f"/quiz {quiz.id}", f"Question 1 of {total}")
        for position in range(count):
            toast, question = await self.choose(
                question, right(quiz.questions[position]), f"Question {position + 2} of {total}"
            )
            assert toast["text"] == "✅ Correct!"
        return question


def button_for(message: Message, text: str) -> str:
    """The callback data of the button that shows option `text` (options may be shuffled)."""
    wanted = " ".join(text.split())
    for button in message.buttons:
        label = button["text"].split(". ", 1)[-1]
        if label == wanted or (label.endswith("…") and wanted.startswith(label[:-1])):
            return str(button["callback_data"])
    raise AssertionError(f"no button for {text!r} in {[b['text'] for b in message.buttons]}")


def place_of(message: Message, text: str) -> int:
    """0-based place on screen of the option `text`."""
    return message.button_data().index(button_for(message, text))


def text(question: Question, option: int, language: str = "en") -> str:
    return question.options[option].get(language, "en")


def right(question: Question, language: str = "en") -> str:
    return text(question, question.answer, language)
