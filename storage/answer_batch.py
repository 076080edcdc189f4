"""Learners' answers, written in batches (storage/batching.py): one transaction and one commit
for every answer that arrived while the previous batch was being written, with a few
multi-row statements. The caller's `record` returns only after the batch's COMMIT, so an
answer is durable before it is acknowledged.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from storage.batching import BatchTx, WriteBatcher, placeholders
from storage.card_reviews import CardReview, Reviewed, ReviewOf, apply_reviews

MAX_BATCH = 200  # 10 parameters a row: far below SQLite's 32,766 bound variables


@dataclass(frozen=True)
class AnswerOutcome:
    """What recording an answer did: `recorded` is False when that question had an answer."""

    recorded: bool
    finished: bool
    score: float  # the attempt's score when it finished (partial credit counts); 0 while it runs
    # the answer's card as this answer left it (None: not recorded, or no card reviewed):
    # when it is due, and whether it just became a leech its learner is to be told about
    # (not part of the outcome's equality: what the answer did to its attempt)
    card: Reviewed | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PendingAnswer:
    attempt_id: int
    attempt_total: int
    user_id: int
    quiz_id: str
    question_id: str
    chosen: int
    correct: bool
    answered_at: float
    finishes: bool | None  # None: the attempt ends once all of its items have an answer
    card: CardReview | None  # the review of the learner's card this answer is
    # (score, total) to store if this answer finishes the attempt; None: every answer counts
    result: tuple[float, int] | None = None
    credit: float | None = None  # -1 to 1 (content/grading.py); None: `correct` says it all
    reply: str | None = None  # what the learner typed (numeric and typed questions)

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.attempt_id, self.quiz_id, self.question_id)


class AnswerBatcher(WriteBatcher[PendingAnswer, AnswerOutcome]):
    """Learners' answers in batches (`storage.batching`): at most one answer per attempt in a
    batch, so that an attempt the first answer finished takes no more."""

    def __init__(self, transaction: Callable[[], AbstractAsyncContextManager[BatchTx]]) -> None:
        super().__init__(
            transaction,
            write_batch,
            key=lambda answer: answer.attempt_id,
            max_batch=MAX_BATCH,
            name="answer-batches",
        )


async def write_batch(tx: BatchTx, batch: Sequence[PendingAnswer]) -> list[AnswerOutcome]:
    """Insert the answers (none into a finished attempt, none twice), review their cards
    (storage/card_reviews.py), and finish the attempts they complete. At most one answer per
    attempt."""
    if len({answer.attempt_id for answer in batch}) != len(batch):
        raise ValueError("a batch takes at most one answer per attempt")
    rows = [
        (seq, a.attempt_id, a.user_id, a.quiz_id, a.question_id, a.chosen, int(a.correct),
         a.answered_at, a.credit, a.reply)
        for seq, a in enumerate(batch)
    ]  # fmt: skip
    inserted = {
        (row["attempt_id"], row["quiz_id"], row["question_id"]): row["id"]
        for row in await tx.fetchall(
            f"""WITH incoming(seq, attempt_id, user_id, quiz_id, question_id, chosen, correct,
                              answered_at, credit, reply)
                     AS (VALUES {placeholders(len(rows), 10)})
                INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen, correct,
                                     answered_at, credit, reply)
                SELECT i.attempt_id, i.user_id, i.quiz_id, i.question_id, i.chosen, i.correct,
                       i.answered_at, i.credit, i.reply
                FROM incoming AS i JOIN attempts AS a ON a.id = i.attempt_id
                WHERE a.finished_at IS NULL
                ORDER BY i.seq
                ON CONFLICT(attempt_id, quiz_id, question_id) DO NOTHING
                RETURNING id, attempt_id, quiz_id, question_id""",
            *itertools.chain.from_iterable(rows),
        )
    }
    recorded = [answer.key in inserted for answer in batch]
    reviewed = [a for a, r in zip(batch, recorded, strict=True) if r and a.card is not None]
    cards = await apply_reviews(
        tx,
        [
            ReviewOf(a.user_id, a.quiz_id, a.question_id, a.card, a.answered_at,
                     answer_id=inserted[a.key])
            for a in reviewed if a.card is not None
        ],
    )  # fmt: skip
    card_of = {a.key: card for a, card in zip(reviewed, cards, strict=True)}
    to_check = {
        a.attempt_id
        for a, r in zip(batch, recorded, strict=True)
        if not r or a.finishes is not False
    }
    states = await _attempt_states(tx, to_check) if to_check else {}
    outcomes: list[AnswerOutcome] = []
    finishing: dict[int, tuple[float, float, int | None]] = {}
    for answer, was_recorded in zip(batch, recorded, strict=True):
        state = states.get(answer.attempt_id)
        if was_recorded and answer.finishes is False:
            outcomes.append(AnswerOutcome(recorded=True, finished=False, score=0))
        elif state is None:  # no such attempt
            outcomes.append(AnswerOutcome(recorded=False, finished=True, score=0))
        elif state.finished and not was_recorded:
            outcomes.append(AnswerOutcome(recorded=False, finished=True, score=state.score))
        elif answer.finishes is False:
            outcomes.append(AnswerOutcome(recorded=False, finished=False, score=0))
        else:
            finished = (
                state.answered >= answer.attempt_total
                if answer.finishes is None
                else answer.finishes
            )
            score, total = answer.result or (state.correct, None)
            if was_recorded and finished:
                finishing[answer.attempt_id] = (answer.answered_at, score, total)
            outcomes.append(AnswerOutcome(recorded=was_recorded, finished=finished, score=score))
    outcomes = [
        dataclasses.replace(outcome, card=card_of.get(answer.key)) if outcome.recorded else outcome
        for answer, outcome in zip(batch, outcomes, strict=True)
    ]
    if finishing:
        await tx.executemany(
            "UPDATE attempts SET finished_at=?, score=?, total=COALESCE(?, total) WHERE id=?",
            [(at, score, total, attempt) for attempt, (at, score, total) in finishing.items()],
        )
    return outcomes


@dataclass(frozen=True)
class _AttemptState:
    finished: bool
    score: float
    answered: int
    correct: float  # the credit of its answers: partial credit counts


async def _attempt_states(tx: BatchTx, attempt_ids: set[int]) -> dict[int, _AttemptState]:
    rows = await tx.fetchall(
        f"""SELECT a.id, a.finished_at, a.score,
                   (SELECT COUNT(*) FROM answers WHERE attempt_id=a.id) AS answered,
                   (SELECT COALESCE(SUM(COALESCE(credit, correct)), 0) FROM answers
                     WHERE attempt_id=a.id) AS correct
            FROM attempts AS a WHERE a.id IN ({", ".join("?" * len(attempt_ids))})""",
        *sorted(attempt_ids),
    )
    return {
        row["id"]: _AttemptState(
            row["finished_at"] is not None, row["score"] or 0, row["answered"], row["correct"]
        )
        for row in rows
    }
