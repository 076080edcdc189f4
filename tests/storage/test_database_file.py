"""The database file at start (issue 11, items 4 and 5): a file that is not a sound SQLite
database stops the bot and stays untouched; a new database is made only where there is no
file, and always says so; one process at a time holds a database, through a lock file."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import shutil
import signal
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.sandbox import FakeBotApi, FakeUser
from storage import ClaimedDatabase, Storage, StorageError, claim_database, database_file
from tests.support.learner import Learner
from tests.support.process import BotProcess, bot_process, run_to_exit

NEW_DATABASE = "created a new, empty database at"


def _fingerprint(path: Path) -> tuple[str, int, int]:
    """What 'untouched' means: the same bytes, the same modification time, the same inode."""
    stat = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), stat.st_mtime_ns, stat.st_ino


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _not_sqlite(path: Path) -> None:
    path.write_text("answers.csv: 1,2,3\n" * 200)


def _corrupt(path: Path) -> None:
    """A real SQLite file whose table pages were overwritten: the header is sound, the rest not."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("CREATE INDEX t_text ON t(text)")
        db.executemany("INSERT INTO t (text) VALUES (?)", [(f"row {i}" * 20,) for i in range(400)])
    db.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    for offset in range(3 * page, 5 * page, 7):
        data[offset] = 0xA5
    path.write_bytes(bytes(data))


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty": (_empty, "is empty (0 bytes)"),
    "not-sqlite": (_not_sqlite, "is not an SQLite database"),
    "corrupt": (_corrupt, "failed PRAGMA quick_check"),
}


