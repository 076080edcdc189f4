"""A chat's answers (taps on a timed quiz's or a posted question's buttons, poll votes),
written in batches (storage/batching.py): every answer that arrives while a batch is being
written joins the next one, written by two statements and one commit.

Each person's first answer to a question stands: the table's primary key (session, position,
person) keeps it, whatever the batches. An answer is taken only while its question is open:
the session runs, the question is its current one, not revealed, and its deadline had not
passed when the answer arrived; a reveal or a stop is a transaction of its own, so a batch
lands wholly before it (and is counted) or wholly after it (and is refused).

For a member with a learner row (who started the bot in private), an answer is also a review
of their spaced-repetition card for the question, rated as a private answer is (the seconds
are the answer's `elapsed`, its time when it arrived): computed from the card as stored inside
this transaction and written in it (storage/card_reviews.py), so that the same card reviewed
at once from a private chat and other groups loses no review. Nobody else gets a card, nor any
row but the answer itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from storage.batching import BatchTx, WriteBatcher, placeholders
from storage.card_reviews import CardReview, ReviewOf, apply_reviews

MAX_BATCH = 500  # at most 11 parameters a row: far below SQLite's 32,766 bound variables

# The rows of `incoming` (i: session_id, position, question_id, at) whose question takes
# answers: the session runs, the question is its current one, not revealed, and its deadline
# had not passed when the row arrived. Answers and picks (storage/pick_batch.py) both ask it.
OPEN_QUESTION = """FROM incoming AS i
                JOIN group_sessions AS s ON s.id = i.session_id
                JOIN group_questions AS q ON q.session_id = i.session_id
                                         AND q.position = i.position
                WHERE s.finished_at IS NULL AND s.position = i.position
                  AND q.question_id = i.question_id AND q.revealed_at IS NULL
                  AND q.deadline >= i.at"""


class AnswerStatus(Enum):
    RECORDED = "recorded"
    ALREADY = "already"  # this person answered this question before: the first answer stands
    CLOSED = "closed"  # revealed, out of time, not the current question, or the quiz ended


@dataclass(frozen=True)
class GroupAnswerOutcome:
    status: AnswerStatus
    chosen: int | None = None  # the answer that stands (for RECORDED and ALREADY)
    points: int = 0


@dataclass(frozen=True)
class MemberTap:
    """A member's tap on a question of a session: an answer or a pick."""

    session_id: int
    position: int
    question_id: str
    user_id: int

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.session_id, self.position, self.user_id)


Tap = TypeVar("Tap", bound=MemberTap)
Outcome = TypeVar("Outcome")


def chat_batcher(
    transaction: Callable[[], AbstractAsyncContextManager[BatchTx]],
    write: Callable[[BatchTx, list[Tap]], Awaitable[list[Outcome]]],
    name: str,
) -> WriteBatcher[Tap, Outcome]:
    """A chat's taps in batches, at most one per member and question in a batch."""
    return WriteBatcher(transaction, write, key=lambda tap: tap.key, max_batch=MAX_BATCH, name=name)


@dataclass(frozen=True)
class PendingGroupAnswer(MemberTap):
    name: str
    chosen: int
    correct: bool
    elapsed: float
    points: int
    answered_at: float
    credit: float | None = None  # -1 to 1, where the question scores in parts


async def write_group_answers(
    tx: BatchTx, batch: Sequence[PendingGroupAnswer]
) -> list[GroupAnswerOutcome]:
    """Insert each answer whose question is open and that person's first, with the review of
    a learner's card; say of each what became of it. At most one answer per person and
    question."""
    if len({answer.key for answer in batch}) != len(batch):
        raise ValueError("a batch takes at most one answer per person and question")
    rows = [
        (seq, a.session_id, a.position, a.question_id, a.user_id, a.name, a.chosen,
         int(a.correct), a.elapsed, a.points, a.answered_at, a.credit)
        for seq, a in enumerate(batch)
    ]  # fmt: skip
    inserted = {
        (row[0], row[1], row[2])
        for row in await tx.fetchall(
            f"""WITH incoming(seq, session_id, position, question_id, user_id, name, chosen,
                              correct, elapsed, points, at, credit)
                     AS (VALUES {placeholders(len(rows), 12)})
                INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                                           chosen, correct, elapsed, points, answered_at,
                                           credit)
                SELECT i.session_id, i.position, i.question_id, i.user_id, i.name, i.chosen,
                       i.correct, i.elapsed, i.points, i.at, i.credit
                {OPEN_QUESTION}
                ORDER BY i.seq
                ON CONFLICT(session_id, position, user_id) DO NOTHING
                RETURNING session_id, position, user_id""",
            *itertools.chain.from_iterable(rows),
        )
    }
    await apply_reviews(tx, await _reviews(tx, [a for a in batch if a.key in inserted]))
    refused = [answer for answer in batch if answer.key not in inserted]
    earlier = await standing_answers(tx, refused) if refused else {}
    outcomes = []
    for answer in batch:
        if answer.key in inserted:
            outcomes.append(GroupAnswerOutcome(AnswerStatus.RECORDED, answer.chosen, answer.points))
        elif answer.key in earlier:
            chosen, points = earlier[answer.key]
            outcomes.append(GroupAnswerOutcome(AnswerStatus.ALREADY, chosen, points))
        else:
            outcomes.append(GroupAnswerOutcome(AnswerStatus.CLOSED))
    return outcomes


async def standing_answers(
    tx: BatchTx, taps: Sequence[MemberTap]
) -> dict[tuple[int, int, int], tuple[int, int]]:
    """The answer that stands (chosen, points) for each of these members and questions that
    has one."""
    rows = await tx.fetchall(
        f"""WITH wanted(session_id, position, user_id) AS (VALUES {placeholders(len(taps), 3)})
            SELECT g.session_id, g.position, g.user_id, g.chosen, g.points
            FROM wanted AS w JOIN group_answers AS g
              ON g.session_id = w.session_id AND g.position = w.position
             AND g.user_id = w.user_id""",
        *itertools.chain.from_iterable(tap.key for tap in taps),
    )
    return {(row[0], row[1], row[2]): (row[3], row[4]) for row in rows}


async def _reviews(tx: BatchTx, answers: Sequence[PendingGroupAnswer]) -> list[ReviewOf]:
    """These answers (in their order) as reviews of their learners' cards: the answers of
    people with a learner row, of their session's quiz."""
    if not answers:
        return []
    rows = await tx.fetchall(
        f"""WITH incoming(seq, session_id, user_id) AS (VALUES {placeholders(len(answers), 3)})
            SELECT i.seq, s.quiz_id
            FROM incoming AS i JOIN users AS u ON u.user_id = i.user_id
            JOIN group_sessions AS s ON s.id = i.session_id""",
        *itertools.chain.from_iterable(
            (seq, a.session_id, a.user_id) for seq, a in enumerate(answers)
        ),
    )
    quiz_of = {row[0]: row[1] for row in rows}
    return [
        ReviewOf(a.user_id, quiz_of[seq], a.question_id, CardReview(a.correct, a.elapsed),
                 a.answered_at, session_id=a.session_id, position=a.position)
        for seq, a in enumerate(answers)
        if seq in quiz_of
    ]  # fmt: skip
