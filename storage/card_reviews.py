"""Answers as reviews of their learners' spaced-repetition cards, applied inside the batch that
writes the answers (storage/answer_batch.py for private answers, storage/group_batch.py for
group answers).

Each card is read inside the batch's transaction and the review computed from it there
(`content.spacing.review`, a pure function of the card before, the answer and its time): the
database lets one transaction write at a time, so two reviews of the same card, from a
private chat and two groups at the same moment, apply one after the other in commit order and
none is lost. Within one batch, the reviews of one card apply in the batch's order.

A card counts its lapses (an Again while it was in the Review state; not in a practice round,
where the learner answers again what they just missed). A private answer that leaves its card
a leech (`spacing.LEECH_LAPSES` lapses) whose learner was not told yet marks it told, in the
same transaction, and says so in its result: the learner is told once, in private. A group
answer counts lapses too, and the next private answer of that card tells.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from content import spacing
from storage.batching import BatchTx, placeholders


@dataclass(frozen=True)
class CardReview:
    """An answer as a review of its learner's card: fully right or not, and the seconds it
    took (None: not known; a fast right answer to a known question rates Easy)."""

    correct: bool
    seconds: float | None
    practice: bool = False  # a practice round's answer: reviewed, but never a lapse


@dataclass(frozen=True)
class Reviewed:
    """A card after one review: when it is due now, and whether this review made it a leech
    its learner is to be told about (now, once)."""

    due: float
    tell_leech: bool
    lapses: int


@dataclass(frozen=True)
class ReviewOf:
    """One review to apply: whose card, the answer, when, and the answer it came from (a
    private answer's id, or a group answer's session and position)."""

    user_id: int
    quiz_id: str
    question_id: str
    review: CardReview
    at: float
    answer_id: int | None = None
    session_id: int | None = None
    position: int | None = None

    @property
    def card_key(self) -> tuple[int, str, str]:
        return (self.user_id, self.quiz_id, self.question_id)


async def apply_reviews(tx: BatchTx, reviews: Sequence[ReviewOf]) -> list[Reviewed]:
    """Update each reviewed card from its stored state, in order, log every review, and say
    what became of each card (aligned with `reviews`)."""
    if not reviews:
        return []
    keys = list(dict.fromkeys(review.card_key for review in reviews))
    stored = await tx.fetchall(
        f"""WITH wanted(user_id, quiz_id, question_id) AS (VALUES {placeholders(len(keys), 3)})
            SELECT c.user_id, c.quiz_id, c.question_id, c.card, c.last_review, c.lapses,
                   c.lapsed_at, c.leech_told_at
            FROM wanted AS w JOIN cards AS c ON c.user_id = w.user_id
             AND c.quiz_id = w.quiz_id AND c.question_id = w.question_id""",
        *itertools.chain.from_iterable(keys),
    )
    latest = {key: _Card(None, -math.inf, 0, None, None) for key in keys}
    latest.update(
        {(row[0], row[1], row[2]): _Card(row[3], row[4] or -math.inf, *row[5:8]) for row in stored}
    )
    changed: dict[tuple[int, str, str], tuple[_Card, float]] = {}
    logged = []
    results = []
    for review in reviews:
        before = latest[review.card_key]
        # an answer that arrived before the card's last review but committed after it (a
        # group's batch slower than a private one) counts as given at that review: a card's
        # time never runs back
        at = max(review.at, before.last_review)
        reviewed = spacing.review(before.json, review.review.correct, review.review.seconds, at)
        lapsed = reviewed.lapsed and not review.review.practice
        lapses = before.lapses + lapsed
        tell = (
            review.answer_id is not None
            and lapses >= spacing.LEECH_LAPSES
            and before.leech_told_at is None
        )
        after = _Card(
            reviewed.card_json, at, lapses, at if lapsed else before.lapsed_at,
            at if tell else before.leech_told_at,
        )  # fmt: skip
        latest[review.card_key] = after
        changed[review.card_key] = (after, reviewed.due)
        results.append(Reviewed(reviewed.due, tell, lapses))
        logged.append(
            (review.user_id, review.quiz_id, review.question_id, int(reviewed.rating), at,
             review.answer_id, review.session_id, review.position)
        )  # fmt: skip
    await tx.executemany(
        """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review, lapses,
                              lapsed_at, leech_told_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(user_id, quiz_id, question_id) DO UPDATE SET
               card=excluded.card, due=excluded.due, last_review=excluded.last_review,
               lapses=excluded.lapses, lapsed_at=excluded.lapsed_at,
               leech_told_at=excluded.leech_told_at""",
        [
            (*key, card.json, due, card.last_review, card.lapses, card.lapsed_at,
             card.leech_told_at)
            for key, (card, due) in changed.items()
        ],
    )  # fmt: skip
    await tx.executemany(
        """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
                                   answer_id, session_id, position)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        logged,
    )
    return results


@dataclass(frozen=True)
class _Card:
    """A card as a batch holds it between its reviews."""

    json: str | None
    last_review: float
    lapses: int
    lapsed_at: float | None
    leech_told_at: float | None