# --- item 4: bad files stop the bot, untouched --------------------------------------------------


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
async def test_a_bad_database_file_stops_the_bot_with_one_line_and_is_left_untouched(
    api: FakeBotApi, tmp_path: Path, kind: str
) -> None:
    make, reason = BAD_FILES[kind]
    db_path = tmp_path / "quiz.sqlite3"
    make(db_path)
    before = _fingerprint(db_path)
    code, log = await run_to_exit(api.bot_environment(db_path), tmp_path)
    assert code == 2, log
    assert "Traceback" not in log
    refusals = [line for line in log.splitlines() if "cannot use the database" in line]
    assert len(refusals) == 1, log
    assert refusals[0].startswith("quiz-tutor: cannot use the database")
    assert reason in refusals[0]
    assert str(db_path) in refusals[0]
    assert _fingerprint(db_path) == before
    assert [name for name in os.listdir(tmp_path) if name.startswith("quiz.sqlite3-")] == []
    assert NEW_DATABASE not in log
    assert api.calls == []  # refused before any contact with Telegram


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
async def test_the_repository_refuses_a_bad_file_and_leaves_it_untouched(
    tmp_path: Path, kind: str
) -> None:
    make, reason = BAD_FILES[kind]
    db_path = tmp_path / "quiz.sqlite3"
    make(db_path)
    before = _fingerprint(db_path)
    with pytest.raises(StorageError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        await Storage.open(db_path)
    assert _fingerprint(db_path) == before


async def test_a_database_of_some_other_program_is_refused(tmp_path: Path) -> None:
    db_path = tmp_path / "other.sqlite3"
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    db.close()
    before = _fingerprint(db_path)
    with pytest.raises(StorageError, match="not a Quiz Tutor database"):
        await Storage.open(db_path)
    assert _fingerprint(db_path) == before


async def test_a_new_database_is_created_only_where_no_file_is_and_always_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    db_path = tmp_path / "lost-volume" / "data" / "quiz.sqlite3"
    storage = await Storage.open(db_path)
    await storage.close()
    created = [r for r in caplog.records if NEW_DATABASE in r.getMessage()]
    assert len(created) == 1
    assert created[0].levelno == logging.WARNING
    assert created[0].getMessage() == f"{NEW_DATABASE} {db_path.resolve()}"

    caplog.clear()
    storage = await Storage.open(db_path)
    await storage.close()
    assert not [r for r in caplog.records if NEW_DATABASE in r.getMessage()]


async def test_a_relative_path_is_logged_absolute(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    monkeypatch.chdir(tmp_path)
    storage = await Storage.open(Path("data/quiz.sqlite3"))
    await storage.close()
    (record,) = [r for r in caplog.records if NEW_DATABASE in r.getMessage()]
    absolute = tmp_path.resolve() / "data" / "quiz.sqlite3"  # noqa: ASYNC240
    assert record.getMessage() == f"{NEW_DATABASE} {absolute}"


async def test_the_bot_says_when_it_creates_a_database_and_not_when_it_opens_one(
    api: FakeBotApi, tmp_path: Path
) -> None:
    db_path = tmp_path / "data" / "quiz.sqlite3"
    env = api.bot_environment(db_path)
    for expected in (1, 0):
        async with bot_process(env, tmp_path) as running:
            running.process.send_signal(signal.SIGTERM)
            code, log = await running.finish()
        assert code == 0, log
        lines = [line for line in log.splitlines() if NEW_DATABASE in line]
        assert len(lines) == expected, log
        if expected:
            assert " WARNING " in lines[0]
            assert lines[0].endswith(f"{NEW_DATABASE} {db_path}")


# --- item 5: one process per database -----------------------------------------------------------


@pytest.fixture
async def serving(
    api: FakeBotApi, db_path: Path, tmp_path: Path
) -> AsyncIterator[tuple[BotProcess, Learner]]:
    """A first `python -m bot` on `db_path`, and Tunde, whom it greeted."""
    learner = Learner(api, FakeUser(3101, "Tunde", "en"))
    async with bot_process(api.bot_environment(db_path), tmp_path) as first:
        await learner.send("/start", "Hello, \u2068Tunde")
        yield first, learner


async def test_a_second_bot_on_the_same_database_refuses_and_the_first_keeps_serving(
    api: FakeBotApi, db_path: Path, tmp_path: Path, serving: tuple[BotProcess, Learner]
) -> None:
    first, learner = serving
    env = api.bot_environment(db_path)
    before = _fingerprint(db_path)
    calls_to_get_me = len(api.calls_to("getMe"))
    code, log = await run_to_exit(env, tmp_path)
    assert code == 2, log
    assert "Traceback" not in log
    refusals = [line for line in log.splitlines() if "cannot use the database" in line]
    assert len(refusals) == 1, log
    assert f"pid {first.process.pid}" in refusals[0]
    assert "in use by another Quiz Tutor process" in refusals[0]
    assert NEW_DATABASE not in log
    assert _fingerprint(db_path) == before
    assert len(api.calls_to("getMe")) == calls_to_get_me  # the second never called
    # the first one was not disturbed
    await learner.send("/help", "/progress")
    assert first.process.returncode is None
    first.process.send_signal(signal.SIGTERM)
    code, log = await first.finish()
    assert code == 0, log


async def test_after_kill_9_the_lock_is_gone_and_a_new_bot_starts(
    api: FakeBotApi, db_path: Path, tmp_path: Path, serving: tuple[BotProcess, Learner]
) -> None:
    first, learner = serving
    await first.kill_9()
    assert Path(f"{db_path}.lock").is_file()  # noqa: ASYNC240 - left behind, and harmless
    async with bot_process(api.bot_environment(db_path), tmp_path) as second:
        await learner.send("/help", "/progress")
        second.process.send_signal(signal.SIGTERM)
        code, log = await second.finish()
    assert code == 0, log


async def test_a_locked_database_is_refused_in_process_too_and_the_lock_released_on_close(
    tmp_path: Path,
) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    first = await Storage.open(db_path)
    try:
        with pytest.raises(StorageError, match=f"pid {os.getpid()}"):
            await Storage.open(db_path)
        lock_file = Path(f"{db_path}.lock")
        assert lock_file.read_text().strip() == str(os.getpid())  # noqa: ASYNC240
    finally:
        await first.close()
    second = await Storage.open(db_path)
    await second.close()


def _replace_lock(db_path: Path) -> None:
    """An operator's `rm quiz.sqlite3.lock` or a file moved over it, while the bot runs."""
    lock_file = Path(f"{db_path}.lock")
    stray = lock_file.with_name("stray.lock")
    stray.write_text("12345\n")
    os.replace(stray, lock_file)


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_lock_file_deleted_or_replaced_while_running_is_taken_again(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A second bot must not find the database free because the holder's lock file was
    removed: the holder takes its lock again at the path, after its next write or check."""
    db_path = tmp_path / "quiz.sqlite3"
    first = await Storage.open(db_path)
    try:
        if how == "deleted":
            Path(f"{db_path}.lock").unlink()  # noqa: ASYNC240
        else:
            _replace_lock(db_path)
        await first.learners.touch_user(1, "Ada", "en", 0.0)  # a write: its commit checks the files
        with pytest.raises(StorageError, match=f"pid {os.getpid()}"):
            await Storage.open(db_path)
        assert first.healthy
        await first.learners.touch_user(2, "Bo", "en", 0.0)
    finally:
        await first.close()
    lines = [r.getMessage() for r in caplog.records if ".lock" in r.getMessage()]
    assert len(lines) == 1 and f"was {how}" in lines[0] and "taken again" in lines[0], lines


async def test_a_lock_file_taken_by_another_bot_meanwhile_stops_the_first(tmp_path: Path) -> None:
    """If another process took the database in the moment the lock file was gone, two bots
    share it: the first notices at its next check and stops acknowledging, like a lost file."""
    db_path = tmp_path / "quiz.sqlite3"
    noticed = asyncio.Event()
    first = await Storage.open(db_path, on_lost=noticed.set, watch_seconds=0.05)
    try:
        Path(f"{db_path}.lock").unlink()  # noqa: ASYNC240
        second = await Storage.open(db_path)  # nothing can stop this one now
        try:
            await asyncio.wait_for(noticed.wait(), 5)
            assert not first.healthy and "another process" in (first.lost or "")
            with pytest.raises(StorageError, match="lost"):
                await first.learners.touch_user(1, "Ada", "en", 0.0)
            await second.learners.touch_user(2, "Bo", "en", 0.0)  # the other one serves on
        finally:
            await second.close()
    finally:
        await first.close()


async def test_a_write_ahead_log_without_its_database_is_refused_untouched(
    tmp_path: Path,
) -> None:
    """After a crash, the last answers can be in `<db>-wal` alone. If the database file is then
    removed and the log left, a new database made there would have the old log applied to it:
    pages of another file, a malformed database. The bot refuses instead, touching nothing."""
    db_path = tmp_path / "quiz.sqlite3"
    wal = Path(f"{db_path}-wal")
    repo = await Storage.open(db_path)
    try:
        for user in range(200):
            await repo.learners.touch_user(user, "N" * 100, "en", 0.0)
        await repo.database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for user in range(200, 210):
            await repo.learners.touch_user(user, "M" * 100, "en", 0.0)
        left_behind = wal.read_bytes()  # noqa: ASYNC240 - as a kill -9 now would leave it
    finally:
        await repo.close()
    db_path.unlink()
    wal.write_bytes(left_behind)  # noqa: ASYNC240
    before = _fingerprint(wal)
    with pytest.raises(StorageError, match="write-ahead log") as refused:
        await Storage.open(db_path)
    assert str(wal) in str(refused.value) and "left untouched" in str(refused.value)
    assert not db_path.exists()
    assert _fingerprint(wal) == before


async def test_a_database_path_that_is_a_symlink_loop_is_one_line(tmp_path: Path) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    db_path.symlink_to(db_path)
    with pytest.raises(StorageError, match="cannot be opened"):
        await Storage.open(db_path)


async def test_a_folder_at_the_database_path_is_refused_untouched(tmp_path: Path) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    db_path.mkdir()
    (db_path / "keep.txt").write_text("mine")
    with pytest.raises(StorageError, match="is not a regular file; left untouched"):
        await Storage.open(db_path)
    assert os.listdir(db_path) == ["keep.txt"]


def test_bots_started_at_the_same_instant_leave_one_holder_and_one_new_database(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_path = tmp_path / "data" / "quiz.sqlite3"
    start = threading.Barrier(8)

    def claim() -> ClaimedDatabase | str:
        start.wait(timeout=30)
        try:
            return claim_database(db_path)
        except StorageError as error:
            return str(error)

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(lambda _: claim(), range(8)))
    held = [o for o in outcomes if isinstance(o, ClaimedDatabase)]
    refused = [o for o in outcomes if isinstance(o, str)]
    try:
        assert len(held) == 1 and len(refused) == 7
        assert all("is in use by another Quiz Tutor process" in r for r in refused), refused
        created = [r for r in caplog.records if NEW_DATABASE in r.getMessage()]
        assert len(created) == 1
    finally:
        for claimed in held:
            claimed.lock.release()
    claim_database(db_path).lock.release()  # a sound database, and free again


# --- the check at start: skipped only for a file exactly as a clean close left it ------------


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files `quick_check`ed at start, from now on."""
    checked: list[Path] = []
    check = database_file.check_sound

    def counted(path: Path) -> None:
        checked.append(path)
        check(path)

    monkeypatch.setattr(database_file, "check_sound", counted)
    return checked


async def _closed_cleanly(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.learners.touch_user(7, "Ada", "en", 0.0)
    await storage.close()


async def test_a_database_closed_cleanly_and_unchanged_is_not_checked_again(
    tmp_path: Path, checks: list[Path]
) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    await _closed_cleanly(db_path)
    assert checks == []
    for _ in range(2):  # every clean close leaves the file as the next start finds it
        storage = await Storage.open(db_path)
        assert await storage.learners.get_user(7) is not None
        await storage.close()
    assert checks == []


@pytest.mark.parametrize("how", ["touched", "crashed", "damaged", "replaced"])
async def test_a_database_changed_or_left_by_a_crash_is_checked_at_start(
    tmp_path: Path, checks: list[Path], how: str
) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    await _closed_cleanly(db_path)
    if how == "touched":  # another program wrote to it, or set its time back
        stat = db_path.stat()
        os.utime(db_path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    elif how == "crashed":  # a bot killed (kill -9) leaves its pid in the lock file
        Path(f"{db_path}.lock").write_text("12345\n")  # noqa: ASYNC240
    elif how == "damaged":  # pages overwritten, the same size, its time put back
        stat = db_path.stat()
        data = bytearray(db_path.read_bytes())
        for offset in range(2 * 4096, len(data), 5):
            data[offset] = 0xA5
        db_path.write_bytes(bytes(data))
        os.utime(db_path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    else:  # a copy put in its place (a restore by hand)
        copy = tmp_path / "copy.sqlite3"
        shutil.copyfile(db_path, copy)
        os.replace(copy, db_path)
    if how == "damaged":
        with pytest.raises(StorageError, match="failed PRAGMA quick_check"):
            await Storage.open(db_path)
    else:
        storage = await Storage.open(db_path)
        await storage.close()
    assert checks == [db_path.resolve()]
