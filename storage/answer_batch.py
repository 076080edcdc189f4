"""Learners' answers, written in batches: one transaction and one commit for every answer that
arrived while the previous batch was being written.

Each statement costs a round trip to the database thread, and each round trip waits for the
event loop; under load a transaction of six statements held the write lock for about 5 ms, and
answers queued behind it. A batch costs the same few statements whatever its size. The
caller's `record` returns only after the batch's COMMIT, so an answer is durable before it is
acknowledged. If the database refuses a batch (full, read-only...), every answer in it fails and
none is acknowledged; if it fails otherwise, its answers are written again one at a time, so
only an answer the database cannot take fails.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from storage.errors import StorageError

MAX_BATCH = 200  # 10 parameters a row: far below SQLite's 32,766 bound variables


@dataclass(frozen=True)
class CardUpdate:
    """The card as an answer leaves it, and the rating that answer gave (FSRS's 1-4)."""

    card_json: str
    due: float
    rating: int


@dataclass(frozen=True)
class AnswerOutcome:
    """What recording an answer did: `recorded` is False when that question had an answer."""

    recorded: bool
    finished: bool
    score: float  # the attempt's score when it finished (partial credit counts); 0 while it runs


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
    card: CardUpdate | None
    # (score, total) to store if this answer finishes the attempt; None: every answer counts
    result: tuple[float, int] | None = None
    credit: float | None = None  # 0 to 1 (partial credit); None: `correct` says it all
    reply: str | None = None  # what the learner typed (numeric and typed questions)

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.attempt_id, self.quiz_id, self.question_id)


_Waiting = tuple[PendingAnswer, "asyncio.Future[AnswerOutcome]"]


class BatchTx(Protocol):
    async def fetchall(self, sql: str, *params: Any) -> list[Any]: ...
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class AnswerBatcher:
    """Collects answers and writes them in batches through `transaction` (which serializes
    writers, begins, and commits or rolls back)."""

    def __init__(self, transaction: Callable[[], AbstractAsyncContextManager[BatchTx]]) -> None:
        self._transaction = transaction
        self._waiting: list[_Waiting] = []
        self._writer: asyncio.Task[None] | None = None

    async def record(self, answer: PendingAnswer) -> AnswerOutcome:
        future: asyncio.Future[AnswerOutcome] = asyncio.get_running_loop().create_future()
        self._waiting.append((answer, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_waiting(), name="answer-batches")
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # the answer is still written; nobody will read how that went
            future.add_done_callback(_consume)
            raise

    async def drain(self) -> None:
        """Wait until every answer handed in so far is written (or has failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.wait({self._writer})

    def _take_batch(self) -> list[_Waiting]:
        """The oldest waiting answers, at most one per attempt: a second answer to the same
        attempt waits for the next batch, so it sees the first one's effect (an attempt that
        the first answer finished takes no more) exactly as if they had been written apart."""
        batch: list[_Waiting] = []
        rest: list[_Waiting] = []
        attempts: set[int] = set()
        for waiting in self._waiting:
            attempt_id = waiting[0].attempt_id
            if len(batch) < MAX_BATCH and attempt_id not in attempts:
                attempts.add(attempt_id)
                batch.append(waiting)
            else:
                rest.append(waiting)
        self._waiting = rest
        return batch

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                batch = self._take_batch()
                error = await self._write(batch)
                refused = isinstance(error, StorageError) and error.refused
                if error is not None and len(batch) > 1 and not refused:
                    # not the database refusing but one answer it cannot take: the others
                    # must not fail with it, so each is written on its own
                    for waiting in batch:
                        await self._write([waiting])
                elif error is not None:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
        except BaseException:  # cancelled: whatever was not written fails
            for _, future in self._waiting:
                future.cancel()
            self._waiting = []
            raise

    async def _write(self, batch: list[_Waiting]) -> Exception | None:
        """Write one batch and settle its callers; the error if it failed (callers unsettled
        then, unless the batch held one answer)."""
        try:
            async with self._transaction() as tx:
                outcomes = await write_batch(tx, [answer for answer, _ in batch])
        except Exception as error:
            if len(batch) == 1 and not batch[0][1].done():
                batch[0][1].set_exception(error)
            return error
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(outcome)
        return None


def _consume(future: asyncio.Future[AnswerOutcome]) -> None:
    if not future.cancelled():
        future.exception()


async def write_batch(tx: BatchTx, batch: Sequence[PendingAnswer]) -> list[AnswerOutcome]:
    """Insert the answers (none into a finished attempt, none twice), update their cards and
    the review log, and finish the attempts they complete. At most one answer per attempt."""
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
                     AS (VALUES {_placeholders(len(rows), 10)})
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
    carded = [(a, inserted[a.key]) for a, r in zip(batch, recorded, strict=True) if r and a.card]
    if carded:
        await tx.executemany(
            """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT(user_id, quiz_id, question_id) DO UPDATE SET
                   card=excluded.card, due=excluded.due, last_review=excluded.last_review""",
            [
                (a.user_id, a.quiz_id, a.question_id, a.card.card_json, a.card.due, a.answered_at)
                for a, _ in carded
                if a.card is not None
            ],
        )
        await tx.executemany(
            """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
                                       answer_id) VALUES (?, ?, ?, ?, ?, ?)""",
            [
                (a.user_id, a.quiz_id, a.question_id, a.card.rating, a.answered_at, answer_id)
                for a, answer_id in carded
                if a.card is not None
            ],
        )
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


def _placeholders(rows: int, columns: int) -> str:
    row = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([row] * rows)
