"""Practising a homework's mistakes: not while the homework runs (a practice round shows the
answers while others still work on it); once it has closed, each member who handed it in with
mistakes is offered a round of them in private (the homework's own link says it is closed)."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from bot.config import Settings
from bot.sandbox import FakeBotApi
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, GROUP_ID, Room


@dataclass
class Clock:
    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def test_practice_of_a_homework_opens_once_it_has_closed(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    room.chat.members = {BO.id, CY.id}
    bo, cy = Learner(api, BO), Learner(api, CY)
    clock = Clock()
    async with running_bot(settings, clock):
        post = await room.say(ADA, "/assign tiny 2h", "Homework #1")
        link = post.buttons[0]["url"]
        takes = ((bo, BO, ["four", "Lyon", "green"]), (cy, CY, ["four", "Paris", "blue"]))
        for learner, user, options in takes:
            seen = len(learner.messages())
            api.press_link(user, post)
            question = await api.wait_for_bot_message(user.id, "Two plus two?", after=seen)
            for number, option in enumerate(options):
                expect = "finished" if number == len(options) - 1 else "Question"
                _, question = await learner.choose(question, option, expect)
            if learner is bo:
                summary = question
        assert "Practice of what you missed opens once the homework has closed." in summary.text
        assert not any("Practise" in b["text"] for b in summary.buttons)
        early = await bo.tap(summary, f"1:pm:{_attempt_of(settings, BO.id)}", forge=True)
        assert early["text"] == "Practice of what you missed opens once the homework has closed."

    clock.offset += 3 * 3600  # the deadline passed while the bot was down: it closes at start
    seen_bo, seen_cy = len(bo.messages()), len(cy.messages())
    async with running_bot(settings, clock):
        offer = await api.wait_for_bot_message(BO.id, "has closed", after=seen_bo)
        assert "You missed 2 questions" in offer.text
        [practise] = offer.buttons
        assert practise["text"] == "🎯 Practise the 2 you missed"
        await api.wait_for_bot_message(GROUP_ID, "results")
        assert not any("has closed" in m.text for m in cy.messages()[seen_cy:])  # all right

        seen = len(bo.messages())
        await bo.tap(offer, practise["callback_data"])
        first = await api.wait_for_bot_message(BO.id, "Practice 1 of 2", after=seen)
        assert "Capital of France?" in first.text

        seen = len(bo.messages())
        api.open_link(BO, link)  # the homework's link, kept from before it closed
        await api.wait_for_bot_message(BO.id, "This homework is closed", after=seen)


def _attempt_of(settings: Settings, user_id: int) -> int:
    with sqlite3.connect(settings.db_path) as db:
        return int(
            db.execute(
                "SELECT id FROM attempts WHERE user_id=? AND assignment_id IS NOT NULL", (user_id,)
            ).fetchone()[0]
        )
