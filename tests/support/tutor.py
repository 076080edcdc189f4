"""The tutor on a shifted clock: a small bank of capitals, a quiz taken with chosen mistakes,
the reminder sweep run now."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path

from bot.app import QuizApplication
from bot.config import Settings
from bot.learner import reminders
from bot.sandbox import FakeBotApi, Message
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner

BANK = """
id: capitals
title: Capitals
level: easy
questions:
  - {id: c1, text: "Capital of Nigeria?", options: ["Abuja", "Lagos", "Ibadan"], answer: 0}
  - {id: c2, text: "Capital of Ghana?", options: ["Kumasi", "Accra", "Tamale"], answer: 1}
  - {id: c3, text: "Capital of Kenya?", options: ["Mombasa", "Kisumu", "Nairobi"], answer: 2}
"""


RIGHT = {"c1": "Abuja", "c2": "Accra", "c3": "Nairobi"}
WRONG = {"c1": "Lagos", "c2": "Kumasi", "c3": "Mombasa"}


class ShiftedClock:
    """The real clock moved by a chosen amount, so message dates and answers stay consistent."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift

    def advance(self, seconds: float) -> None:
        self.shift += seconds

    def set(self, moment: datetime) -> None:
        self.shift = moment.timestamp() - time.time()


@asynccontextmanager
async def tutor(
    api: FakeBotApi, tmp_path: Path, clock: ShiftedClock, bank: str = BANK, **overrides: object
) -> AsyncIterator[tuple[QuizApplication, Settings]]:
    """The bot on the shifted clock with one bank (the capitals by default)."""
    banks = tmp_path / "banks"
    banks.mkdir(exist_ok=True)
    (banks / "capitals.yaml").write_text(bank, encoding="utf-8")
    settings = make_settings(api, tmp_path / "quiz.sqlite3", content_dir=banks, **overrides)
    async with running_bot(settings, clock) as application:
        yield application, settings


def question_id(message: Message) -> str:
    for question_id, country in (("c1", "Nigeria"), ("c2", "Ghana"), ("c3", "Kenya")):
        if country in message.text:
            return question_id
    raise AssertionError(message.text)


async def take_quiz(learner: Learner, wrong: set[str]) -> Message:
    question = await learner.send("/quiz capitals", "Question 1 of 3")
    for position in range(3):
        qid = question_id(question)
        expect = f"Question {position + 2} of 3" if position < 2 else "Score:"
        _, question = await learner.choose(
            question, (WRONG if qid in wrong else RIGHT)[qid], expect
        )
    return question


async def sweep(application: QuizApplication) -> None:
    assert application.job_queue is not None
    (job,) = application.job_queue.get_jobs_by_name(reminders.JOB_NAME)
    await job.run(application)
