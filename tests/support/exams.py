"""An exam bank, and a learner taking an exam through the stand-in: the panel (the message
whose buttons act now), its buttons by what they show, the paper as stored."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.render import number_text
from bot.sandbox import Message
from content.markup import flatten
from content.model import (
    MultipleAnswer,
    NumericAnswer,
    Quiz,
    SingleAnswer,
    TrueFalseAnswer,
    TypedAnswer,
)
from tests.support.drill import asked
from tests.support.learner import Learner, button_for

EXAM_ID = "mini-exam"
# Two sections: two of three sums drawn, then both questions of words (a typed and a multiple
# one); a wrong answer costs 0.25; 60 % passes.
EXAM_BANK = """\
id: mini-exam
title: {en: "Mini exam"}
level: easy
exam:
  minutes: 5
  penalty: 0.25
  pass: 60
  sections:
    - title: {en: "Sums"}
      questions: [n1, n2, n3]
      draw: 2
    - title: {en: "Words"}
      questions: [w1, w2]
questions:
  - {id: n1, text: "One plus one?", options: ["Two", "Three", "Four"], answer: 0, explanation: "One and one make two."}
  - {id: n2, text: "Two plus two?", options: ["Four", "Five", "Six"], answer: 0, explanation: "Two and two make four."}
  - {id: n3, text: "Three plus three?", options: ["Six", "Seven", "Eight"], answer: 0, explanation: "Three and three make six."}
  - {id: w1, type: typed, text: "The opposite of hot?", answer: ["cold"], explanation: "Cold is the opposite of hot."}
  - {id: w2, type: multiple, text: "Which are colours?", options: ["red", "chair", "blue"], answer: [0, 2], explanation: "Red and blue are colours."}
"""

# each question's right option (by its text), or its accepted reply
RIGHT = {"n1": "Two", "n2": "Four", "n3": "Six", "w1": "cold"}
WRONG = {"n1": "Three", "n2": "Five", "n3": "Seven", "w1": "warm"}
TEXTS = {
    "n1": "One plus one?",
    "n2": "Two plus two?",
    "n3": "Three plus three?",
    "w1": "The opposite of hot?",
    "w2": "Which are colours?",
}


def item_of(panel: Message) -> str:
    """The question a panel shows."""
    return next(item for item, text in TEXTS.items() if text in panel.shown)


def is_panel(message: Message) -> bool:
    """A running exam's panel: a question (to hand in from), or the question to hand in."""
    return any(data.startswith(("1:xf:", "1:xh:")) for data in message.button_data())


