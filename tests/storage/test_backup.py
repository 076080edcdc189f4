"""`python -m storage backup` (issue 11, item 6): a verified, consistent copy taken while the
bot runs; refusals in one line; and a backup taken while the real bot serves answers, restored,
holds every answer acknowledged before it began."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import load_bank_file
from storage import Storage
from tests.support.learner import Learner, right
from tests.support.process import bot_process

QUIZ_ID = "model-pipeline-parallelism"
T0 = 1_700_000_000.0


async def _storage(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", *args, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _query(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute(sql, params).fetchall()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    """A database the bot holds open, with two learners' answers."""
    path = tmp_path / "data" / "quiz.sqlite3"
    storage = await Storage.open(path)
    for user_id in (1, 2):
        await storage.learners.touch_user(user_id, "Ada", "en", T0)
        attempt = await storage.learners.start_attempt(user_id, "arith", ("q1", "q2", "q3"), T0)
        for n in (1, 2, 3):
            await storage.learners.record_answer(attempt, f"q{n}", 0, True, T0 + n)
    await storage.close()
    return path


async def test_a_backup_is_a_verified_single_file_copy_with_its_counts(
    database: Path, tmp_path: Path
) -> None:
    storage = await Storage.open(database)  # the bot is running: its lock is held
    try:
        dest = tmp_path / "backups" / "quiz-2026-12-03.sqlite3"
        dest.parent.mkdir()
        code, out, err = await _storage("backup", str(dest), "--db", str(database), cwd=tmp_path)
        assert (code, err) == (0, ""), err
        await storage.learners.touch_user(3, "Bisi", "en", T0)  # the bot went on writing meanwhile
    finally:
        await storage.close()
    assert f"written to {dest}: {dest.stat().st_size:,} bytes, quick_check ok" in out
    assert "learners 2, attempts 2, answers 6," in out
    assert _query(dest, "PRAGMA quick_check") == [("ok",)]
    assert _query(dest, "PRAGMA journal_mode") == [("delete",)]  # one self-contained file
    assert _query(dest, "SELECT COUNT(*) FROM answers") == [(6,)]
    assert sorted(os.listdir(dest.parent)) == [dest.name]  # no partial file, no -wal
    # a backup opens as a database of the bot
    restored = await Storage.open(dest)
    try:
        assert await restored.learners.count_answers() == 6
    finally:
        await restored.close()


async def test_the_database_path_comes_from_the_environment_like_the_bot(
    database: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIZ_")}
    env["QUIZ_DB_PATH"] = str(database)
    code, _out, err = await _storage("backup", "copy.sqlite3", cwd=tmp_path, env=env)
    assert (code, err) == (0, ""), err
    assert _query(tmp_path / "copy.sqlite3", "SELECT COUNT(*) FROM answers") == [(6,)]


async def test_an_existing_destination_is_kept_unless_forced(
    database: Path, tmp_path: Path
) -> None:
    dest = tmp_path / "quiz.bak"
    dest.write_text("yesterday's backup")
    code, out, err = await _storage("backup", str(dest), "--db", str(database), cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err.strip() == f"python -m storage backup: {dest} exists: add --force to overwrite it"
    assert dest.read_text() == "yesterday's backup"

    code, out, err = await _storage(
        "backup", str(dest), "--force", "--db", str(database), cwd=tmp_path
    )
    assert (code, err) == (0, ""), err
    assert _query(dest, "SELECT COUNT(*) FROM answers") == [(6,)]


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("no-database", "no database at"),
        ("empty-database", "is empty (0 bytes)"),
        ("no-folder", "does not exist"),
        ("onto-itself", "is the database itself"),
        ("onto-its-log", "is the database itself or one of its files"),
        ("a-folder", "is a folder"),
    ],
)
async def test_refusals_are_one_line_exit_2_and_change_nothing(
    database: Path, tmp_path: Path, case: str, says: str
) -> None:
    source, dest = database, tmp_path / "out.sqlite3"
    if case == "no-database":
        source = tmp_path / "elsewhere" / "quiz.sqlite3"
    elif case == "empty-database":
        source = tmp_path / "empty.sqlite3"
        source.write_bytes(b"")
    elif case == "no-folder":
        dest = tmp_path / "missing" / "out.sqlite3"
    elif case == "onto-itself":
        dest = database
    elif case == "onto-its-log":
        dest = database.with_name(database.name + "-wal")
    elif case == "a-folder":
        dest = tmp_path
    before = _digest(database)
    listing = sorted(os.listdir(tmp_path))
    args = ["backup", str(dest), "--db", str(source)]
    if case in ("onto-itself", "onto-its-log"):
        args.append("--force")
    code, out, err = await _storage(*args, cwd=tmp_path)
    assert (code, out) == (2, ""), err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("python -m storage backup: ") and says in err
    assert _digest(database) == before
    assert sorted(os.listdir(tmp_path)) == listing
    assert not source.exists() or case != "no-database"


async def test_a_database_reached_through_a_link_keeps_its_own_files(
    database: Path, tmp_path: Path
) -> None:
    """SQLite keeps the log next to the file a link points to: a DEST naming that log must
    be refused like the database's own files, not overwritten (with --force) under the bot."""
    link = tmp_path / "link.sqlite3"
    link.symlink_to(database)
    folder = sorted(os.listdir(database.parent))
    for dest in (database, database.with_name(database.name + "-wal")):
        code, out, err = await _storage(
            "backup", str(dest), "--force", "--db", str(link), cwd=tmp_path
        )
        assert (code, out) == (2, ""), err
        assert "is the database itself or one of its files" in err
    assert sorted(os.listdir(database.parent)) == folder


