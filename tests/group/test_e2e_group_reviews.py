"""Group answers feed the tutor: for a member with a learner row, every group answer (a tap, a
quiz-poll vote, a posted question's tap) is a review of their card, rated as a private answer
is, written in the group answer's own commit; nobody else gets a card or a row.

Real Application, real HTTP against the stand-in, real SQLite; every wait is on a condition.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fsrs import Card, Rating

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from content import spacing
from tests.support.db import rows
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, GROUP_ID, Room
from tests.support.tutor import ShiftedClock

KEMI = FakeUser(42, "Kemi", "en")  # uses the bot in private
FOLA = FakeUser(41, "Fola", "en")  # never opened the bot
DAY = 86_400.0


def cards(db_path: Path, user_id: int) -> dict[str, tuple[str, float]]:
    """question id -> (FSRS card as JSON, due) of a person's cards."""
    found = rows(db_path, "SELECT question_id, card, due FROM cards WHERE user_id=?", user_id)
    return {question_id: (card, due) for question_id, card, due in found}


def reviews(db_path: Path, user_id: int, question_id: str) -> list[tuple[int, float]]:
    """(rating, reviewed at) of every review of a person's card, in commit order."""
    return [
        (int(rating), float(at))
        for rating, at in rows(
            db_path,
            "SELECT rating, reviewed_at FROM review_log WHERE user_id=? AND question_id=?"
            " ORDER BY id",
            user_id,
            question_id,
        )
    ]


def replayed(logged: list[tuple[int, float]]) -> str:
    """The card these reviews leave, applied one after another from no card."""
    card = Card(card_id=0, due=datetime.fromtimestamp(logged[0][1], UTC))
    for rating, at in logged:
        card, _ = spacing.SCHEDULER.review_card(
            card, Rating(rating), review_datetime=datetime.fromtimestamp(at, UTC)
        )
    return str(card.to_json())


def group_answer(db_path: Path, user_id: int, question_id: str) -> tuple[bool, float, float]:
    """(correct, elapsed, answered at) of a person's answer to a question in the group."""
    [(correct, elapsed, at)] = rows(
        db_path,
        "SELECT correct, elapsed, answered_at FROM group_answers WHERE user_id=? AND question_id=?",
        user_id,
        question_id,
    )
    return bool(correct), float(elapsed), float(at)


async def test_a_learners_group_answers_are_reviews_and_a_strangers_leave_nothing(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    db_path = settings.db_path
    kemi = Learner(api, KEMI)
    clock = ShiftedClock()
    async with running_bot(settings, clock):
        await kemi.send("/start", "Hello")
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        assert (await room.tap(KEMI, q1, 0)).startswith("❌")  # three: wrong
        assert (await room.tap(FOLA, q1, 1)).startswith("✅")
        q2 = await room.say(ADA, "/skip", "Question 2 of 3")
        assert (await room.tap(KEMI, q2, 0)).startswith("✅")  # Paris: right
        assert (await room.tap(FOLA, q2, 1)).startswith("❌")
        await room.say(ADA, "/stopquiz", "final results")

        # the same card, rated by the same rules as a private answer, at the tap's time
        now = clock()
        kemis = cards(db_path, KEMI.id)
        assert set(kemis) == {"t1", "t2"}
        for question_id, rating in (("t1", Rating.Again), ("t2", Rating.Good)):
            correct, elapsed, at = group_answer(db_path, KEMI.id, question_id)
            expected = spacing.review(None, correct, elapsed, at)
            assert expected.rating is rating
            assert kemis[question_id] == (expected.card_json, expected.due)
            assert reviews(db_path, KEMI.id, question_id) == [(int(rating), at)]
        assert kemis["t1"][1] <= now + 10 * 60  # missed: back in this sitting
        assert kemis["t2"][1] >= now + DAY  # right: days from now

        # a stranger answered too, and left nothing but the group answers themselves
        assert cards(db_path, FOLA.id) == {}
        assert rows(db_path, "SELECT COUNT(*) FROM review_log WHERE user_id=?", FOLA.id) == [(0,)]
        assert rows(db_path, "SELECT user_id FROM users") == [(KEMI.id,)]

        # the missed question comes back in her private review
        await kemi.send("/review", "Nothing is due")
        clock.advance(11 * 60)
        again = await kemi.send("/review", "Review 1 of 1")
        assert "Two plus two?" in again.text
        await kemi.choose(again, "four", "Review finished")
    assert len(reviews(db_path, KEMI.id, "t1")) == 2


async def test_a_quiz_poll_vote_and_a_posted_question_are_reviews_too(
    api: FakeBotApi, tmp_path: Path, settings: Settings, room: Room
) -> None:
    settings = make_settings(
        api,
        settings.db_path,
        content_dir=settings.content_dir,
        group_min_seconds=1,
        admin_ids=frozenset({ADA.id}),
    )
    channel = api.group(-100777, "news", admins={ADA.id}, type="channel")
    kemi, ada = Learner(api, KEMI), Learner(api, ADA)

    async with running_bot(settings):
        await kemi.send("/start", "Hello")
        poll = await room.poll_quiz(ADA, "tiny")
        api.vote(KEMI, poll, 0)  # three: wrong
        api.vote(FOLA, poll, 1)
        await api.wait_for(lambda: len(reviews(settings.db_path, KEMI.id, "t1")) == 1)
        await room.say(ADA, "/stopquiz", "final results")

        await ada.send("/push tiny @news", "posted to @news")
        [post] = api.bot_messages(channel.id)
        query = api.tap(KEMI, post, post.button_data()[1])  # four: right
        assert (await api.wait_for_answer(query))["text"].startswith("✅")
        api.tap(FOLA, post, post.button_data()[1])
        await api.wait_for(lambda: len(reviews(settings.db_path, KEMI.id, "t1")) == 2)

    logged = reviews(settings.db_path, KEMI.id, "t1")
    assert [rating for rating, _ in logged] == [int(Rating.Again), int(Rating.Good)]
    assert cards(settings.db_path, KEMI.id)["t1"][0] == replayed(logged)
    assert cards(settings.db_path, FOLA.id) == {}


async def test_one_learner_answering_in_two_groups_and_in_private_at_once_loses_no_review(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    db_path = settings.db_path
    kemi = Learner(api, KEMI)
    other = Room(api, api.group(GROUP_ID - 1, "other study", admins={ADA.id}))
    async with running_bot(settings):
        await kemi.send("/start", "Hello")
        mine = await kemi.send("/quiz tiny", "Question 1 of 3")
        here = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        there = await other.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        for question_id, number in (("t1", 2), ("t2", 3)):
            # the same card answered three ways at the same moment: every review applies
            seen = len(kemi.messages())
            taps = [
                api.tap(KEMI, here, here.button_data()[1]),
                api.tap(KEMI, there, there.button_data()[0]),
                api.tap(KEMI, mine, mine.button_data()[0]),
            ]
            for query in taps:
                await api.wait_for_answer(query)
            logged = reviews(db_path, KEMI.id, question_id)
            assert len(logged) == 3
            assert cards(db_path, KEMI.id)[question_id][0] == replayed(logged)
            mine = await api.wait_for_bot_message(
                kemi.chat_id, f"Question {number} of 3", after=seen
            )
            here = await room.say(ADA, "/skip", f"Question {number} of 3")
            there = await other.say(ADA, "/skip", f"Question {number} of 3")
