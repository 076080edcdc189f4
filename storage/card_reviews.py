"""Answers as reviews of their learners' spaced-repetition cards, applied inside the batch that
writes the answers (storage/answer_batch.py for private answers, storage/group_batch.py for
group answers).

Each card is read inside the batch's transaction and the review computed from it there
(`content.spacing.review`, a pure function of the card before, the answer and its time): the
database lets one transaction write at a time, so two reviews of the same card, from a
private chat and two groups at the same moment, apply one after the other in commit order and
none is lost. Within one batch, the reviews of one card apply in the batch's order.
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


async def apply_reviews(tx: BatchTx, reviews: Sequence[ReviewOf]) -> None:
    """Update each reviewed card from its stored state, in order, and log every review."""
    if not reviews:
        return
    keys = list(dict.fromkeys(review.card_key for review in reviews))
    stored = await tx.fetchall(
        f"""WITH wanted(user_id, quiz_id, question_id) AS (VALUES {placeholders(len(keys), 3)})
            SELECT c.user_id, c.quiz_id, c.question_id, c.card, c.last_review
            FROM wanted AS w JOIN cards AS c ON c.user_id = w.user_id
             AND c.quiz_id = w.quiz_id AND c.question_id = w.question_id""",
        *itertools.chain.from_iterable(keys),
    )
    latest: dict[tuple[int, str, str], tuple[str | None, float]] = dict.fromkeys(
        keys, (None, -math.inf)
    )
    latest.update({(row[0], row[1], row[2]): (row[3], row[4] or -math.inf) for row in stored})
    due: dict[tuple[int, str, str], tuple[str, float, float]] = {}
    logged = []
    for review in reviews:
        card, last_review = latest[review.card_key]
        # an answer that arrived before the card's last review but committed after it (a
        # group's batch slower than a private one) counts as given at that review: a card's
        # time never runs back
        at = max(review.at, last_review)
        reviewed = spacing.review(card, review.review.correct, review.review.seconds, at)
        latest[review.card_key] = (reviewed.card_json, at)
        due[review.card_key] = (reviewed.card_json, reviewed.due, at)
        logged.append(
            (review.user_id, review.quiz_id, review.question_id, int(reviewed.rating), at,
             review.answer_id, review.session_id, review.position)
        )  # fmt: skip
    await tx.executemany(
        """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(user_id, quiz_id, question_id) DO UPDATE SET
               card=excluded.card, due=excluded.due, last_review=excluded.last_review""",
        [(*key, card, at_due, at) for key, (card, at_due, at) in due.items()],
    )
    await tx.executemany(
        """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
                                   answer_id, session_id, position)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        logged,
    )
