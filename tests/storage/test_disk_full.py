"""A database that is full under the running bot: a polite answer, one clear log line, nothing
stored, no crash loop, and everything works again once there is room.

A full disk cannot be made here, but SQLite can be made genuinely full: `PRAGMA
max_page_count` set to the file's current size on the bot's own connection makes every write
that needs one more page fail with SQLITE_FULL ("database or disk is full"), exactly the error a
full disk gives. A write that fits into the free space of pages the file already has would
still succeed, so the tests first fill that space, from a second connection with the same
limit, with rows of other people shaped like the write to come, and then prove, with that very
write rolled back, that it no longer fits.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.config import Settings
from bot.core.context import SERVICES_KEY
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner, button_for

QUIZ_ID = "model-pipeline-parallelism"
RIGHT_FIRST = "A model too large to fit in one GPU's memory"
POLITE = "Sorry, I could not save that just now. Please try again in a moment."
FULL = "database or disk is full"
A_MOMENT = 1_767_000_000.25  # a time with a fraction: stored in 8 bytes, like `time.time()`

Statement = tuple[str, tuple[Any, ...]]


def _bot_db(application: Any) -> aiosqlite.Connection:
    """The storage's own connection, as the read-only test in test_e2e_edges reaches it."""
    db: aiosqlite.Connection = application.bot_data[SERVICES_KEY].storage.database.connection
    return db


async def _pragma(db: aiosqlite.Connection, pragma: str) -> int:
    async with db.execute(f"PRAGMA {pragma}") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def _make_full(db: aiosqlite.Connection) -> tuple[int, int]:
    """Cap the bot's connection at the file's current size; returns (that size, the old cap)."""
    unlimited = await _pragma(db, "max_page_count")
    pages = await _pragma(db, "page_count")
    assert await _pragma(db, f"max_page_count={pages}") == pages
    return pages, unlimited


def _fill(db_path: Path, pages: int, filler: Callable[[int], Statement], probe: Statement) -> str:
    """Insert `filler(i)` rows until the file, capped at `pages`, has no room for one more; then
    try `probe` (the bot's next write, or a row no larger) and roll it back. Returns the
    probe's error: the tests go on only if it is SQLITE_FULL."""
    with _connection(db_path) as db:
        db.execute(f"PRAGMA max_page_count={pages}")
        for i in itertools.count():
            assert i < 50_000, "the filler rows never filled the database"
            try:
                db.execute(*filler(i))
            except sqlite3.OperationalError as error:
                assert FULL in str(error), error
                break
        # a row that needs two new pages fails while one is still free (how many are free
        # depends on the schema): each page left becomes a table's root, one page each
        for k in itertools.count():
            if db.execute("PRAGMA freelist_count").fetchone() == (0,):
                break
            db.execute(f"CREATE TABLE filler_page_{k} (x)")
        assert db.execute("PRAGMA page_count").fetchone() == (pages,)
        assert db.execute("PRAGMA freelist_count").fetchone() == (0,)
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(*probe)
        except sqlite3.OperationalError as error:
            return str(error)
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
    return "the probe was written: there was still room"


@contextmanager
def _connection(db_path: Path) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(db_path, isolation_level=None, timeout=10)
    try:
        yield db
    finally:
        db.close()


def _count(db_path: Path, sql: str, *params: Any) -> int:
    with _connection(db_path) as db:
        return int(db.execute(sql, params).fetchone()[0])


def _storage_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        record
        for record in caplog.records
        if record.levelno >= logging.ERROR and "storage error" in record.getMessage()
    ]


def _assert_one_clear_log_line(caplog: pytest.LogCaptureFixture) -> None:
    errors = _storage_errors(caplog)
    assert len(errors) == 1, [r.getMessage()[:200] for r in errors]
    (record,) = errors
    assert record.levelno == logging.ERROR
    # what an operator reads: one line that names the cause, without a traceback
    assert FULL in record.getMessage()
    assert record.exc_info is None
    assert "\n" not in record.getMessage()


