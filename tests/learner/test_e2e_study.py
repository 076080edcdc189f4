"""Studying beyond what is due, end to end on a shifted clock: /review with nothing due offers
to review ahead and to review what was forgotten lately; /progress shows the cards by kind,
the true retention, the goal and a chart with the reviews due ahead; /goal and the reminder
that counts towards it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.learner import Learner
from tests.support.tutor import RIGHT, WRONG, ShiftedClock, question_id, sweep, take_quiz, tutor

MINUTE, HOUR, DAY = 60.0, 3600.0, 86_400.0


def button(message: Message, starts: str) -> str:
    return str(next(b for b in message.buttons if b["text"].startswith(starts))["callback_data"])


async def press(learner: Learner, message: Message, starts: str, expect: str) -> Message:
    seen = len(learner.messages())
    await learner.tap(message, button(message, starts))
    return await learner.api.wait_for_bot_message(learner.chat_id, expect, after=seen)


async def test_review_ahead_and_what_was_forgotten_lately(api: FakeBotApi, tmp_path: Path) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4201, "Dayo", "en"))
    async with tutor(api, tmp_path, clock):
        await take_quiz(learner, wrong=set())
        clock.advance(HOUR)
        nothing = await learner.send("/review", "Nothing is due")
        assert "The next review is in" in nothing.text
        assert [b["text"] for b in nothing.buttons] == ["⏩ Review ahead: 3 due within 3 days"]

        first = await press(learner, nothing, "⏩", "Review 1 of 3")
        asked_at = clock()
        with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
            before = dict(db.execute("SELECT question_id, due FROM cards").fetchall())
        qid = question_id(first)
        _, second = await learner.choose(first, WRONG[qid], "Review 2 of 3")  # forgotten: a lapse
        _, third = await learner.choose(second, RIGHT[question_id(second)], "Review 3 of 3")
        await learner.choose(third, RIGHT[question_id(third)], "Review finished")
        with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
            after = dict(db.execute("SELECT question_id, due FROM cards").fetchall())
            lapses = dict(db.execute("SELECT question_id, lapses FROM cards").fetchall())
            reviewed = db.execute("SELECT MAX(reviewed_at) FROM review_log").fetchone()[0]
        assert reviewed - asked_at < MINUTE  # reviewed now, days before they were due
        assert lapses == {qid: 1} | {q: 0 for q in lapses if q != qid}
        assert after[qid] < before[qid]  # relearning: back in 10 minutes
        assert all(after[q] > before[q] for q in after if q != qid)  # early, still moved on

        clock.advance(11 * MINUTE)
        relearn = await learner.send("/review", "Review 1 of 1")
        await learner.choose(relearn, RIGHT[qid], "Review finished")
        nothing = await learner.send("/review", "Nothing is due")
        assert "🧠 Review what I forgot lately (1)" in [b["text"] for b in nothing.buttons]
        forgotten = await press(learner, nothing, "🧠", "Review 1 of 1")
        assert question_id(forgotten) == qid
        await learner.choose(forgotten, RIGHT[qid], "Review finished")

        clock.advance(8 * DAY)  # a week later the lapse is no longer "lately"
        later = await learner.send("/review", "")
        assert not any("forgot" in b["text"] for b in later.buttons)


async def test_progress_shows_cards_retention_goal_and_the_reviews_ahead(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4202, "Nneka", "en"))
    async with tutor(api, tmp_path, clock):
        await learner.send("/goal 4", "Daily goal: 4 answers")
        await take_quiz(learner, wrong={"c2"})
        clock.advance(11 * MINUTE)
        again = await learner.send("/review", "Review 1 of 1")
        await learner.choose(again, RIGHT["c2"], "Review finished")
        seen = len(learner.messages())
        progress = await learner.send("/progress", "Your progress")
        assert "Cards: 0 new · 0 learning · 3 young · 0 mature" in progress.text
        assert (
            "True retention, last 30 days: 100% of 1 review of a question seen before"
            in progress.text
        )
        assert "Today: 4 of your goal of 4" in progress.text
        chart = await api.wait_for(
            lambda: next((m for m in learner.messages()[seen:] if m.photo), None)
        )
        assert chart.caption is not None
        assert "Reviews due in the next 30 days: 3" in chart.caption


async def test_goal_refuses_bad_input_and_the_reminder_counts_towards_it(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4203, "Bisi", "en"))
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    async with tutor(api, tmp_path, clock) as (application, _):
        await learner.send("/goal", "Now: off")
        for bad in ("0", "1001", "٣", "²", "-3", "ten"):
            refusal = await learner.send(f"/goal {bad}", "/goal 20")
            assert "1 to 1000, in digits 0-9" in refusal.text
        await learner.send("/goal 5 6", "/goal 20")
        with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
            assert db.execute("SELECT daily_goal FROM users").fetchall() == [(None,)]
        await learner.send("/goal 5", "Daily goal: 5 answers")
        await learner.send("/goal", "Now: 5")
        await learner.send("/remind 08:00", "Every day at 08:00")
        await take_quiz(learner, wrong=set())  # nothing due tomorrow morning

        clock.set(
            datetime.combine(tomorrow, datetime.min.time(), UTC) + timedelta(hours=8, minutes=1)
        )
        seen = len(learner.messages())
        await sweep(application)
        reminder = await api.wait_for_bot_message(learner.chat_id, "goal", after=seen)
        assert "Nothing is due for review, but your daily goal is not met yet." in reminder.text
        assert "Today: 0 of your goal of 5: 5 to go." in reminder.text

        await learner.send("/goal off", "Daily goal off")
        clock.advance(DAY)
        seen = len(learner.messages())
        await sweep(application)
        await learner.send("/help", "/goal")  # whatever the sweep sent came before
        assert [m for m in learner.messages()[seen:] if "your goal of" in m.text] == []
