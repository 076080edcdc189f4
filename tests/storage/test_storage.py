"""Unit tests of storage.Storage against a real SQLite file."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from pathlib import Path

import pytest

from storage import Answer, AnswerOutcome, QuizRecord, Storage, StorageError
from storage.migrations import SCHEMA_VERSION

USER = 1001
QUIZ = "arith"
QUESTIONS = ("q1", "q2", "q3")
T0 = 1_700_000_000.0


@pytest.fixture
async def storage(storage: Storage) -> Storage:
    """The shared storage fixture (tests/conftest.py), with Ada as a user."""
    await storage.learners.touch_user(USER, "Ada", "en", T0)
    return storage


def read_pragma(db_path: Path, pragma: str) -> object:
    with sqlite3.connect(db_path) as db:
        return db.execute(f"PRAGMA {pragma}").fetchone()[0]


def count_rows(db_path: Path, table: str) -> int:
    with sqlite3.connect(db_path) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


async def finish_attempt(
    storage: Storage, correct: tuple[bool, ...], now: float, quiz_id: str = QUIZ
) -> int:
    """Start an attempt and answer every question; returns the attempt id."""
    ids = tuple(f"q{n}" for n in range(1, len(correct) + 1))
    attempt = await storage.learners.start_attempt(USER, quiz_id, ids, now)
    for offset, (question_id, right) in enumerate(zip(ids, correct, strict=True)):
        await storage.learners.record_answer(
            attempt, question_id, 0 if right else 1, right, now + offset
        )
    return attempt.id


# --- schema and connection -----------------------------------------------------------------


async def test_migrations_set_user_version_to_schema_version(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.database.schema_version() == SCHEMA_VERSION
    finally:
        await storage.close()
    assert read_pragma(db_path, "user_version") == SCHEMA_VERSION


async def test_reopening_is_idempotent(db_path: Path) -> None:
    first = await Storage.open(db_path)
    await first.learners.touch_user(USER, "Ada", "en", T0)
    await first.close()
    second = await Storage.open(db_path)
    try:
        assert await second.database.schema_version() == SCHEMA_VERSION
        user = await second.learners.get_user(USER)
        assert user is not None
        assert user.first_name == "Ada"
    finally:
        await second.close()


async def test_open_creates_the_folder(tmp_path: Path) -> None:
    db_path = tmp_path / "a" / "b" / "quiz.sqlite3"
    storage = await Storage.open(db_path)
    await storage.close()
    assert db_path.is_file()


async def test_wal_journal_mode_is_on(storage: Storage, db_path: Path) -> None:
    assert read_pragma(db_path, "journal_mode") == "wal"


async def test_a_newer_database_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(db_path)
    assert read_pragma(db_path, "user_version") == SCHEMA_VERSION + 1


# --- users ------------------------------------------------------------------------------------


async def test_touch_user_creates_a_user(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.learners.get_user(7) is None
        user = await storage.learners.touch_user(7, "Bola", "yo", T0)
        assert (user.user_id, user.first_name, user.telegram_language) == (7, "Bola", "yo")
        assert user.language is None
        assert user.active is True
        assert await storage.learners.get_user(7) == user
    finally:
        await storage.close()


async def test_nobody_found_is_remembered_until_they_are_written(storage: Storage) -> None:
    """A member of a large group without a record is read once, not on every tap; once they
    have one, it is read."""
    reads = 0

    def trace(sql: str) -> None:
        nonlocal reads
        reads += sql.startswith("SELECT * FROM users")

    await storage.database.set_trace_callback(trace)
    for _ in range(5):
        assert await storage.learners.get_user(9) is None
    assert reads == 1
    await storage.database.set_trace_callback(None)
    user = await storage.learners.touch_user(9, "Tunde", None, T0)
    assert await storage.learners.get_user(9) == user


async def test_touch_user_refreshes_name_and_telegram_language(storage: Storage) -> None:
    user = await storage.learners.touch_user(USER, "Ada L.", "fr", T0 + 10)
    assert (user.first_name, user.telegram_language) == ("Ada L.", "fr")
    assert await storage.learners.get_user(USER) == user


async def test_touch_user_reactivates_an_inactive_user(storage: Storage) -> None:
    await storage.learners.set_active(USER, False, T0 + 1)
    inactive = await storage.learners.get_user(USER)
    assert inactive is not None
    assert inactive.active is False
    user = await storage.learners.touch_user(USER, "Ada", "en", T0 + 2)
    assert user.active is True


async def test_touch_user_keeps_the_chosen_language(storage: Storage) -> None:
    await storage.learners.set_language(USER, "yo", T0 + 1)
    user = await storage.learners.touch_user(USER, "Ada", "de", T0 + 2)
    assert user.language == "yo"
    assert user.telegram_language == "de"


async def test_set_language(storage: Storage) -> None:
    await storage.learners.set_language(USER, "yo", T0 + 1)
    user = await storage.learners.get_user(USER)
    assert user is not None
    assert user.language == "yo"


# --- attempts -------------------------------------------------------------------------------


async def test_start_attempt_returns_the_running_attempt_when_called_twice(
    storage: Storage, db_path: Path
) -> None:
    first = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    second = await storage.learners.start_attempt(USER, QUIZ, ("other",), T0 + 5)
    assert second == first
    assert second.question_ids == QUESTIONS
    assert second.started_at == T0
    assert count_rows(db_path, "attempts") == 1


async def test_concurrent_starts_share_one_running_attempt(storage: Storage, db_path: Path) -> None:
    attempts = await asyncio.gather(
        *(storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0 + n) for n in range(5))
    )
    assert len({attempt.id for attempt in attempts}) == 1
    assert count_rows(db_path, "attempts") == 1


async def test_running_attempts_are_per_quiz_and_per_user(storage: Storage) -> None:
    await storage.learners.touch_user(2002, "Bola", None, T0)
    a = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    b = await storage.learners.start_attempt(USER, "other-quiz", QUESTIONS, T0)
    c = await storage.learners.start_attempt(2002, QUIZ, QUESTIONS, T0)
    assert len({a.id, b.id, c.id}) == 3
    assert await storage.learners.running_attempt(USER, QUIZ) == a


async def test_a_new_attempt_starts_after_one_is_finished(storage: Storage) -> None:
    finished_id = await finish_attempt(storage, (True, True), T0)
    new = await storage.learners.start_attempt(USER, QUIZ, ("q1", "q2"), T0 + 100)
    assert new.id != finished_id
    assert new.finished is False


# --- answers ----------------------------------------------------------------------------------


async def test_record_answer_stores_the_answer(storage: Storage) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    outcome = await storage.learners.record_answer(attempt, "q1", 2, True, T0 + 1)
    assert outcome == AnswerOutcome(recorded=True, finished=False, score=1)
    assert await storage.learners.answers(attempt.id) == {"q1": Answer("q1", 2, True, T0 + 1)}


async def test_a_second_answer_to_a_question_is_not_recorded(
    storage: Storage, db_path: Path
) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    await storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1)
    outcome = await storage.learners.record_answer(attempt, "q1", 3, False, T0 + 2)
    assert outcome == AnswerOutcome(recorded=False, finished=False, score=1)
    assert await storage.learners.answers(attempt.id) == {"q1": Answer("q1", 0, True, T0 + 1)}
    assert count_rows(db_path, "answers") == 1
    assert await storage.learners.running_attempt(USER, QUIZ) == attempt


async def test_concurrent_answers_to_one_question_record_one(storage: Storage) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    outcomes = await asyncio.gather(
        *(storage.learners.record_answer(attempt, "q1", n, n == 0, T0 + n) for n in range(4))
    )
    assert [o.recorded for o in outcomes].count(True) == 1
    assert await storage.learners.count_answers() == 1


async def test_the_last_answer_finishes_the_attempt_with_its_score(storage: Storage) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    await storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1)
    await storage.learners.record_answer(attempt, "q2", 1, False, T0 + 2)
    outcome = await storage.learners.record_answer(attempt, "q3", 0, True, T0 + 3)
    assert outcome == AnswerOutcome(recorded=True, finished=True, score=2)
    stored = await storage.learners.get_attempt(attempt.id)
    assert stored is not None
    assert stored.finished_at == T0 + 3
    assert stored.score == 2
    assert await storage.learners.running_attempt(USER, QUIZ) is None


async def test_a_marked_down_answer_is_stored_and_counts_below_zero(
    storage: Storage, db_path: Path
) -> None:
    """Moodle's weights: a credit from -1 to 1 is kept, and the attempt's score adds it."""
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    await storage.learners.record_answer(attempt, "q1", 2, False, T0 + 1, credit=-1.0)
    await storage.learners.record_answer(attempt, "q2", 1, False, T0 + 2, credit=0.5)
    outcome = await storage.learners.record_answer(attempt, "q3", 0, True, T0 + 3)
    assert outcome.score == 0.5
    answers = await storage.learners.answers(attempt.id)
    assert [answers[q].score for q in QUESTIONS] == [-1.0, 0.5, 1.0]
    with sqlite3.connect(db_path) as db, pytest.raises(sqlite3.IntegrityError, match="credit"):
        db.execute("UPDATE answers SET credit = -1.5 WHERE question_id = 'q1'")


async def test_answers_to_a_finished_attempt_are_refused(storage: Storage) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, ("q1",), T0)
    await storage.learners.record_answer(attempt, "q1", 0, True, T0 + 1)
    outcome = await storage.learners.record_answer(attempt, "q1", 1, False, T0 + 2)
    assert outcome.recorded is False
    assert outcome.finished is True
    assert outcome.score == 1
    assert await storage.learners.count_answers() == 1
    stored = await storage.learners.get_attempt(attempt.id)
    assert stored is not None
    assert (stored.score, stored.finished_at) == (1, T0 + 1)


async def test_an_answer_to_a_question_outside_the_attempt_is_a_programming_error(
    storage: Storage,
) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, ("q1", "q2"), T0)
    with pytest.raises(ValueError, match="not part of attempt"):
        await storage.learners.record_answer(attempt, "q9", 0, True, T0 + 1)
    assert await storage.learners.count_answers() == 0


async def test_answers_to_an_unknown_attempt_are_refused(storage: Storage) -> None:
    attempt = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    forged = dataclasses.replace(attempt, id=attempt.id + 999)
    outcome = await storage.learners.record_answer(forged, "q1", 0, True, T0 + 1)
    assert outcome.recorded is False
    assert await storage.learners.count_answers() == 0


# --- records -------------------------------------------------------------------------------


async def test_quiz_records_best_last_and_running(storage: Storage) -> None:
    await finish_attempt(storage, (True, True, False), T0)  # 2/3, best
    await finish_attempt(storage, (True, False, False), T0 + 100)  # 1/3, last
    running = await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0 + 200)
    await storage.learners.record_answer(running, "q1", 0, True, T0 + 201)
    records = await storage.learners.quiz_records(USER)
    assert records == {
        QUIZ: QuizRecord(
            quiz_id=QUIZ,
            attempts_finished=2,
            best_score=2,
            best_total=3,
            last_score=1,
            last_total=3,
            running_answered=1,
            running_total=3,
        )
    }


async def test_quiz_records_of_a_quiz_only_started(storage: Storage) -> None:
    await storage.learners.start_attempt(USER, QUIZ, QUESTIONS, T0)
    record = (await storage.learners.quiz_records(USER))[QUIZ]
    assert record.attempts_finished == 0
    assert (record.best_score, record.last_score) == (None, None)
    assert (record.running_answered, record.running_total) == (0, 3)


async def test_quiz_records_are_per_quiz_and_empty_for_a_new_user(storage: Storage) -> None:
    await finish_attempt(storage, (True,), T0, quiz_id="one")
    await finish_attempt(storage, (False, False), T0, quiz_id="two")
    records = await storage.learners.quiz_records(USER)
    assert sorted(records) == ["one", "two"]
    assert (records["one"].best_score, records["one"].best_total) == (1, 1)
    assert (records["two"].best_score, records["two"].best_total) == (0, 2)
    assert records["two"].running_answered is None
    assert await storage.learners.quiz_records(424242) == {}


async def test_latest_answers_returns_the_most_recent_answer_per_question(
    storage: Storage,
) -> None:
    await finish_attempt(storage, (False, True), T0)
    second = await storage.learners.start_attempt(USER, QUIZ, ("q1", "q2"), T0 + 100)
    await storage.learners.record_answer(second, "q1", 0, True, T0 + 101)
    latest = await storage.learners.latest_answers(USER, QUIZ)
    assert latest == {
        "q1": Answer("q1", 0, True, T0 + 101),
        "q2": Answer("q2", 0, True, T0 + 1),
    }
    assert await storage.learners.latest_answers(USER, "other-quiz") == {}


async def test_data_survives_close_and_reopen(db_path: Path) -> None:
    first = await Storage.open(db_path)
    await first.learners.touch_user(USER, "Ada", "en", T0)
    await first.learners.set_language(USER, "yo", T0 + 1)
    attempt = await first.learners.start_attempt(USER, QUIZ, ("q1", "q2"), T0)
    await first.learners.record_answer(attempt, "q1", 1, False, T0 + 2)
    await first.close()

    second = await Storage.open(db_path)
    try:
        user = await second.learners.get_user(USER)
        assert user is not None
        assert user.language == "yo"
        assert await second.learners.running_attempt(USER, QUIZ) == attempt
        assert await second.learners.answers(attempt.id) == {"q1": Answer("q1", 1, False, T0 + 2)}
        outcome = await second.learners.record_answer(attempt, "q2", 0, True, T0 + 3)
        assert outcome == AnswerOutcome(recorded=True, finished=True, score=1)
    finally:
        await second.close()