@dataclass
class Examinee:
    """A learner taking an exam: the panel is the one message with a hand-in button."""

    learner: Learner

    @property
    def api(self) -> Any:
        return self.learner.api

    def panels(self) -> list[Message]:
        return [m for m in self.learner.messages() if is_panel(m)]

    async def panel(self, contains: str = "", moved_from: int | None = None) -> Message:
        """The panel, once it shows `contains` (and, given `moved_from`, once it is another
        message than that one)."""

        def found() -> Message | None:
            panels = self.panels()
            if len(panels) != 1 or contains not in panels[0].shown:
                return None
            return None if panels[0].message_id == moved_from else panels[0]

        return await self.api.wait_for(found)

    async def start(self, quiz_id: str = EXAM_ID) -> Message:
        await self.learner.send(f"/exam {quiz_id}", "📝")
        return await self.panel("Question 1 of")

    def button(self, panel: Message, shows: str) -> str:
        for button in panel.buttons:
            if shows in button["text"]:
                return str(button["callback_data"])
        raise AssertionError(f"no button {shows!r} in {[b['text'] for b in panel.buttons]}")

    async def press(self, panel: Message, shows: str) -> dict[str, Any]:
        return await self.learner.tap(panel, self.button(panel, shows))

    async def choose(self, panel: Message, option: str) -> dict[str, Any]:
        """Tap the option whose text is `option` (its button reads "A. option")."""
        return await self.press(panel, f". {option}")

    async def next(self, panel: Message) -> Message:
        number = _number(panel)
        await self.press(panel, "Next")
        return await self.panel(f"Question {number + 1} of")

    async def reply(self, text: str) -> Message:
        """Reply `text` to the question on the panel; the new panel below, which shows it."""
        before = self.panels()[0].message_id
        seen = len(self.learner.messages())
        self.api.send_text(self.learner.user, text)
        await self.api.wait_for_bot_message(self.learner.chat_id, "Saved", after=seen)
        return await self.panel(f"Your answer: {text}", moved_from=before)

    async def answer(self, panel: Message, answers: dict[str, str | list[str]]) -> None:
        """Answer the question on the panel from `answers` (by item): an option's text, a
        typed reply, or a multiple question's options."""
        item = item_of(panel)
        wanted = answers.get(item)
        if wanted is None:
            return
        if isinstance(wanted, list):
            for option in wanted:
                await self.choose(panel, option)
        elif "typed" in _kind(item):
            await self.reply(wanted)
        else:
            await self.choose(panel, wanted)

    async def answer_all(self, panel: Message, answers: dict[str, str | list[str]]) -> Message:
        """From the first question's panel, answer each question from `answers` and move on;
        the last question's panel."""
        total = _total(panel)
        for number in range(1, total + 1):
            await self.answer(panel, answers)
            panel = await self.panel(f"Question {number} of")
            if number < total:
                panel = await self.next(panel)
        return panel

    async def hand_in(self, panel: Message) -> Message:
        await self.press(panel, "Hand in")
        confirm = await self.panel("Hand in ")
        seen = len(self.learner.messages())
        await self.press(confirm, "Hand in now")
        return await self.api.wait_for_bot_message(self.learner.chat_id, "Score:", after=seen)


def _kind(item: str) -> str:
    return "typed" if item == "w1" else "choice"


def _number(panel: Message) -> int:
    return int(panel.shown.split("Question ", 1)[1].split(" of", 1)[0])


def _total(panel: Message) -> int:
    return int(panel.shown.split(" of ", 1)[1].split(" ", 1)[0])


def stored(db_path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Rows read from the bot's database file, read-only, beside the running bot."""
    with sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True) as db:
        return [tuple(row) for row in db.execute(sql, params)]


def paper_of(db_path: Path, user_id: int) -> list[str]:
    """The learner's exam paper as stored (their latest exam)."""
    rows = stored(
        db_path,
        "SELECT question_ids FROM attempts WHERE user_id=? AND kind='exam' ORDER BY id DESC",
        user_id,
    )
    return list(json.loads(rows[0][0]))


async def page_turned(api: Any, chat_id: int, message_id: int, shows: str) -> Message:
    """A message edited in place (a review's page turned), once it shows `shows`."""

    def found() -> Message | None:
        message = api.messages[(chat_id, message_id)]
        return message if shows in message.shown else None

    message: Message = await api.wait_for(found)
    return message


async def answer_right(examinee: Examinee, quiz: Quiz, panel: Message) -> Message:
    """Answer the question on the panel right, whatever its type; the panel after."""
    question = asked(quiz, panel, "en")
    learner = examinee.learner
    match question.key:
        case SingleAnswer(option):
            label = flatten(question.options[option].get("en", "en"))
            await learner.tap(panel, button_for(panel, label))
        case TrueFalseAnswer(value):
            await learner.tap(panel, button_for(panel, "True" if value else "False"))
        case MultipleAnswer(options):
            for option in sorted(options):
                label = flatten(question.options[option].get("en", "en"))
                await learner.tap(examinee.panels()[0], button_for(panel, label))
                await examinee.panel()
        case NumericAnswer(value):
            return await examinee.reply(number_text(value))
        case TypedAnswer(accepted):
            return await examinee.reply(accepted[0].get("en", "en"))
    return await examinee.panel("Your answer:")