async def test_a_usage_error_is_one_line_exit_2(tmp_path: Path) -> None:
    code, out, err = await _storage("backup", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1, err


# --- a backup taken while the real bot serves answers, restored ---------------------------------


async def test_a_backup_taken_while_the_bot_serves_holds_every_acknowledged_answer(
    api: FakeBotApi, tmp_path: Path
) -> None:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    db_path = tmp_path / "data" / "quiz.sqlite3"
    env = api.bot_environment(db_path)
    learners = [Learner(api, FakeUser(6001 + n, f"L{n}", "en")) for n in range(4)]
    acknowledged: set[tuple[int, str]] = set()
    backup_started, backup_done = asyncio.Event(), asyncio.Event()
    at_backup: set[tuple[int, str]] = set()

    async def answer_all(learner: Learner) -> None:
        question: Message = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        for position, item in enumerate(quiz.questions):
            expect = f"Question {position + 2} of 8" if position < 7 else "Score: 8/8"
            toast, question = await learner.choose(question, right(item), expect)
            assert toast["text"] == "✅ Correct!"
            acknowledged.add((learner.user.id, item.id))
            if position == 2:
                await backup_started.wait()  # everyone answers on while the backup runs
            if position == 5:
                await backup_done.wait()  # and the last two after it: not in the backup

    async def take_backup() -> tuple[int, str, str]:
        await api.wait_for(lambda: len(acknowledged) >= 3 * len(learners), timeout=60)
        at_backup.update(acknowledged)  # acknowledged before the backup began
        backup_started.set()
        try:
            return await _storage("backup", "backup.sqlite3", "--db", str(db_path), cwd=tmp_path)
        finally:
            backup_done.set()

    async with bot_process(env, tmp_path) as running:
        results = await asyncio.gather(
            take_backup(), *(answer_all(learner) for learner in learners)
        )
        code, _out, err = results[0]
        assert (code, err) == (0, ""), err
        # a restore needs the bot stopped
        code, out, err = await _storage("restore", "backup.sqlite3", "--force", "--db",
                                        str(db_path), cwd=tmp_path)  # fmt: skip
        assert (code, out) == (2, "") and f"pid {running.process.pid}" in err
        # stopped the hard way: its write-ahead log, with the answers after the backup, stays
        running.process.kill()
        await running.process.wait()
    assert len(at_backup) >= 12 and len(acknowledged) == 32
    assert Path(f"{db_path}-wal").stat().st_size > 0  # noqa: ASYNC240

    code, out, err = await _storage("restore", "backup.sqlite3", "--db", str(db_path),
                                    cwd=tmp_path)  # fmt: skip
    assert (code, out) == (2, "") and "add --force" in err
    code, out, err = await _storage("restore", "backup.sqlite3", "--force", "--db",
                                    str(db_path), cwd=tmp_path)  # fmt: skip
    assert (code, err) == (0, ""), err
    assert f"to {db_path}: " in out and "quick_check ok" in out
    assert "the database it replaced is kept as" in out

    in_backup = set(_query(tmp_path / "backup.sqlite3", "SELECT user_id, question_id FROM answers"))
    assert at_backup <= in_backup
    assert len(in_backup) <= 6 * len(learners)
    # a consistent moment: each learner's answers are a prefix of the quiz, no gap
    order = [item.id for item in quiz.questions]
    for learner in learners:
        mine = {q for user, q in in_backup if user == learner.user.id}
        assert mine == set(order[: len(mine)])
    # the restored database is the backup, not the backup with the old log replayed over it
    first = learners[0]
    answered = len({q for user, q in in_backup if user == first.user.id})
    async with bot_process(env, tmp_path) as running:
        resumed_at = answered + 1 if answered < 8 else 1  # a finished quiz starts anew
        await first.send(f"/quiz {QUIZ_ID}", f"Question {resumed_at} of 8")
        running.process.send_signal(signal.SIGTERM)
        exit_code, log = await running.finish()
    assert exit_code == 0, log
    assert "created a new, empty database" not in log
    restored = set(_query(db_path, "SELECT user_id, question_id FROM answers"))
    assert restored == in_backup
    # the replaced database, with its log, is kept: every acknowledged answer is in it
    kept = [p for p in os.listdir(db_path.parent) if p.startswith(f"{db_path.name}.replaced-")]
    (aside,) = [p for p in kept if not p.endswith(("-wal", "-shm"))]
    assert sorted(kept) == [aside, f"{aside}-shm", f"{aside}-wal"]
    assert acknowledged <= set(
        _query(db_path.parent / aside, "SELECT user_id, question_id FROM answers")
    )


async def test_restore_refuses_a_bad_backup_and_changes_nothing(
    database: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database")
    before = _digest(database)
    code, out, err = await _storage("restore", str(bad), "--force", "--db", str(database),
                                    cwd=tmp_path)  # fmt: skip
    assert (code, out) == (2, "")
    assert err.startswith("python -m storage restore: the backup ") and "not an SQLite" in err
    assert _digest(database) == before
