"""Answers as reviews of their learners' cards (storage/card_reviews.py), computed inside the
batch that writes them: reviews of one card from a private chat and from two groups at the
same moment all apply, one after another; people without a learner row get no card."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fsrs import Card, Rating

from content import spacing
from storage import CardReview, Storage
from storage.group_store import AnswerStatus, GroupSession
from tests.support.db import rows

T0 = 1_767_000_000.0
KEMI, FOLA = 42, 41  # Kemi started the bot in private; Fola never did
QUIZ = "arith"


@pytest.fixture
async def storage(storage: Storage) -> Storage:
    """The suite's stores (tests/conftest.py), Kemi a learner in them."""
    await storage.learners.touch_user(KEMI, "Kemi", "en", T0)
    return storage


async def group_question(storage: Storage, chat_id: int, question_id: str) -> GroupSession:
    session = await storage.groups.start_session(
        chat_id=chat_id, chat_type="supergroup", quiz_id=QUIZ, question_ids=(question_id,),
        seconds=30, mode="buttons", language="en", started_by=None, now=T0,
    )  # fmt: skip
    assert session is not None
    await storage.groups.question_asked(session.id, 0, question_id, 77, None, T0, T0 + 30)
    return session


async def group_answer(
    storage: Storage, session: GroupSession, user_id: int, correct: bool, at: float
) -> AnswerStatus:
    outcome = await storage.groups.record_answer(
        session_id=session.id, position=0, question_id=session.question_ids[0],
        user_id=user_id, name="someone", chosen=0, correct=correct, elapsed=at - T0, points=0,
        now=at,
    )  # fmt: skip
    return outcome.status


def replayed(db_path: Path, user_id: int, question_id: str) -> tuple[str, list[int]]:
    """The card the logged reviews leave, applied in commit order; and their ratings."""
    logged = rows(
        db_path,
        "SELECT rating, reviewed_at FROM review_log WHERE user_id=? AND question_id=? ORDER BY id",
        user_id,
        question_id,
    )
    card = Card(card_id=0, due=datetime.fromtimestamp(logged[0][1], UTC))
    for rating, at in logged:
        card, _ = spacing.SCHEDULER.review_card(
            card, Rating(rating), review_datetime=datetime.fromtimestamp(at, UTC)
        )
    return str(card.to_json()), [rating for rating, _ in logged]


async def test_a_card_reviewed_in_private_and_in_two_groups_at_once_keeps_every_review(
    storage: Storage, db_path: Path
) -> None:
    here, there = await group_question(storage, -1, "q1"), await group_question(storage, -2, "q1")
    attempt = await storage.learners.start_attempt(KEMI, QUIZ, ("q1", "q2"), T0)
    statuses = await asyncio.gather(
        group_answer(storage, here, KEMI, False, T0 + 3),
        group_answer(storage, there, KEMI, True, T0 + 4),
        group_answer(storage, here, FOLA, True, T0 + 4),
        storage.learners.record_answer(
            attempt, "q1", 0, True, T0 + 5, finishes=False, card=CardReview(True, 5.0)
        ),
    )
    assert statuses[:3] == [AnswerStatus.RECORDED] * 3
    card, ratings = replayed(db_path, KEMI, "q1")
    assert len(ratings) == 3  # each rated from the card the one before left (a fast right
    # answer to a card already learned rates Easy: which one that is depends on commit order)
    assert rows(db_path, "SELECT card FROM cards WHERE user_id=?", KEMI) == [(card,)]
    # where each review came from: two group answers, one private answer
    sources = rows(
        db_path,
        "SELECT session_id, position, answer_id IS NOT NULL FROM review_log ORDER BY session_id",
    )
    assert sources == [(None, None, 1), (here.id, 0, 0), (there.id, 0, 0)]
    # a stranger's answer is stored, and nothing else of theirs
    assert rows(db_path, "SELECT COUNT(*) FROM cards WHERE user_id=?", FOLA) == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM review_log WHERE user_id=?", FOLA) == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM users WHERE user_id=?", FOLA) == [(0,)]


async def test_a_refused_group_answer_reviews_nothing(storage: Storage, db_path: Path) -> None:
    session = await group_question(storage, -1, "q1")
    assert await group_answer(storage, session, KEMI, False, T0 + 3) is AnswerStatus.RECORDED
    assert await group_answer(storage, session, KEMI, True, T0 + 4) is AnswerStatus.ALREADY
    assert await group_answer(storage, session, KEMI, True, T0 + 31) is AnswerStatus.ALREADY
    late = await group_question(storage, -2, "q1")
    assert await group_answer(storage, late, KEMI, True, T0 + 31) is AnswerStatus.CLOSED
    assert replayed(db_path, KEMI, "q1")[1] == [int(Rating.Again)]


async def test_a_group_answer_that_came_before_a_private_review_committed_after_it_moves_no_time_back(
    storage: Storage, db_path: Path
) -> None:
    # the group answer arrived at T0 + 3, the private one at T0 + 5 and committed first
    session = await group_question(storage, -1, "q1")
    attempt = await storage.learners.start_attempt(KEMI, QUIZ, ("q1", "q2"), T0)
    await storage.learners.record_answer(
        attempt, "q1", 0, True, T0 + 5, finishes=False, card=CardReview(True, 5.0)
    )
    after_private = rows(db_path, "SELECT due, last_review FROM cards WHERE user_id=?", KEMI)[0]
    assert await group_answer(storage, session, KEMI, True, T0 + 3) is AnswerStatus.RECORDED
    card_json, due, last_review = rows(
        db_path, "SELECT card, due, last_review FROM cards WHERE user_id=?", KEMI
    )[0]
    # the card's last review stays the latest one, and it is due no sooner than the card the
    # private answer left (a second right answer)
    assert last_review == after_private[1] == T0 + 5
    assert Card.from_json(card_json).last_review == datetime.fromtimestamp(T0 + 5, UTC)
    assert due >= after_private[0]
    assert len(rows(db_path, "SELECT id FROM review_log WHERE user_id=?", KEMI)) == 2