async def test_an_answer_on_a_full_database_is_refused_politely_and_taken_once_there_is_room(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    learner = Learner(api, FakeUser(7001, "Bisi", "en"))
    other = FakeUser(7002, "Filler", "en")  # an id of the learner's size: rows of the same size
    async with running_bot(settings) as application:
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        with _connection(db_path) as check:
            attempt_id, question_ids = check.execute(
                "SELECT id, question_ids FROM attempts WHERE user_id=?", (learner.user.id,)
            ).fetchone()
            first = json.loads(question_ids)[0]
            # someone else's finished attempt, to hang the filler answers on
            check.execute(
                "INSERT INTO users (user_id, created_at, updated_at) VALUES (?, 0, 0)",
                (other.id,),
            )
            filler_attempt = check.execute(
                """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                                         finished_at, score) VALUES (?, 'filler', '[]', 0, 0, 0, 0)
                   RETURNING id""",
                (other.id,),
            ).fetchone()[0]
        assert first == "mpp-1"
        assert len(str(filler_attempt)) == len(str(attempt_id))

        db = _bot_db(application)
        pages, unlimited = await _make_full(db)
        answer_sql = """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                                             correct, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)"""
        # The filler rows are no larger than the learner's answer, and sort right after it in
        # every index; the probe is the learner's answer itself.
        probe_error = await asyncio.to_thread(
            _fill,
            db_path,
            pages,
            lambda i: (
                answer_sql,
                (filler_attempt, other.id, QUIZ_ID, f"{i:05d}", 0, 0, A_MOMENT + i),
            ),
            (answer_sql, (attempt_id, learner.user.id, QUIZ_ID, first, 0, 0, A_MOMENT)),
        )
        assert FULL in probe_error, probe_error
        caplog.clear()

        # 1. the learner taps the right answer while the database is full
        right = button_for(question, RIGHT_FIRST)
        sent = len(learner.messages())
        toast = await learner.tap(question, right)
        assert toast == {"text": POLITE, "show_alert": True}
        await api.wait_until_polled()
        assert len(learner.messages()) == sent  # no traceback, no half-shown next question
        assert api.messages[(learner.chat_id, question.message_id)].edits == 0
        assert _count(db_path, "SELECT COUNT(*) FROM answers WHERE user_id=?", 7001) == 0
        assert _count(db_path, "SELECT COUNT(*) FROM cards WHERE user_id=?", 7001) == 0
        assert _count(db_path, "SELECT COUNT(*) FROM review_log WHERE user_id=?", 7001) == 0
        _assert_one_clear_log_line(caplog)

        # no crash loop: the bot runs on, does not handle the failed tap again, and answers
        # what comes next, still on a full database (reading needs no room)
        assert application.running
        await learner.send("/help", "/progress")
        progress = await learner.send("/progress", "Your progress")
        assert "in progress: 0/8" in progress.text
        assert len(_storage_errors(caplog)) == 1
        assert len(api.calls_to("answerCallbackQuery")) == 1

        # 2. room again: the same button, tapped again, is recorded once and the quiz goes on
        assert await _pragma(db, f"max_page_count={unlimited}") == unlimited
        toast, following = await learner.choose(question, RIGHT_FIRST, "Question 2 of 8")
        assert toast["text"] == "✅ Correct!"
        assert following.button_data()
        toast = await learner.tap(question, right, forge=True)  # a tap that was in flight
        assert toast["text"] == "You already answered this question."
        assert len(_storage_errors(caplog)) == 1
    with _connection(db_path) as check:
        rows = check.execute(
            "SELECT attempt_id, question_id, chosen, correct FROM answers WHERE user_id=7001"
        ).fetchall()
        assert rows == [(attempt_id, "mpp-1", 0, 1)]
        assert check.execute(
            "SELECT COUNT(*) FROM review_log WHERE user_id=7001 AND question_id='mpp-1'"
        ).fetchone() == (1,)
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_starting_a_quiz_on_a_full_database_is_refused_politely_and_works_once_there_is_room(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    learner = Learner(api, FakeUser(7101, "Dayo", "en"))
    other = FakeUser(7102, "Filler", "en")
    async with running_bot(settings) as application:
        await learner.send(
            "/start", "Hello, \u2068Dayo"
        )  # the learner is stored while there is room
        with _connection(db_path) as check:
            check.execute(
                "INSERT INTO users (user_id, created_at, updated_at) VALUES (?, 0, 0)",
                (other.id,),
            )
        questions = json.dumps([f"mpp-{n}" for n in range(1, 9)])
        db = _bot_db(application)
        pages, unlimited = await _make_full(db)
        attempt_sql = """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                                               kind) VALUES (?, ?, ?, ?, ?, 'quiz')"""
        # running attempts of someone else, each of a made-up quiz with an id as long as the
        # real one: the same size as the learner's attempt, sorted right after it
        probe_error = await asyncio.to_thread(
            _fill,
            db_path,
            pages,
            lambda i: (
                attempt_sql,
                (other.id, f"filler-{i:0{len(QUIZ_ID) - 7}d}", questions, 8, A_MOMENT + i),
            ),
            (attempt_sql, (learner.user.id, QUIZ_ID, questions, 8, A_MOMENT)),
        )
        assert FULL in probe_error, probe_error
        caplog.clear()

        # 3. /quiz would start an attempt: a polite message, no attempt, no question
        reply = await learner.send(f"/quiz {QUIZ_ID}", "")
        assert reply.text == POLITE
        await api.wait_until_polled()
        assert not [m for m in learner.messages() if "Question 1 of 8" in m.text]
        assert _count(db_path, "SELECT COUNT(*) FROM attempts WHERE user_id=?", 7101) == 0
        _assert_one_clear_log_line(caplog)
        assert application.running
        await learner.send("/help", "/progress")
        assert len(_storage_errors(caplog)) == 1

        assert await _pragma(db, f"max_page_count={unlimited}") == unlimited
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        await learner.choose(question, RIGHT_FIRST, "Question 2 of 8")
        assert len(_storage_errors(caplog)) == 1
    with _connection(db_path) as check:
        assert check.execute(
            "SELECT COUNT(*) FROM attempts WHERE user_id=7101 AND finished_at IS NULL"
        ).fetchone() == (1,)
        assert check.execute("SELECT COUNT(*) FROM answers WHERE user_id=7101").fetchone() == (1,)
