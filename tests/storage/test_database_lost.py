"""A database file lost under the running bot (issue 11, item 3): deleted with its folder, or
replaced by another file. Nothing is acknowledged from then on, learners are told to come back
in a minute, one CRITICAL line says what happened, and `python -m bot` exits with code 3 so a
supervisor restarts it, on a new database that the start announces (item 4)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import DATABASE_WATCH_SECONDS
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core.context import SERVICES_KEY
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import load_bank_file
from storage import DatabaseLost, Storage
from storage.migrations import MIGRATIONS
from tests.support.harness import running_bot
from tests.support.learner import Learner, button_for, right
from tests.support.process import bot_process

QUIZ_ID = "model-pipeline-parallelism"
UNAVAILABLE = "Quiz Tutor is temporarily unavailable. Please try again in a minute."
USER = 5001
T0 = 1_700_000_000.0


def _delete_folder(db_path: Path) -> None:
    shutil.rmtree(db_path.parent)


def _replace_file(db_path: Path) -> None:
    """Move another sound Quiz Tutor database over the file, as a careless restore would."""
    other = db_path.with_name("other.sqlite3")
    with contextlib.closing(sqlite3.connect(other, isolation_level=None)) as db:
        for version, statements in enumerate(MIGRATIONS, start=1):
            for statement in statements:
                db.execute(statement)
            db.execute(f"PRAGMA user_version={version}")
    os.replace(other, db_path)


LOSSES: dict[str, tuple[Callable[[Path], None], str]] = {
    "deleted": (_delete_folder, "was deleted"),
    "replaced": (_replace_file, "was replaced"),
}


def _criticals(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.CRITICAL]


# --- the storage -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", sorted(LOSSES))
async def test_no_answer_is_acknowledged_once_the_file_is_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    lose, said = LOSSES[how]
    db_path = tmp_path / "data" / "quiz.sqlite3"
    losses: list[str] = []
    storage = await Storage.open(db_path, on_lost=lambda: losses.append("lost"))
    try:
        attempts = []
        for user in range(USER, USER + 6):
            await storage.learners.touch_user(user, "Ada", "en", T0)
            attempts.append(await storage.learners.start_attempt(user, "arith", ("q1", "q2"), T0))
        first = await storage.learners.record_answer(attempts[0], "q1", 0, True, T0 + 1)
        assert first.recorded
        assert storage.healthy and storage.lost is None

        lose(db_path)
        # answers in flight together (one batch) and one after: none is acknowledged
        results = await asyncio.gather(
            *(storage.learners.record_answer(a, "q2", 0, True, T0 + 2) for a in attempts),
            return_exceptions=True,
        )
        assert all(isinstance(result, DatabaseLost) for result in results), results
        with pytest.raises(DatabaseLost):
            await storage.learners.record_answer(attempts[1], "q1", 0, True, T0 + 3)
        with pytest.raises(DatabaseLost):
            await storage.learners.start_attempt(USER, "other", ("q1",), T0 + 4)
        with pytest.raises(DatabaseLost):
            await storage.learners.quiz_records(USER)
        with pytest.raises(DatabaseLost):
            await storage.groups.running_sessions()
        assert not storage.healthy
        assert storage.lost is not None and said in storage.lost
        assert losses == ["lost"]
        (critical,) = _criticals(caplog)
        assert said in critical.getMessage()
        assert str(db_path) in critical.getMessage()
        assert critical.exc_info is None
    finally:
        await storage.close()
    # what a restart finds at the path: the replacement, or a new file, and none of our pages
    reopened = await Storage.open(db_path)
    try:
        assert await reopened.learners.quiz_records(USER) == {}
        assert await reopened.learners.count_answers() == 0
    finally:
        await reopened.close()


async def test_the_watch_notices_a_lost_file_without_any_write(tmp_path: Path) -> None:
    db_path = tmp_path / "data" / "quiz.sqlite3"
    noticed = asyncio.Event()
    storage = await Storage.open(db_path, on_lost=noticed.set, watch_seconds=0.05)
    try:
        await asyncio.sleep(0.2)  # several checks pass while the file is there
        assert storage.healthy
        _delete_folder(db_path)
        await asyncio.wait_for(noticed.wait(), 5)
        assert not storage.healthy
    finally:
        await storage.close()
    assert storage.database._watcher is not None and storage.database._watcher.done()
    assert storage.database._watcher.cancelled() or storage.database._watcher.exception() is None


async def test_checking_the_file_does_not_disturb_a_healthy_database(tmp_path: Path) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    storage = await Storage.open(db_path, on_lost=pytest.fail, watch_seconds=0.01)
    try:
        await storage.learners.touch_user(USER, "Ada", "en", T0)
        attempt = await storage.learners.start_attempt(
            USER, "arith", tuple(f"q{n}" for n in range(300)), T0
        )
        # enough writes for SQLite to checkpoint and restart its write-ahead log
        for n in range(300):
            await storage.learners.record_answer(attempt, f"q{n}", 0, True, T0 + n)
        assert storage.healthy
    finally:
        await storage.close()


# --- the real application, in process -----------------------------------------------------------


@pytest.mark.parametrize("how", sorted(LOSSES))
async def test_a_learner_mid_quiz_is_told_to_come_back_and_nothing_is_acknowledged(
    api: FakeBotApi,
    settings: Settings,
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
    how: str,
) -> None:
    lose, said = LOSSES[how]
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    learner = Learner(api, FakeUser(5101, "Kemi", "en"))
    async with running_bot(settings) as application:
        question = await learner.answer_right(quiz, 1)
        lose(db_path)
        sent = len(learner.messages())
        toast = await learner.tap(question, button_for(question, right(quiz.questions[1])))
        assert toast == {"text": UNAVAILABLE, "show_alert": True}
        await api.wait_until_polled()
        assert len(learner.messages()) == sent
        assert api.messages[(learner.chat_id, question.message_id)].edits == 0
        reply = await learner.send("/progress", "")
        assert reply.text == UNAVAILABLE
        services = application.bot_data[SERVICES_KEY]
        assert not services.storage.healthy
        # what GET /healthz reports (bot/serving/health.py answers 503 while this names a reason)
        assert services.health() is not None and said in services.health()
        (critical,) = _criticals(caplog)
        assert said in critical.getMessage()
    assert "Traceback" not in caplog.text


# --- `python -m bot`, as a supervisor runs it ----------------------------------------------------


async def _lost_process_case(api: FakeBotApi, tmp_path: Path, how: str) -> tuple[str, Learner]:
    lose, said = LOSSES[how]
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    db_path = tmp_path / "data" / "quiz.sqlite3"
    env = api.bot_environment(db_path)
    learner = Learner(api, FakeUser(5201, "Lola", "en"))
    async with bot_process(env, tmp_path) as running:
        question = await learner.answer_right(quiz, 2)
        lose(db_path)
        query = api.tap(learner.user, question, button_for(question, right(quiz.questions[2])))
        # the bot stops by itself: on this tap's write, or on its timer, whichever comes first
        code, log = await running.finish(timeout=DATABASE_WATCH_SECONDS + 20)
    assert code == 3, log
    assert api.callback_answers.get(query) in (None, {"text": UNAVAILABLE, "show_alert": True})
    assert not [m for m in learner.messages() if "Question 4 of 8" in m.text]
    criticals = [line for line in log.splitlines() if " CRITICAL " in line]
    assert len(criticals) == 1, log
    assert said in criticals[0] and str(db_path) in criticals[0]
    assert "Traceback" not in log
    return log, learner


async def test_python_m_bot_exits_3_when_its_database_folder_is_deleted_and_restarts_announced(
    api: FakeBotApi, tmp_path: Path
) -> None:
    _, learner = await _lost_process_case(api, tmp_path, "deleted")
    db_path = tmp_path / "data" / "quiz.sqlite3"
    async with bot_process(api.bot_environment(db_path), tmp_path) as running:
        question: Message = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        assert question.button_data()
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log
    assert f"created a new, empty database at {db_path}" in log


async def test_python_m_bot_exits_3_when_its_database_is_replaced_and_restarts_on_the_new_file(
    api: FakeBotApi, tmp_path: Path
) -> None:
    await _lost_process_case(api, tmp_path, "replaced")
    db_path = tmp_path / "data" / "quiz.sqlite3"
    async with bot_process(api.bot_environment(db_path), tmp_path) as running:
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log
    assert "created a new, empty database" not in log
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)
