"""The tutor end to end: review sessions, progress, reminders, on a shifted clock."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser
from tests.support.learner import Learner
from tests.support.tutor import (
    RIGHT,
    WRONG,
    ShiftedClock,
    question_id,
    sweep,
    take_quiz,
    tutor,
)


async def test_missed_questions_come_back_in_a_review_session(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4001, "Tunde", "en"))
    async with tutor(api, tmp_path, clock):
        summary = await take_quiz(learner, wrong={"c1", "c3"})
        assert "Score: 1/3" in summary.text
        early = await learner.send("/review", "Nothing is due")
        assert "in 10 min" in early.text

        clock.advance(11 * 60)
        first = await learner.send("/review", "Review 1 of 2")
        assert question_id(first) == "c1"  # most overdue first: it was missed first
        toast, second = await learner.choose(first, RIGHT["c1"], "Review 2 of 2")
        assert toast["text"] == "✅ Correct!"
        assert question_id(second) == "c3"
        _, done = await learner.choose(second, WRONG["c3"], "Review finished")
        assert "Score: 1/2" in done.text
        assert "Next review in 10 min" in done.text

        clock.advance(11 * 60)
        again = await learner.send("/review", "Review 1 of 1")
        assert question_id(again) == "c3"
        _, done = await learner.choose(again, RIGHT["c3"], "Review finished")
        assert "Next review in 24 h" in done.text  # relearned c3 graduates to a one-day interval
        later = await learner.send("/review", "Nothing is due")
        assert "The next review is in 24 h" in later.text

    with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
        ratings = db.execute("SELECT question_id, rating FROM review_log ORDER BY id").fetchall()
        kinds = db.execute("SELECT kind, COUNT(*) FROM attempts GROUP BY kind").fetchall()
    assert ratings == [("c1", 1), ("c2", 3), ("c3", 1), ("c1", 3), ("c3", 1), ("c3", 3)]
    assert sorted(kinds) == [("quiz", 1), ("review", 2)]


async def test_progress_shows_mastery_streak_and_due_reviews(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    clock.set(
        datetime.combine(datetime.now(UTC).date(), datetime.min.time(), UTC) + timedelta(hours=12)
    )
    learner = Learner(api, FakeUser(4002, "Uche", "en"))
    async with tutor(api, tmp_path, clock):
        await take_quiz(learner, wrong={"c2"})
        progress = await learner.send("/progress", "Your progress")
        assert "Days in a row: 1" in progress.text
        assert "due now: 0, by tonight: 1" in progress.text
        assert "▰▰▰▰▰▰▰▱▱▱ 67% mastered (2/3)" in progress.text
        assert "best 2/3" in progress.text and "to review: #2" in progress.text

        clock.advance(15 * 60)
        progress = await learner.send("/progress", "Your progress")
        assert "due now: 1" in progress.text
        review_button = next(b for b in progress.buttons if "Review now (1)" in b["text"])
        seen = len(learner.messages())
        await learner.tap(progress, review_button["callback_data"])
        await api.wait_for_bot_message(learner.chat_id, "Review 1 of 1", after=seen)


async def test_a_review_session_survives_a_restart(api: FakeBotApi, tmp_path: Path) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4003, "Wale", "en"))
    async with tutor(api, tmp_path, clock):
        await take_quiz(learner, wrong={"c1", "c2"})
        clock.advance(11 * 60)
        first = await learner.send("/review", "Review 1 of 2")
        await learner.choose(first, RIGHT[question_id(first)], "Review 2 of 2")
    async with tutor(api, tmp_path, clock):
        resumed = await learner.send("/review", "Review 2 of 2")
        assert "Welcome back" in learner.messages()[-2].text
        await learner.choose(resumed, RIGHT[question_id(resumed)], "Review finished")


async def test_daily_reminder_fires_once_after_its_time_and_skips_blocked_users(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    ada = Learner(api, FakeUser(4004, "Ada", "en"))
    bola = Learner(api, FakeUser(4005, "Bola", "en"))
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    async with tutor(api, tmp_path, clock) as (application, _):
        for learner in (ada, bola):
            await learner.send("/timezone +01:00", "Time zone set: UTC+01:00")
            await learner.send("/remind 08:00", "Every day at 08:00 (UTC+01:00)")
            await take_quiz(learner, wrong={"c1"})
        api.block(bola.user)
        sent_to_ada = len(ada.messages())

        clock.set(
            datetime.combine(tomorrow, datetime.min.time(), UTC) + timedelta(hours=6, minutes=59)
        )
        await sweep(application)  # 07:59 in UTC+01:00: too early
        assert len(ada.messages()) == sent_to_ada

        clock.advance(2 * 60)  # 08:01 local
        await sweep(application)
        reminder = await api.wait_for_bot_message(ada.chat_id, "due for review", after=sent_to_ada)
        assert "1 question is due" in reminder.text
        assert any("Review now" in b["text"] for b in reminder.buttons)

        await sweep(application)  # the same day: nothing more
        assert len(ada.messages()) == sent_to_ada + 1

        with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
            active = dict(db.execute("SELECT user_id, active FROM users").fetchall())
        assert active == {4004: 1, 4005: 0}
        forbidden = [c for c in api.calls if c.description.startswith("Forbidden")]
        assert len(forbidden) == 1

        clock.advance(24 * 3600)
        await sweep(application)  # the next day: Ada again, Bola never
        await api.wait_for(lambda: len(ada.messages()) == sent_to_ada + 2)
        assert len([c for c in api.calls if c.description.startswith("Forbidden")]) == 1

        await ada.send("/remind off", "Reminders are off")
        clock.advance(24 * 3600)
        before = len(ada.messages())
        await sweep(application)
        assert len(ada.messages()) == before


async def test_reminder_commands_refuse_bad_input(api: FakeBotApi, tmp_path: Path) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4006, "Yemi", "yo"))
    async with tutor(api, tmp_path, clock):
        await learner.send("/timezone Mars/Olympus", "Mi ò mọ agbègbè àkókò")
        await learner.send("/remind 25:00", "/remind HH:MM")
        await learner.send("/remind", "kò sí")
    with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
        assert db.execute("SELECT timezone, remind_at FROM users").fetchall() == [(None, None)]
