"""Moodle's weights scored the same everywhere, end to end (real Application, stand-in,
SQLite): a single question's option worth 50% gives half credit in a private quiz, in a
group quiz and in both reports; an option worth -100% marks the answer down (and takes
points on the leaderboard); Grant's tomb ticked whole is worth nothing; a number worth 0%
says its feedback; FSRS rates only a fully right answer Good; a quiz of polls posts a
question with weights as buttons."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core.tables import rows_of
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.harness import bank_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, DI, GROUP_ID, Room
from tests.support.types import current, pick, reply, submit

TOMB = """
id: tomb
title: "Grant's tomb"
level: easy
shuffle_options: false
questions:
  - id: who
    text: "Who is entombed in Grant's tomb?"
    options: ["Grant", "Grant's wife", "No one"]
    answer: 0
    weights: [100, 50, -100]
  - id: two
    type: multiple
    text: "What two people are entombed in Grant's tomb?"
    options: ["No one", "Grant", "Grant's wife", "Grant's father"]
    answer: [1, 2]
    weights: [-100, 50, 50, -100]
  - id: legs
    type: numeric
    text: "How many legs has a spider?"
    answer: 8
    numbers:
      - {value: 6, weight: 0, feedback: "Six legs: that is an insect."}
      - {value: 8, tolerance: 1, weight: 50, feedback: "Close."}
  - id: president
    type: true_false
    text: "Grant was a president."
    answer: true
