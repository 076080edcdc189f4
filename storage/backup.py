"""An online backup of the database: a consistent copy taken while the bot runs, verified;
and its restore, with the bot stopped.

SQLite's backup API copies the database in one step, inside one read transaction, on a
read-only connection: in WAL mode a reader never blocks the bot's writes (nor they it), and the
copy is the database as of one moment, every committed answer up to then and no half of a
transaction. It needs no lock file: the bot keeps running. The copy is written under another
name next to its destination, switched out of WAL mode (one self-contained file), checked with
`PRAGMA quick_check`, synced, and only then renamed to the destination.

A restore takes the database's lock (the bot must be stopped), checks the backup like the bot
checks its database at start, moves the current database aside *with* its write-ahead log
(a log left next to the restored file would be applied to it: pages of another database), and
puts a copy of the backup in its place the same careful way.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from storage.database_file import (
    DatabaseLock,
    check_existing,
    check_sound,
    fsync,
    lock_path,
    shm_path,
    wal_path,
)
from storage.errors import StorageError

# What the counts call each table, in the order they are printed; other tables follow by name.
TABLE_NAMES = {
    "users": "learners",
    "attempts": "attempts",
    "answers": "answers",
    "cards": "cards",
    "review_log": "reviews",
    "group_sessions": "group quizzes and posts",
    "group_questions": "group questions",
    "group_answers": "group and post answers",
    "content_banks": "banks",
    "retired_questions": "retired questions",
    "push_schedules": "schedules",
    "audit_log": "audit entries",
}


class BackupError(StorageError):
    """The backup was not made; the message says why, in one line."""


@dataclass(frozen=True)
class DatabaseSummary:
    path: Path
    size: int  # bytes
    check: str  # "ok", or what quick_check found
    counts: dict[str, int]  # table -> rows

    def describe(self) -> str:
        counts = ", ".join(f"{TABLE_NAMES.get(t, t)} {n}" for t, n in self.counts.items())
        return f"{self.path}: {self.size:,} bytes, quick_check {self.check}\n{counts}"


def backup(source: Path, destination: Path, *, force: bool = False) -> DatabaseSummary:
    """Copy the database at `source` to `destination` (refused if it exists, unless `force`);
    returns the verified copy's summary. Raises BackupError, leaving no partial file."""
    try:
        source = source.resolve()  # SQLite keeps its log next to the file a link points to
    except (RuntimeError, OSError) as error:  # a link loop
        raise BackupError(f"{source} cannot be opened: {error}") from None
    destination = destination.absolute()
    if not source.exists():
        raise BackupError(f"no database at {source}: check QUIZ_DB_PATH or --db")
    try:
        check_existing(source)
    except StorageError as error:
        raise BackupError(str(error)) from None
    _refuse_destination(source, destination, force)
    partial = destination.with_name(f".{destination.name}.partial-{os.getpid()}")
    try:
        _copy(source, partial)
        summary = summarize(partial)
        if summary.check != "ok":
            raise BackupError(f"the copy failed PRAGMA quick_check ({summary.check}): not kept")
        fsync(partial)
        os.replace(partial, destination)
        fsync(destination.parent)
    finally:
        for leftover in (partial, wal_path(partial), shm_path(partial)):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return DatabaseSummary(destination, summary.size, summary.check, summary.counts)


def restore(
    backup_file: Path, database: Path, *, force: bool = False, now: float
) -> tuple[DatabaseSummary, Path | None]:
    """Replace the database at `database` by a copy of `backup_file`; the bot must be stopped.
    An existing database is refused unless `force`, and then kept beside it, with its log, as
    `<db>.replaced-<UTC time>`: returned with the restored database's summary."""
    backup_file = backup_file.absolute()
    database = database.resolve()
    if not backup_file.is_file():
        raise BackupError(f"no backup at {backup_file}")
    try:
        check_existing(backup_file)
        check_sound(backup_file)
    except StorageError as error:
        raise BackupError(f"the backup {error}") from None
    database.parent.mkdir(parents=True, exist_ok=True)
    lock = DatabaseLock.acquire(database)
    try:
        present = [p for p in (database, wal_path(database), shm_path(database)) if p.exists()]
        if present and not force:
            raise BackupError(f"{database} exists: add --force to replace it (it is kept aside)")
        aside = None
        if present:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
            aside = database.with_name(f"{database.name}.replaced-{stamp}")
            for path in present:
                path.rename(aside.with_name(aside.name + path.name[len(database.name) :]))
        partial = database.with_name(f".{database.name}.partial-{os.getpid()}")
        try:
            shutil.copyfile(backup_file, partial)
            fsync(partial)
            os.replace(partial, database)
            fsync(database.parent)
        finally:
            partial.unlink(missing_ok=True)
    finally:
        lock.release()
    return summarize(database), aside


def _refuse_destination(source: Path, destination: Path, force: bool) -> None:
    if destination.is_dir():
        raise BackupError(
            f"{destination} is a folder: name the backup file, e.g. {destination}/quiz.sqlite3"
        )
    if not destination.parent.is_dir():
        raise BackupError(f"the folder {destination.parent} does not exist")
    resolved = destination.resolve()
    own = {p.resolve() for p in (source, wal_path(source), shm_path(source), lock_path(source))}
    if resolved in own:
        raise BackupError(f"{destination} is the database itself or one of its files")
    if destination.exists() and not force:
        raise BackupError(f"{destination} exists: add --force to overwrite it")


def _copy(source: Path, partial: Path) -> None:
    try:
        with (
            contextlib.closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as src,
            contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as dst,
        ):
            src.execute("PRAGMA busy_timeout=10000")
            src.backup(dst)  # all pages in one step: one snapshot, never restarted by a write
            dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as error:
        raise BackupError(f"could not copy {source}: {error}") from error


def summarize(path: Path) -> DatabaseSummary:
    """Size, `quick_check` and row counts of a database file, read only."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
            tables = [
                str(row[0])
                for row in db.execute(
                    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
                )
            ]
            order = {name: place for place, name in enumerate(TABLE_NAMES)}
            tables.sort(key=lambda name: (order.get(name, len(order)), name))
            counts = {
                table: int(db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])
                for table in tables
            }
    except sqlite3.Error as error:
        raise BackupError(f"could not read {path}: {error}") from error
    check = "ok" if problems == ["ok"] else " ".join(" ".join(problems).split())[:120]
    return DatabaseSummary(path, path.stat().st_size, check, counts)
