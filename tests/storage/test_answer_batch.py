"""Answers written in batches (storage/answer_batch.py), through a real Storage on a real
SQLite file: what concurrent callers are told, what is stored, and how many commits it took."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from content import spacing
from storage import Answer, AnswerOutcome, Attempt, CardReview, Storage, StorageError
from storage.answer_batch import MAX_BATCH

QUIZ = "arith"
QUESTIONS = ("q1", "q2", "q3")
T0 = 1_700_000_000.0
LEARNERS = 60
FIRST_USER = 2001


class Trace:
    """Every statement the storage's connection runs (aiosqlite's trace callback)."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.on_statement: Callable[[str], None] | None = None

    def __call__(self, sql: str) -> None:  # called on the connection's thread
        self.statements.append(sql)
        if self.on_statement is not None:
            self.on_statement(sql)

    def count(self, verb: str) -> int:
        return sum(1 for sql in self.statements if sql.strip().upper().startswith(verb))

    @property
    def commits(self) -> int:
        return self.count("COMMIT")


async def trace(storage: Storage) -> Trace:
    statements = Trace()
    await storage.database.set_trace_callback(statements)
    return statements


class OtherWriter:
    """Another connection that holds the file's write lock while the `with` block runs, so
    the storage's next transaction waits in BEGIN IMMEDIATE (busy_timeout) until it ends."""

    def __init__(self, db_path: Path, statements: Trace) -> None:
        self._path = db_path
        self._statements = statements
        self._began = asyncio.Event()
        self._db: sqlite3.Connection | None = None

    def __enter__(self) -> OtherWriter:
        loop = asyncio.get_running_loop()

        def on_statement(sql: str) -> None:
            if sql.strip().upper().startswith("BEGIN"):
                loop.call_soon_threadsafe(self._began.set)

        self._db = sqlite3.connect(self._path, isolation_level=None)
        self._db.execute("BEGIN IMMEDIATE")
        self._statements.on_statement = on_statement
        return self

    async def repository_waiting(self) -> None:
        """Return once the storage has begun (and so waits in) a transaction."""
        await asyncio.wait_for(self._began.wait(), timeout=5)

    def __exit__(self, *exc: object) -> None:
        self._statements.on_statement = None
        assert self._db is not None
        self._db.execute("ROLLBACK")
        self._db.close()


