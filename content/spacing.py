"""Spaced repetition with FSRS (the `fsrs` package): when each question should come back.

Every answer is a review of that learner's card for that question:
- a wrong answer rates **Again**;
- a right answer rates **Good**, or **Easy** when the question was already known (its card
  has graduated to the Review state) and the answer came within `FAST_ANSWER_SECONDS`.

Learning and relearning use one 10-minute step: a question missed for the first time comes
back in the same sitting; one answered right moves on to intervals of days. Fuzzing is off
so that the same answers always give the same schedule.

A review earlier than its due time (studying ahead) is scheduled by FSRS from the card's
retrievability at that moment: the higher the chance of recall, the less the stability grows,
so a card reviewed a day after a week's interval is not pushed out as far as one reviewed on
time. A **lapse** is an Again on a card in the Review state (forgotten after it was learned);
fsrs's `Card` keeps no count of them, so the caller stores it (storage/card_reviews.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State

FAST_ANSWER_SECONDS = 20.0
MASTERED_RETRIEVABILITY = 0.9
LEECH_LAPSES = 8  # a card lapsed this often is a leech (Anki's default threshold)

SCHEDULER = Scheduler(
    learning_steps=(timedelta(minutes=10),),
    relearning_steps=(timedelta(minutes=10),),
    enable_fuzzing=False,
)


@dataclass(frozen=True)
class Review:
    """A card after one answer: the FSRS card as JSON, when it is due, and the rating given."""

    card_json: str
    due: float
    last_review: float
    rating: Rating
    lapsed: bool = False  # an Again on a card that was in the Review state


def _moment(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def rating_for(correct: bool, seconds_to_answer: float | None, known: bool) -> Rating:
    if not correct:
        return Rating.Again
    if known and seconds_to_answer is not None and seconds_to_answer <= FAST_ANSWER_SECONDS:
        return Rating.Easy
    return Rating.Good


def review(
    previous_json: str | None, correct: bool, seconds_to_answer: float | None, now: float
) -> Review:
    """The card after this answer (a first answer creates the card)."""
    card = Card.from_json(previous_json) if previous_json else Card(card_id=0, due=_moment(now))
    known = card.state == State.Review
    rating = rating_for(correct, seconds_to_answer, known=known)
    updated, _ = SCHEDULER.review_card(card, rating, review_datetime=_moment(now))
    return Review(
        updated.to_json(), updated.due.timestamp(), now, rating, known and rating == Rating.Again
    )


@dataclass(frozen=True)
class CardState:
    """Where a card stands: learning (Learning or Relearning) or in review, and its interval
    (from its last review to its due time) in days."""

    learning: bool
    interval_days: float


def card_state(card_json: str) -> CardState:
    card = Card.from_json(card_json)
    last = card.last_review or card.due
    interval = (card.due - last).total_seconds() / 86400
    return CardState(card.state != State.Review, interval)


def retrievability(card_json: str, now: float) -> float:
    """The predicted chance the learner recalls the answer now (0 before any review)."""
    return float(SCHEDULER.get_card_retrievability(Card.from_json(card_json), _moment(now)))


def is_mastered(card_json: str, now: float) -> bool:
    """Graduated from learning, and recalled with a chance above 90% now."""
    card = Card.from_json(card_json)
    if card.state != State.Review:
        return False
    return float(SCHEDULER.get_card_retrievability(card, _moment(now))) > MASTERED_RETRIEVABILITY
