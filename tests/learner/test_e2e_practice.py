"""Practise what you missed, now: the end of a quiz offers a round of exactly the questions
missed (options in a new order), then another round of what is still missed, until none; the
answers are reviews of their cards (short-term steps, never a lapse); every reveal says when
its card comes back; a missed question links the section of the guide that teaches it, and a
round ends with the sections to read. On a shifted clock, against the stand-in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser
from tests.support.learner import Learner
from tests.support.tutor import RIGHT, WRONG, ShiftedClock, question_id, take_quiz, tutor

GUIDE = "https://example.org/capitals"
BANK = f"""
id: capitals
title: Capitals
level: easy
guide: {{title: "Capitals of Africa", url: "{GUIDE}"}}
questions:
  - id: c1
    text: "Capital of Nigeria?"
    options: ["Abuja", "Lagos", "Ibadan"]
    answer: 0
    guide: {{title: "Nigeria", url: "{GUIDE}#nigeria"}}
    explanation: "Abuja replaced Lagos as the capital in 1991. {"It was planned from scratch in the middle of the country, chosen so that no one region would hold the seat of government; Lagos stayed the largest city and the country's commercial centre, and many people still take it for the capital because of its size and its port. " * 2}"
  - id: c2
    text: "Capital of Ghana?"
    options: ["Kumasi", "Accra", "Tamale"]
    answer: 1
    guide: {{title: "Ghana", url: "{GUIDE}#ghana"}}
  - id: c3
    text: "Capital of Kenya?"
    options: ["Mombasa", "Kisumu", "Nairobi"]
    answer: 2
"""


def rows(tmp_path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
        return db.execute(sql, params).fetchall()


async def test_a_quiz_with_misses_is_practised_in_rounds_until_none_is_missed(
    api: FakeBotApi, tmp_path: Path
) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(4101, "Tola", "en"))
    other = Learner(api, FakeUser(4102, "Femi", "en"))
    async with tutor(api, tmp_path, clock, BANK):
        summary = await take_quiz(learner, wrong={"c1", "c3"})
        assert "Score: 1/3" in summary.text
        # the missed list links the section that teaches each question (c3 has none of its own)
        assert f'<a href="{GUIDE}#nigeria">Capital of Nigeria?</a>' in summary.html
        assert "• 3. Capital of Kenya?" in summary.html
        practise = next(b for b in summary.buttons if b["text"] == "🎯 Practise the 2 you missed")

        # someone else's press, and a forged attempt number, start nothing
        toast = await other.tap(summary, practise["callback_data"], forge=True)
        assert toast["text"] == "This is someone else's quiz. Start your own with /quizzes."
        stale = await learner.tap(summary, "1:pm:99999", forge=True)
        assert stale["text"] == "This button is no longer active."
        assert rows(tmp_path, "SELECT COUNT(*) FROM attempts WHERE kind='practice'") == [(0,)]

        seen = len(learner.messages())
        await learner.tap(summary, practise["callback_data"])
        intro = await api.wait_for_bot_message(learner.chat_id, "🎯 Practice", after=seen)
        assert "the 2 questions you missed" in intro.text
        first = await api.wait_for_bot_message(learner.chat_id, "Practice 1 of 2", after=seen)
        assert question_id(first) == "c1"
        _, second = await learner.choose(first, WRONG["c1"], "Practice 2 of 2")
        reveal = next(m for m in learner.messages() if m.message_id == first.message_id)
        assert "↻ back in 10 min" in reveal.text  # the card just stored: relearning
        assert f'📖 Read: <a href="{GUIDE}#nigeria">Nigeria</a>' in reveal.html
        # the long explanation: its first sentence, the rest folded
        assert (
            "Abuja replaced Lagos as the capital in 1991.\n<blockquote expandable>It was planned"
            in reveal.html
        )
        _, done = await learner.choose(second, RIGHT["c3"], "Practice round finished")
        reveal = next(m for m in learner.messages() if m.message_id == second.message_id)
        assert "↻ back" in reveal.text and "Read:" not in reveal.text  # right: nothing to read
        assert "Score: 1/2" in done.text
        assert "These answers were reviews of their cards" in done.text
        assert "The sections to read:" in done.text
        assert f'<a href="{GUIDE}#nigeria">Nigeria</a>' in done.html
        assert f'<a href="{GUIDE}">Capitals of Africa</a>' in done.html  # c3: the quiz's guide
        again = next(b for b in done.buttons if b["text"] == "🎯 Practise the 1 still missed")

        seen = len(learner.messages())
        await learner.tap(done, again["callback_data"])
        only = await api.wait_for_bot_message(learner.chat_id, "Practice 1 of 1", after=seen)
        assert question_id(only) == "c1"
        _, last = await learner.choose(only, RIGHT["c1"], "Practice round finished")
        assert "Every one right this time" in last.text
        assert not any("Practise" in b["text"] for b in last.buttons)

    # every practice answer was a review of its card; none of their Agains was a lapse
    assert rows(tmp_path, "SELECT kind, COUNT(*) FROM attempts GROUP BY kind ORDER BY kind") == [
        ("practice", 2),
        ("quiz", 1),
    ]
    ratings = rows(
        tmp_path, "SELECT question_id, rating FROM review_log WHERE user_id=4101 ORDER BY id"
    )
    assert ratings == [("c1", 1), ("c2", 3), ("c3", 1), ("c1", 1), ("c3", 3), ("c1", 3)]
    assert rows(tmp_path, "SELECT SUM(lapses) FROM cards") == [(0,)]


async def test_every_private_reveal_says_when_its_card_comes_back_in_the_learners_zone(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """At 23:00 in UTC+01:00 a card due in about a day comes back "tomorrow"; in Yoruba for a
    learner who reads Yoruba; a right first answer in days, a wrong one in minutes."""
    from datetime import UTC, datetime, timedelta, timezone

    clock = ShiftedClock()
    day = datetime.now(UTC).date() + timedelta(days=1)
    clock.set(datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=22))
    learner = Learner(api, FakeUser(4103, "Kemi", "en"))
    yoruba = Learner(api, FakeUser(4104, "Ṣadé", "yo"))
    async with tutor(api, tmp_path, clock, BANK):
        await learner.send("/timezone +01:00", "Time zone set")
        await take_quiz(learner, wrong={"c2"})
        reveals = [m for m in learner.messages() if "Capital of" in m.text and not m.buttons]
        backs = {question_id(m): m.text.rsplit("\n", 1)[-1] for m in reveals}
        assert backs["c2"] == "↻ back in 10 min"
        local = timezone(timedelta(hours=1))
        for qid in ("c1", "c3"):
            [(due,)] = rows(tmp_path, "SELECT due FROM cards WHERE question_id=?", qid)
            days = (datetime.fromtimestamp(due, local).date() - (day + timedelta(days=0))).days
            assert days >= 2 and backs[qid] == f"↻ back in {days} days", (backs, days)
        assert all(m.html.rstrip().endswith("</i>") for m in reveals)  # the quiet last line

        question = await yoruba.send("/quiz capitals", "1")
        await yoruba.tap(question, question.button_data()[0])
        shown = await api.wait_for(
            lambda: next(
                (
                    m
                    for m in yoruba.messages()
                    if m.message_id == question.message_id and not m.buttons
                ),
                None,
            )
        )
        assert "↻ yóò padà dé" in shown.text