"""
TOLA, KEMI = FakeUser(70, "Tola"), FakeUser(71, "Kemi")


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(
        api, tmp_path, {"tomb": TOMB}, group_min_seconds=1, admin_ids=frozenset({ADA.id})
    )


def stored(settings: Settings, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(sql).fetchall()


async def _document(api: FakeBotApi, chat_id: int, after: int) -> bytes:
    found = await api.wait_for(
        lambda: next((m for m in api.bot_messages(chat_id)[after:] if m.document), None)
    )
    return api.file_content(found.document or {})


async def _take(learner: Learner, choice: int, picks: list[str], number: str) -> list[str]:
    """Take the quiz in private: tap `choice`, pick `picks` and submit, reply `number`, and
    answer True; the toasts."""
    first = await learner.send("/quiz tomb", "Question 1 of 4")
    toast, second = await learner.choose(first, choice, "Question 2 of 4")
    for label in picks:
        await pick(learner, second, label)
    seen = len(learner.messages())
    submitted = await submit(learner, second)
    await learner.api.wait_for_bot_message(learner.chat_id, "Question 3 of 4", after=seen)
    await reply(learner, number, "Your answer")
    fourth = await learner.api.wait_for_bot_message(learner.chat_id, "Question 4 of 4")
    await learner.choose(fourth, 0, "Score")
    return [toast["text"], submitted]


async def test_weights_score_in_private_and_in_the_quiz_report(
    api: FakeBotApi, settings: Settings
) -> None:
    tola, kemi, ada = Learner(api, TOLA), Learner(api, KEMI), Learner(api, ADA)
    async with running_bot(settings):
        toasts = await _take(tola, 1, ["No one", "Grant", "Grant's wife", "Grant's father"], "6")
        assert toasts == ["🟡 Partly right: 1/2.", "❌ Not quite. The right options are B, C."]
        first = _first(tola.messages(), "Who is entombed")
        second = _first(tola.messages(), "What two people")
        who = current(api, first).text
        assert "🟡 B. Grant's wife (50%) ← your answer" in who and "✅ A. Grant (100%)" in who
        assert "Partly right (1/2). The right answer is A." in who
        two = current(api, second).text
        assert "❌ A. No one (-100%) ← your answer" in two and "Not quite." in two
        six = next(m for m in tola.messages() if "Your answer: 6" in m.text)
        assert "Six legs: that is an insect." in six.text and "The answer is 8" in six.text
        assert "Score: 1.5/4 (38%)" in tola.messages()[-1].text

        toasts = await _take(kemi, 2, ["Grant", "Grant's wife"], "9")
        assert toasts == [
            "❌ Not quite, and this answer counts -1. The right answer is A.",
            "✅ Correct!",
        ]
        nine = next(m for m in kemi.messages() if "Your answer: 9" in m.text)
        assert "Partly right (1/2). The answer is 8." in nine.text and "Close." in nine.text
        assert "Score: 1.5/4 (38%)" in kemi.messages()[-1].text

        seen = len(ada.messages())
        await ada.send("/report tomb", "latest attempt (2)")
        rows = rows_of(await _document(api, ADA.id, seen))
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Tola"][2:4] == ["1.5", "4"]
    marks, given = rows[0].index("credit") + 1, rows[0].index("answer 1")
    assert by_name["Tola"][given:] == ["B 50%", "A, B, C, D ✗", "6 ✗", "A ✓"]
    assert by_name["Tola"][marks:given] == ["0.5", "0", "0", "1"]
    assert by_name["Kemi"][given:] == ["C -100%", "B, C ✓", "9 50%", "A ✓"]
    assert by_name["Kemi"][marks:given] == ["-1", "1", "0.5", "1"]
    credits = stored(settings, "SELECT user_id, question_id, correct, credit FROM answers")
    assert (TOLA.id, "who", 0, 0.5) in credits and (KEMI.id, "who", 0, -1.0) in credits
    assert (KEMI.id, "legs", 0, 0.5) in credits and (KEMI.id, "president", 1, None) in credits
    # FSRS: a partly right answer is not Good; only the fully right ones are
    ratings = dict(
        stored(settings, f"SELECT question_id, rating FROM review_log WHERE user_id={KEMI.id}")
    )
    assert ratings["legs"] == ratings["who"] != ratings["two"] == ratings["president"]


async def test_weights_score_in_a_group_on_its_board_and_in_its_report(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    ada = Learner(api, ADA)
    async with running_bot(settings):
        await ada.send("/start", "")  # a private chat, for the report
        who = await room.say(ADA, "/groupquiz tomb 60", "Question 1 of 3")
        assert (await room.tap(CY, who, 0)).startswith("✅ Right! +")
        assert (await room.tap(DI, who, 1)).startswith("🟡 Partly right (1/2): +")
        assert (await room.tap(BO, who, 2)).startswith("❌ Not quite (-1): -")
        two = await room.say(ADA, "/skip", "Question 2 of 3")
        shown = current(api, who).text
        assert "✅ A. Grant (100%) · 1 chose it" in shown
        assert "▫️ B. Grant's wife (50%) · 1 chose it" in shown
        assert "👥 3 answered, 1 fully right" in shown
        for index in range(4):  # Bo ticks all four: Moodle gives 0
            await room.tap(BO, two, index)
        assert await room.tap(BO, two, 4) == (
            "❌ Not quite. Your answer stands; the reveal shows the right options."
        )
        await room.say(ADA, "/skip", "Question 3 of 3")
        await room.say(ADA, "/skip", "final results")
        board = await room.say(ADA, "/leaderboard", "Last quiz")
        seen = len(ada.messages())
        await room.say(ADA, "/report", "sent to you privately")
        rows = rows_of(await _document(api, ADA.id, seen))
    points = dict(stored(settings, "SELECT user_id, points FROM group_answers WHERE position=0"))
    assert 500 <= points[CY.id] <= 1000 and 250 <= points[DI.id] <= 500
    assert -1000 <= points[BO.id] <= -500
    assert f"{points[BO.id]}" in board.text  # below zero on the board too
    by_name = {row[0]: row for row in rows[1:]}
    marks, given = rows[0].index("credit") + 1, rows[0].index("answer 1")
    assert by_name["Di"][given] == "B 50%" and by_name["Di"][marks] == "0.5"
    assert by_name["Bo"][given : given + 2] == ["C -100%", "A, B, C, D ✗"]
    assert by_name["Bo"][marks : marks + 2] == ["-1", "0"]
    assert by_name["<Cy & Co>"][given] == "A ✓" and by_name["<Cy & Co>"][marks] == "1"


async def test_a_quiz_of_polls_posts_a_question_with_weights_as_buttons(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    async with running_bot(settings):
        who = await room.say(ADA, "/groupquiz tomb 60 poll", "Question 1 of 3")
        assert who.poll is None and [b["text"] for b in who.buttons][:3] == [
            "A. Grant",
            "B. Grant's wife",
            "C. No one",
        ]
        assert (await room.tap(BO, who, 1)).startswith("🟡 Partly right (1/2)")
        await room.say(ADA, "/skip", "Question 2 of 3")
        api.send_text(ADA, "/skip", room.chat)
        poll = await room.poll(1)  # the true/false question has no weights: a quiz poll
        assert poll.poll is not None and "Grant was a president." in poll.poll["question"]
        seen = len(room.messages())
        await room.say(ADA, "/skip", "final results")
        assert api.messages[(GROUP_ID, poll.message_id)].poll["is_closed"]  # type: ignore[index]
        assert all(m.poll is None for m in room.messages()[seen:])


def _first(messages: list[Message], text: str) -> Message:
    return next(m for m in messages if text in m.text)