def query(db_path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Read the file through a connection of its own: only what was committed."""
    with closing(sqlite3.connect(db_path)) as db:
        return db.execute(sql, params).fetchall()


def count(db_path: Path, sql: str, *params: object) -> int:
    return int(query(db_path, sql, *params)[0][0])


async def start_learners(
    storage: Storage, n: int = LEARNERS, questions: tuple[str, ...] = QUESTIONS
) -> list[Attempt]:
    """n learners, each with an attempt of `questions` started."""
    attempts = []
    for user_id in range(FIRST_USER, FIRST_USER + n):
        await storage.learners.touch_user(user_id, f"learner {user_id}", "en", T0)
        attempts.append(await storage.learners.start_attempt(user_id, QUIZ, questions, T0))
    return attempts


def review(correct: bool) -> CardReview:
    return CardReview(correct, 5.0)


def first_card(correct: bool, at: float) -> spacing.Review:
    """A new card after its first review, as the batch computes it."""
    return spacing.review(None, correct, 5.0, at)


# --- many learners at once ------------------------------------------------------------------


async def test_concurrent_answers_of_many_learners_are_each_stored_once(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage)
    with_card = {a.id for a in attempts[::2]}
    outcomes = await asyncio.gather(
        *(
            storage.learners.record_answer(
                a,
                "q1",
                n % 4,
                n % 3 == 0,
                T0 + n,
                card=review(n % 3 == 0) if a.id in with_card else None,
            )
            for n, a in enumerate(attempts)
        )
    )
    assert outcomes == [
        AnswerOutcome(recorded=True, finished=False, score=int(n % 3 == 0)) for n in range(LEARNERS)
    ]
    assert count(db_path, "SELECT COUNT(*) FROM answers") == LEARNERS
    assert (
        count(
            db_path, "SELECT COUNT(*) FROM (SELECT DISTINCT attempt_id, question_id FROM answers)"
        )
        == LEARNERS
    )
    for n, a in enumerate(attempts):
        assert await storage.learners.answers(a.id) == {
            "q1": Answer("q1", n % 4, n % 3 == 0, T0 + n)
        }

    cards = query(
        db_path, "SELECT user_id, quiz_id, question_id, card, due, last_review FROM cards"
    )
    assert sorted(cards) == sorted(
        (
            a.user_id,
            QUIZ,
            "q1",
            first_card(n % 3 == 0, T0 + n).card_json,
            first_card(n % 3 == 0, T0 + n).due,
            T0 + n,
        )
        for n, a in enumerate(attempts)
        if a.id in with_card
    )
    # every review is logged once, against the answer that made it
    logged = query(
        db_path,
        """SELECT r.user_id, r.rating, r.reviewed_at, a.attempt_id
           FROM review_log r JOIN answers a ON a.id = r.answer_id
           WHERE a.user_id = r.user_id AND a.quiz_id = r.quiz_id
             AND a.question_id = r.question_id""",
    )
    assert sorted(logged) == sorted(
        (a.user_id, 3 if n % 3 == 0 else 1, T0 + n, a.id)
        for n, a in enumerate(attempts)
        if a.id in with_card
    )
    assert count(db_path, "SELECT COUNT(*) FROM review_log") == len(with_card)


async def test_many_learners_taking_a_whole_quiz_at_once(storage: Storage, db_path: Path) -> None:
    attempts = await start_learners(storage)
    statements = await trace(storage)

    async def take(n: int, attempt: Attempt) -> list[AnswerOutcome]:
        rights = [(n >> bit) & 1 == 1 for bit in range(len(QUESTIONS))]
        return [
            await storage.learners.record_answer(attempt, q, 0, right, T0 + n + i)
            for i, (q, right) in enumerate(zip(QUESTIONS, rights, strict=True))
        ]

    runs = await asyncio.gather(*(take(n, a) for n, a in enumerate(attempts)))
    for n, (attempt, outcomes) in enumerate(zip(attempts, runs, strict=True)):
        score = sum((n >> bit) & 1 for bit in range(len(QUESTIONS)))
        assert [o.recorded for o in outcomes] == [True, True, True]
        assert [o.finished for o in outcomes] == [False, False, True]
        assert outcomes[-1].score == score
        stored = await storage.learners.get_attempt(attempt.id)
        assert stored is not None
        assert (stored.score, stored.finished_at) == (score, T0 + n + 2)
    assert count(db_path, "SELECT COUNT(*) FROM answers") == LEARNERS * len(QUESTIONS)
    assert count(db_path, "SELECT COUNT(*) FROM attempts WHERE finished_at IS NULL") == 0
    assert 1 <= statements.commits < LEARNERS * len(QUESTIONS)


# --- batching -------------------------------------------------------------------------------


async def test_concurrent_answers_share_commits(storage: Storage, db_path: Path) -> None:
    attempts = await start_learners(storage)
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(storage.learners.record_answer(a, "q1", 0, True, T0 + 1) for a in attempts)
    )
    assert all(o.recorded for o in outcomes)
    assert 1 <= statements.commits < LEARNERS
    assert statements.count("ROLLBACK") == 0
    assert count(db_path, "SELECT COUNT(*) FROM answers") == LEARNERS


async def test_answers_one_after_another_commit_once_each(storage: Storage, db_path: Path) -> None:
    attempts = await start_learners(storage)
    statements = await trace(storage)
    for a in attempts:
        outcome = await storage.learners.record_answer(a, "q1", 0, True, T0 + 1)
        assert outcome.recorded
    assert statements.commits == LEARNERS
    assert count(db_path, "SELECT COUNT(*) FROM answers") == LEARNERS


async def test_more_answers_than_a_batch_holds_take_more_batches(
    storage: Storage, db_path: Path
) -> None:
    n = MAX_BATCH + MAX_BATCH // 4
    attempts = await start_learners(storage, n=n, questions=("q1",))
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(
            storage.learners.record_answer(a, "q1", 0, True, T0 + 1, finishes=False)
            for a in attempts
        )
    )
    assert outcomes == [AnswerOutcome(recorded=True, finished=False, score=0)] * n
    assert statements.commits == 2
    assert count(db_path, "SELECT COUNT(*) FROM answers") == n


async def test_answers_to_one_attempt_take_one_batch_each(storage: Storage, db_path: Path) -> None:
    """A second answer to an attempt waits for the next batch, so it sees the first."""
    (attempt,) = await start_learners(storage, n=1, questions=("q1", "q2", "q3"))
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(storage.learners.record_answer(attempt, q, 0, True, T0 + 1) for q in ("q1", "q2", "q3"))
    )
    assert statements.commits == 3
    assert outcomes == [
        AnswerOutcome(recorded=True, finished=False, score=1),
        AnswerOutcome(recorded=True, finished=False, score=2),
        AnswerOutcome(recorded=True, finished=True, score=3),
    ]
    assert count(db_path, "SELECT COUNT(*) FROM answers WHERE attempt_id=?", attempt.id) == 3


# --- one question twice, finished attempts ----------------------------------------------------


async def test_the_same_question_twice_at_once_is_recorded_once(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage, n=4)
    target, others = attempts[0], attempts[1:]
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        storage.learners.record_answer(target, "q1", 2, True, T0 + 1, card=review(True)),
        *(storage.learners.record_answer(a, "q1", 0, False, T0 + 1) for a in others),
        storage.learners.record_answer(target, "q1", 3, False, T0 + 2, card=review(False)),
    )
    assert statements.commits == 2  # the second answer to `target` waited for the next batch
    first, *rest, second = outcomes
    assert [first.recorded, second.recorded].count(True) == 1
    assert first == AnswerOutcome(recorded=True, finished=False, score=1)
    assert second == AnswerOutcome(recorded=False, finished=False, score=1)
    assert rest == [AnswerOutcome(recorded=True, finished=False, score=0)] * len(others)

    assert await storage.learners.answers(target.id) == {"q1": Answer("q1", 2, True, T0 + 1)}
    assert count(db_path, "SELECT COUNT(*) FROM answers WHERE attempt_id=?", target.id) == 1
    assert query(db_path, "SELECT card, due FROM cards WHERE user_id=?", target.user_id) == [
        (first_card(True, T0 + 1).card_json, first_card(True, T0 + 1).due)
    ]
    assert query(db_path, "SELECT rating FROM review_log WHERE user_id=?", target.user_id) == [(3,)]


async def test_many_answers_to_one_question_at_once(storage: Storage, db_path: Path) -> None:
    (attempt,) = await start_learners(storage, n=1)
    outcomes = await asyncio.gather(
        *(storage.learners.record_answer(attempt, "q2", n, n == 0, T0 + n) for n in range(10))
    )
    assert [o.recorded for o in outcomes] == [True] + [False] * 9
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 1


async def test_an_answer_into_a_finished_attempt_in_a_batch_is_refused(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage, n=5)
    done, others = attempts[0], attempts[1:]
    await storage.learners.record_answer(done, "q1", 0, True, T0 + 1)
    finished = await storage.learners.record_answer(done, "q2", 0, True, T0 + 2, finishes=True)
    assert finished == AnswerOutcome(recorded=True, finished=True, score=2)

    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(storage.learners.record_answer(a, "q1", 0, True, T0 + 10) for a in others[:2]),
        storage.learners.record_answer(done, "q3", 1, False, T0 + 10, card=review(True)),
        storage.learners.record_answer(done, "q1", 1, False, T0 + 10, finishes=False),
        *(storage.learners.record_answer(a, "q1", 1, False, T0 + 10) for a in others[2:]),
    )
    assert statements.commits == 2  # the second answer to `done` waited for the next batch
    assert outcomes == [
        AnswerOutcome(recorded=True, finished=False, score=1),
        AnswerOutcome(recorded=True, finished=False, score=1),
        AnswerOutcome(recorded=False, finished=True, score=2),
        AnswerOutcome(recorded=False, finished=True, score=2),
        AnswerOutcome(recorded=True, finished=False, score=0),
        AnswerOutcome(recorded=True, finished=False, score=0),
    ]
    assert set(await storage.learners.answers(done.id)) == {"q1", "q2"}
    assert count(db_path, "SELECT COUNT(*) FROM cards WHERE user_id=?", done.user_id) == 0
    assert count(db_path, "SELECT COUNT(*) FROM review_log") == 0
    stored = await storage.learners.get_attempt(done.id)
    assert stored is not None
    assert (stored.score, stored.finished_at) == (2, T0 + 2)
    for a in others:
        assert set(await storage.learners.answers(a.id)) == {"q1"}
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 2 + len(others)


async def test_an_answer_into_an_unknown_attempt_in_a_batch_is_refused(
    storage: Storage, db_path: Path
) -> None:
    real, other = await start_learners(storage, n=2)
    forged = dataclasses.replace(real, id=real.id + 999)
    outcomes = await asyncio.gather(
        storage.learners.record_answer(real, "q1", 0, True, T0 + 1),
        storage.learners.record_answer(forged, "q1", 0, True, T0 + 1, card=review(True)),
        storage.learners.record_answer(other, "q1", 0, False, T0 + 1),
    )
    assert list(outcomes) == [
        AnswerOutcome(recorded=True, finished=False, score=1),
        AnswerOutcome(recorded=False, finished=True, score=0),
        AnswerOutcome(recorded=True, finished=False, score=0),
    ]
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 2
    assert count(db_path, "SELECT COUNT(*) FROM answers WHERE attempt_id=?", forged.id) == 0
    assert count(db_path, "SELECT COUNT(*) FROM cards") == 0


# --- the last answer ------------------------------------------------------------------------


async def test_the_last_answer_finishes_the_attempt_by_default(storage: Storage) -> None:
    (attempt,) = await start_learners(storage, n=1)
    first = await storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1)
    second = await storage.learners.record_answer(attempt, "q2", 1, False, T0 + 2)
    last = await storage.learners.record_answer(attempt, "q3", 0, True, T0 + 3)
    assert [first.finished, second.finished] == [False, False]
    assert last == AnswerOutcome(recorded=True, finished=True, score=2)
    stored = await storage.learners.get_attempt(attempt.id)
    assert stored is not None
    assert (stored.finished_at, stored.score) == (T0 + 3, 2)
    assert await storage.learners.running_attempt(attempt.user_id, QUIZ) is None


async def test_last_answers_of_many_attempts_in_one_batch_finish_each(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage, n=20)
    for n, a in enumerate(attempts):
        await storage.learners.record_answer(a, "q1", 0, n % 2 == 0, T0 + 1)
        await storage.learners.record_answer(a, "q2", 0, n % 3 == 0, T0 + 2)
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(
            storage.learners.record_answer(a, "q3", 0, True, T0 + 3 + n)
            for n, a in enumerate(attempts)
        )
    )
    assert statements.commits == 1
    for n, (a, outcome) in enumerate(zip(attempts, outcomes, strict=True)):
        score = int(n % 2 == 0) + int(n % 3 == 0) + 1
        assert outcome == AnswerOutcome(recorded=True, finished=True, score=score)
        stored = await storage.learners.get_attempt(a.id)
        assert stored is not None
        assert (stored.finished_at, stored.score) == (T0 + 3 + n, score)
    assert count(db_path, "SELECT COUNT(*) FROM attempts WHERE finished_at IS NULL") == 0


async def test_finishes_true_finishes_the_attempt_early(storage: Storage) -> None:
    (attempt,) = await start_learners(storage, n=1)
    await storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1, finishes=False)
    outcome = await storage.learners.record_answer(attempt, "q2", 0, True, T0 + 2, finishes=True)
    assert outcome == AnswerOutcome(recorded=True, finished=True, score=2)
    stored = await storage.learners.get_attempt(attempt.id)
    assert stored is not None
    assert (stored.finished_at, stored.score) == (T0 + 2, 2)
    late = await storage.learners.record_answer(attempt, "q3", 0, True, T0 + 3)
    assert late == AnswerOutcome(recorded=False, finished=True, score=2)
    assert set(await storage.learners.answers(attempt.id)) == {"q1", "q2"}


async def test_finishes_false_never_finishes_the_attempt(storage: Storage, db_path: Path) -> None:
    (attempt,) = await start_learners(storage, n=1)
    outcomes = [
        await storage.learners.record_answer(attempt, q, 0, True, T0 + i, finishes=False)
        for i, q in enumerate(QUESTIONS)
    ]
    assert outcomes == [AnswerOutcome(recorded=True, finished=False, score=0)] * 3
    stored = await storage.learners.get_attempt(attempt.id)
    assert stored is not None
    assert (stored.finished_at, stored.score) == (None, None)
    assert await storage.learners.running_attempt(attempt.user_id, QUIZ) == attempt
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 3


async def test_finishes_false_in_a_batch_never_finishes_the_attempt(
    storage: Storage, db_path: Path
) -> None:
    (attempt,) = await start_learners(storage, n=1)
    outcomes = await asyncio.gather(
        *(
            storage.learners.record_answer(attempt, q, 0, True, T0 + i, finishes=False)
            for i, q in enumerate(QUESTIONS)
        )
    )
    assert outcomes == [AnswerOutcome(recorded=True, finished=False, score=0)] * 3
    assert count(db_path, "SELECT COUNT(*) FROM attempts WHERE finished_at IS NOT NULL") == 0
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 3


# Two answers that each end one attempt, handed in at once, must not both be recorded and both
# told `finished`: the second waits for the next batch and sees the first one's effect.


async def test_two_answers_that_complete_an_attempt_together_finish_it_once(
    storage: Storage,
) -> None:
    (attempt,) = await start_learners(storage, n=1, questions=("q1", "q2"))
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1),
        storage.learners.record_answer(attempt, "q2", 0, True, T0 + 2),
    )
    assert statements.commits == 2
    assert outcomes == [
        AnswerOutcome(recorded=True, finished=False, score=1),
        AnswerOutcome(recorded=True, finished=True, score=2),
    ]


async def test_an_answer_after_one_that_finishes_the_attempt_at_once_is_refused(
    storage: Storage,
) -> None:
    (attempt,) = await start_learners(storage, n=1)
    outcomes = await asyncio.gather(
        storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1, finishes=True),
        storage.learners.record_answer(attempt, "q2", 0, True, T0 + 2, finishes=True),
    )
    assert outcomes == [
        AnswerOutcome(recorded=True, finished=True, score=1),
        AnswerOutcome(recorded=False, finished=True, score=1),
    ]
    assert len(await storage.learners.answers(attempt.id)) == 1


# --- failures -------------------------------------------------------------------------------


async def test_a_failed_batch_fails_every_caller_and_stores_nothing(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage, n=20, questions=("q1",))
    await storage.database.connection.execute("PRAGMA query_only=ON")
    results = await asyncio.gather(
        *(
            storage.learners.record_answer(a, "q1", 0, True, T0 + 1, card=review(True))
            for a in attempts
        ),
        return_exceptions=True,
    )
    assert all(isinstance(result, StorageError) for result in results), results
    assert count(db_path, "SELECT COUNT(*) FROM answers") == 0
    assert count(db_path, "SELECT COUNT(*) FROM cards") == 0
    assert count(db_path, "SELECT COUNT(*) FROM review_log") == 0
    assert count(db_path, "SELECT COUNT(*) FROM attempts WHERE finished_at IS NOT NULL") == 0

    await storage.database.connection.execute("PRAGMA query_only=OFF")
    statements = await trace(storage)
    outcomes = await asyncio.gather(
        *(
            storage.learners.record_answer(a, "q1", 1, False, T0 + 2, card=review(True))
            for a in attempts
        )
    )
    assert outcomes == [AnswerOutcome(recorded=True, finished=True, score=0)] * len(attempts)
    assert 1 <= statements.commits < len(attempts)
    assert count(db_path, "SELECT COUNT(*) FROM answers") == len(attempts)
    assert count(db_path, "SELECT COUNT(*) FROM cards") == len(attempts)
    assert count(db_path, "SELECT COUNT(*) FROM attempts WHERE finished_at IS NULL") == 0


async def test_a_batch_that_fails_midway_is_rolled_back_and_its_answers_written_apart(
    storage: Storage, db_path: Path
) -> None:
    """The answers are inserted, then a card for a learner who does not exist breaks the
    cards' foreign key: the batch is rolled back whole, then each answer is written on its
    own, so only the one the database cannot take fails."""
    attempts = await start_learners(storage, n=10)
    poisoned = dataclasses.replace(attempts[0], user_id=999_999)
    statements = await trace(storage)
    *fine, bad = await asyncio.gather(
        *(storage.learners.record_answer(a, "q1", 0, True, T0 + 1) for a in attempts[1:]),
        storage.learners.record_answer(poisoned, "q1", 0, True, T0 + 1, card=review(True)),
        return_exceptions=True,
    )
    assert isinstance(bad, StorageError) and not bad.refused
    assert fine == [AnswerOutcome(recorded=True, finished=False, score=1)] * len(fine)
    assert statements.count("ROLLBACK") == 2  # the batch, then the poisoned answer alone
    assert statements.commits == len(fine)
    assert count(db_path, "SELECT COUNT(*) FROM answers") == len(fine)
    assert count(db_path, "SELECT COUNT(*) FROM answers WHERE attempt_id=?", poisoned.id) == 0
    assert count(db_path, "SELECT COUNT(*) FROM cards") == 0

    again = await storage.learners.record_answer(attempts[0], "q1", 0, True, T0 + 2)
    assert again.recorded
    assert count(db_path, "SELECT COUNT(*) FROM answers") == len(attempts)


async def test_answers_that_arrive_while_a_batch_fails_are_written_after_it(
    storage: Storage, db_path: Path
) -> None:
    attempts = await start_learners(storage, n=10)
    poisoned = dataclasses.replace(attempts[0], user_id=999_999)
    statements = await trace(storage)
    with OtherWriter(db_path, statements) as other:
        failing = [
            asyncio.create_task(
                storage.learners.record_answer(poisoned, "q1", 0, True, T0 + 1, card=review(True))
            ),
            *(
                asyncio.create_task(storage.learners.record_answer(a, "q1", 0, True, T0 + 1))
                for a in attempts[1:5]
            ),
        ]
        await other.repository_waiting()
        later = [
            asyncio.create_task(storage.learners.record_answer(a, "q1", 0, False, T0 + 2))
            for a in attempts[5:]
        ]
    bad, *fine = await asyncio.gather(*failing, return_exceptions=True)
    assert isinstance(bad, StorageError)
    assert fine == [AnswerOutcome(recorded=True, finished=False, score=1)] * 4
    assert await asyncio.gather(*later) == [
        AnswerOutcome(recorded=True, finished=False, score=0)
    ] * len(attempts[5:])
    # the failed batch, the poisoned answer alone; four answers apart, then the later batch
    assert (statements.count("ROLLBACK"), statements.commits) == (2, 5)
    assert sorted(row[0] for row in query(db_path, "SELECT attempt_id FROM answers")) == [
        a.id for a in attempts[1:]
    ]


# --- closing --------------------------------------------------------------------------------


async def test_close_waits_for_answers_handed_in_before_it(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    attempts = await start_learners(storage, n=30, questions=("q1", "q2"))
    # gather starts its tasks in order: every answer is handed in before close() begins
    *outcomes, _ = await asyncio.gather(
        *(
            storage.learners.record_answer(a, "q1", 0, n % 2 == 0, T0 + n)
            for n, a in enumerate(attempts)
        ),
        storage.close(),
    )
    assert all(isinstance(o, AnswerOutcome) and o.recorded for o in outcomes)

    reopened = await Storage.open(db_path)
    try:
        for n, a in enumerate(attempts):
            assert await reopened.learners.answers(a.id) == {
                "q1": Answer("q1", 0, n % 2 == 0, T0 + n)
            }
        assert await reopened.learners.count_answers() == len(attempts)
    finally:
        await reopened.close()


async def test_close_waits_for_answers_that_arrive_while_a_batch_is_written(
    db_path: Path,
) -> None:
    storage = await Storage.open(db_path)
    attempts = await start_learners(storage, n=20)
    first, second = attempts[:10], attempts[10:]
    statements = await trace(storage)
    with OtherWriter(db_path, statements) as other:
        first_wave = [
            asyncio.create_task(storage.learners.record_answer(a, "q1", 0, True, T0 + 1))
            for a in first
        ]
        await other.repository_waiting()
        second_wave = [
            asyncio.create_task(storage.learners.record_answer(a, "q1", 0, False, T0 + 2))
            for a in second
        ]
        closing = asyncio.create_task(storage.close())
    outcomes = await asyncio.gather(*first_wave, *second_wave)
    await closing
    assert outcomes == [AnswerOutcome(recorded=True, finished=False, score=1)] * len(first) + [
        AnswerOutcome(recorded=True, finished=False, score=0)
    ] * len(second)
    assert statements.commits == 2  # the second wave was a batch of its own

    assert count(db_path, "SELECT COUNT(*) FROM answers") == len(attempts)
    assert query(db_path, "SELECT DISTINCT correct FROM answers WHERE answered_at=?", T0 + 2) == [
        (0,)
    ]
