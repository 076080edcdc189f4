"""Leeches end to end: a question forgotten again and again once learned (8 lapses, Anki's
default) is told to its learner once, gently, with the section of the guide to read; the
teacher's /report lists it per learner and question."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser
from tests.support.learner import Learner
from tests.support.tutor import ShiftedClock, tutor

BANK = """
id: capitals
title: Capitals
level: easy
questions:
  - id: c1
    text: "Capital of Nigeria?"
    options: ["Abuja", "Lagos", "Ibadan"]
    answer: 0
    guide: {title: "Nigeria", url: "https://example.org/capitals#nigeria"}
"""
ADMIN = FakeUser(4301, "Teacher", "en")
SEGUN = FakeUser(4302, "Segun", "en")


async def test_the_eighth_lapse_is_told_once_and_the_report_lists_the_leech(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    learner, admin = Learner(api, SEGUN), Learner(api, ADMIN)
    async with tutor(api, tmp_path, clock, BANK, admin_ids=frozenset({ADMIN.id})):
        await admin.send("/start", "Quiz Tutor")
        told = []
        for lapse in range(1, 10):
            question = await learner.send("/quiz capitals", "Question 1 of 1")
            await learner.choose(question, "Abuja", "finished")  # known: in the Review state
            question = await learner.send("/quiz capitals", "Question 1 of 1")
            seen = len(learner.messages())
            await learner.choose(question, "Lagos", "finished")  # forgotten: a lapse
            told.append([m for m in learner.messages()[seen:] if "🐌" in m.text])
            with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
                assert db.execute("SELECT lapses FROM cards").fetchall() == [(lapse,)]
        assert [len(messages) for messages in told] == [0] * 7 + [1, 0]
        [leech] = told[7]
        assert "you have forgotten it 8 times" in leech.text
        assert '<a href="https://example.org/capitals#nigeria">Nigeria</a>' in leech.html
        # told after the reveal, before the summary
        ordered = [m.text for m in learner.messages()]
        assert ordered.index(leech.text) < len(ordered) - 1

        report = await admin.send("/report capitals", "Leeches")
        assert "🐌 Leeches (8+ lapses" in report.text
        assert "• \u2068Segun\u2069: #1 Capital of Nigeria? (9)" in report.text  # name isolated
