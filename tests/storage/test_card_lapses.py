"""A card's lapses, stored beside its FSRS state (fsrs's Card keeps no count): an Again on a card
in the Review state is a lapse, an Again while learning or in a practice round is not; the
eighth lapse of a private answer makes the card a leech its learner is told about once; a
group answer counts a lapse but tells nobody. Also the learner's true retention and today's
count, read from the review log."""

from __future__ import annotations

from pathlib import Path

import pytest

from content import spacing
from storage import AnswerOutcome, CardReview, Storage
from storage.group_store import GroupSession
from tests.support.db import rows

T0 = 1_767_000_000.0
DAY = 86_400.0
ADA = 51
QUIZ = "arith"


@pytest.fixture
async def storage(storage: Storage) -> Storage:
    """The suite's stores (tests/conftest.py), Ada a learner in them."""
    await storage.learners.touch_user(ADA, "Ada", "en", T0)
    return storage


async def answer(
    storage: Storage, correct: bool, at: float, practice: bool = False, question: str = "q1"
) -> AnswerOutcome:
    """One private answer in an attempt of its own, as a review of Ada's card."""
    attempt = await storage.learners.start_attempt(ADA, QUIZ, (question,), at)  # one answer each
    return await storage.learners.record_answer(
        attempt, question, 0, correct, at, card=CardReview(correct, None, practice)
    )


async def review_state(storage: Storage, at: float) -> float:
    """Bring the card to the Review state (right twice) and return when it is next due."""
    await answer(storage, True, at)
    outcome = await answer(storage, True, at + 11 * 60)
    card = await storage.learners.card(ADA, QUIZ, "q1")
    assert card is not None and not spacing.card_state(card.card_json).learning
    assert outcome.card is not None
    return outcome.card.due


def stored(db_path: Path) -> tuple[int, float | None, float | None]:
    ((lapses, lapsed_at, told),) = rows(
        db_path, "SELECT lapses, lapsed_at, leech_told_at FROM cards WHERE user_id=?", ADA
    )
    return lapses, lapsed_at, told


async def test_only_an_again_in_the_review_state_is_a_lapse(
    storage: Storage, db_path: Path
) -> None:
    await answer(storage, False, T0)  # a first answer, wrong: learning, no lapse
    await answer(storage, False, T0 + 60)  # wrong again while learning: no lapse
    assert stored(db_path) == (0, None, None)
    due = await review_state(storage, T0 + 120)
    await answer(storage, False, due, practice=True)  # in a practice round: no lapse
    assert stored(db_path)[0] == 0
    due = await review_state(storage, due + 60)
    outcome = await answer(storage, False, due)  # forgotten once it was known: a lapse
    assert stored(db_path) == (1, due, None)
    assert outcome.card is not None and not outcome.card.tell_leech
    await answer(storage, False, due + 60)  # and again while relearning: not another one
    assert stored(db_path)[0] == 1


async def test_the_eighth_lapse_makes_a_leech_told_once(storage: Storage, db_path: Path) -> None:
    at = T0
    told = []
    for _ in range(spacing.LEECH_LAPSES + 1):
        due = await review_state(storage, at)
        outcome = await answer(storage, False, due)
        assert outcome.card is not None
        told.append(outcome.card.tell_leech)
        at = due + 60
    assert told == [False] * (spacing.LEECH_LAPSES - 1) + [True, False]
    lapses, _, told_at = stored(db_path)
    assert lapses == spacing.LEECH_LAPSES + 1 and told_at is not None
    leeches = await storage.learners.leeches(QUIZ, spacing.LEECH_LAPSES)
    assert leeches == [(ADA, "Ada", "q1", spacing.LEECH_LAPSES + 1)]
    assert await storage.learners.leeches(QUIZ, spacing.LEECH_LAPSES + 2) == []


async def group_answer(storage: Storage, correct: bool, at: float) -> None:
    session: GroupSession | None = await storage.groups.start_session(
        chat_id=-5, chat_type="supergroup", quiz_id=QUIZ, question_ids=("q1",),
        seconds=30, mode="buttons", language="en", started_by=None, now=at,
    )  # fmt: skip
    assert session is not None
    await storage.groups.question_asked(session.id, 0, "q1", 77, None, at, at + 30)
    await storage.groups.record_answer(
        session_id=session.id, position=0, question_id="q1", user_id=ADA, name="Ada",
        chosen=0, correct=correct, elapsed=1.0, points=0, now=at,
    )  # fmt: skip
    await storage.groups.stop_session(session.id, at + 31)


async def test_a_group_lapse_counts_and_the_next_private_answer_tells(
    storage: Storage, db_path: Path
) -> None:
    at = T0
    for _ in range(spacing.LEECH_LAPSES - 1):
        due = await review_state(storage, at)
        await answer(storage, False, due)
        at = due + 60
    due = await review_state(storage, at)
    await group_answer(storage, False, due)  # the eighth lapse, in a group: nobody told there
    assert stored(db_path)[0] == spacing.LEECH_LAPSES and stored(db_path)[2] is None
    outcome = await answer(storage, True, due + 11 * 60)
    assert outcome.card is not None and outcome.card.tell_leech
    assert stored(db_path)[2] == due + 11 * 60


async def test_true_retention_counts_reviews_of_cards_seen_before(storage: Storage) -> None:
    await answer(storage, False, T0, question="q1")  # first answers: not counted
    await answer(storage, True, T0, question="q2")
    await answer(storage, True, T0 + 600, question="q1")
    await answer(storage, False, T0 + 700, question="q2")
    await answer(storage, True, T0 + DAY, question="q2")
    assert await storage.learners.review_counts(ADA, T0) == (2, 3)
    assert await storage.learners.review_counts(ADA, T0 + 650) == (1, 2)
    assert await storage.learners.count_reviews(ADA, T0 + 650) == 2
    assert await storage.learners.count_reviews(ADA, T0) == 5


async def test_cards_lapsed_lately_most_recent_first(storage: Storage) -> None:
    due = await review_state(storage, T0)
    await answer(storage, False, due)
    assert [c.question_id for c in await storage.learners.lapsed_cards(ADA, due - 1)] == ["q1"]
    assert await storage.learners.lapsed_cards(ADA, due + 1) == []
