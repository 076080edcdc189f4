"""The database file itself: checked before it is opened, locked while a process uses it, and
watched for being deleted or replaced under the running process.

- A file that exists is opened only if it is a sound SQLite database (not empty, the SQLite
  header, `PRAGMA quick_check` passes, and it is a Quiz Tutor database); otherwise it is left
  exactly as it was and the open fails with one line saying why.
- A new database is made only where no file exists (nor a write-ahead log left without it),
  atomically (written next to its place and renamed into it, so a start killed half-way leaves
  no empty file), and always announced by one WARNING line with its absolute path.
- `<db>.lock` next to the database is held with `flock` for as long as the process uses the
  database, and names that process; the operating system releases it when the process dies.
  A lock file deleted or replaced meanwhile is locked again by its holder.
- A process that closes the database cleanly (its write-ahead log checkpointed and gone) leaves
  in the lock file the file's identity, size and times as it left them. The next start skips
  `quick_check` (which reads the whole file: 10 s at 3 GB) when the file is still exactly that;
  after a crash, a restore, a copy, or any change by another program, it checks in full.
- The identity (device, inode) of the database file and of its write-ahead log is recorded
  once open; a file deleted or replaced under the process has another identity, or none.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from storage.errors import StorageError

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"


class DatabaseRefused(StorageError):
    """The database file exists but is not one to open: empty, not SQLite, damaged, or another
    program's. It was left untouched."""


class DatabaseInUse(StorageError):
    """Another process holds the database's lock file."""


class DatabaseLost(StorageError):
    """The database file was deleted or replaced while this process had it open: nothing
    written since can be trusted to last."""

    @property
    def refused(self) -> bool:
        return True


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def shm_path(path: Path) -> Path:
    return path.with_name(path.name + "-shm")


class DatabaseLock:
    """An exclusive `flock` on `<db>.lock`, holding the owner's process id.

    The lock is on the file, not on its name: a lock file deleted or replaced while the bot
    runs (an operator cleaning up) would let a second bot take the database. `keep` takes it
    again at its path; the repository calls it after every commit and every few seconds."""

    def __init__(self, path: Path, fd: int, found: str = "") -> None:
        self.path = path
        self._fd: int | None = fd
        self._found = found  # what the lock file said when taken: its last holder's farewell

    @classmethod
    def acquire(cls, database: Path) -> DatabaseLock:
        path = lock_path(database)
        try:
            fd, found = _lock_at(path)
        except _Held as held:
            raise DatabaseInUse(
                f"{database} is in use by another Quiz Tutor process ({held}, lock file {path}); "
                "stop it first, or point QUIZ_DB_PATH at another file"
            ) from None
        return cls(path, fd, found)

    def closed_as_it_is(self, database: Path) -> bool:
        """Whether the last holder closed `database` cleanly and it is unchanged since."""
        mark = _closing_mark(database)
        return mark is not None and self._found.strip() == mark

    def keep(self) -> str | None:
        """None while this process holds the lock file now at its path. A lock file deleted
        or replaced is locked again (one WARNING line); what went wrong if that cannot be done,
        because another process took it meanwhile."""
        if self._fd is None or _names(self.path, self._fd):
            return None
        how = "replaced" if self.path.exists() else "deleted"
        try:
            fd, _ = _lock_at(self.path)
        except _Held as held:
            return f"its lock file {self.path} was {how} and another process ({held}) took it"
        except OSError as error:
            return f"its lock file {self.path} was {how} and cannot be made again: {error}"
        previous, self._fd = self._fd, fd
        os.close(previous)
        log.warning("the lock file %s was %s while in use; taken again", self.path, how)
        return None

    def release(self, closed: Path | None = None) -> None:
        """Unlock; the file stays (removing it would race with a process opening it).
        `closed`: the database this process has just closed cleanly, whose state the file then
        keeps for the next start."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            mark = _closing_mark(closed) if closed is not None else None
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                if mark is not None:
                    os.pwrite(fd, f"{mark}\n".encode(), 0)
            os.close(fd)


def _closing_mark(database: Path) -> str | None:
    """The database file as a clean close leaves it (its identity, size and times); None if
    it is not there, or its write-ahead log still holds pages (no clean close left it)."""
    try:
        stat = os.stat(database)
        wal = wal_path(database)
        if wal.exists() and wal.stat().st_size:
            return None
    except OSError:
        return None
    return (
        f"closed {stat.st_dev} {stat.st_ino} {stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}"
    )


class _Held(Exception):
    """The lock file is locked by another process; the message names it."""


def _lock_at(path: Path) -> tuple[int, str]:
    """A descriptor holding an exclusive `flock` on the file at `path` (made if missing), with
    this process's id written in it, and what the file said before; `_Held` if another process
    holds it."""
    for _ in range(5):  # the file replaced between open and flock: lock the new one
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            raise _Held(f"pid {holder}" if holder else "pid unknown") from None
        except BaseException:
            os.close(fd)
            raise
        if _names(path, fd):
            found = os.pread(fd, 256, 0).decode("ascii", "replace")
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd, found
        os.close(fd)
    raise _Held(f"its lock file {path} keeps changing")


def _names(path: Path, fd: int) -> bool:
    """Whether `path` is the file open as `fd`."""
    try:
        at_path = os.stat(path)
    except OSError:
        return False
    opened = os.fstat(fd)
    return (at_path.st_dev, at_path.st_ino) == (opened.st_dev, opened.st_ino)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


@dataclass(frozen=True)
class ClaimedDatabase:
    """A database file this process has locked and found fit to open."""

    path: Path  # absolute
    lock: DatabaseLock


def claim_database(path: Path) -> ClaimedDatabase:
    """Lock the database at `path` for this process and make sure it can be opened: an
    existing file must be a sound Quiz Tutor database (checked reading only: a refused file is
    left untouched), a missing one is created, empty. Blocking; call it before the event loop
    or in a thread."""
    try:
        path = path.resolve()
    except (RuntimeError, OSError) as error:  # a symlink loop (RuntimeError before 3.13)
        raise StorageError(f"{path} cannot be opened: {error}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = DatabaseLock.acquire(path)
    try:
        if path.exists() or path.is_symlink():
            check_existing(path)
            if not lock.closed_as_it_is(path):
                check_sound(path)
        else:
            refuse_orphan_log(path)
            create_empty(path)
    except BaseException:
        lock.release()
        raise
    return ClaimedDatabase(path, lock)


def check_sound(path: Path) -> None:
    """`PRAGMA quick_check` and the schema version, on a read-only connection: no recovery,
    no checkpoint, nothing written to the file."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            check = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0])
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", "") == "SQLITE_CANTOPEN":
            raise StorageError(f"{path} cannot be opened: {error}") from error
        reason = " ".join(str(error).split())[:120]
        raise DatabaseRefused(
            f"{path} failed PRAGMA quick_check: {reason}; left untouched: restore it from a backup"
        ) from error
    refuse_unsound(path, check, version, tables)


def check_existing(path: Path) -> None:
    """Refuse, reading only, a file that is certainly not a database this program can open."""
    if not path.is_file():
        raise DatabaseRefused(f"{path} is not a regular file; left untouched")
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if not header:
        raise DatabaseRefused(
            f"{path} is empty (0 bytes); left untouched: restore it from a backup, or move it "
            "away to start with a new, empty database"
        )
    if header != SQLITE_HEADER:
        raise DatabaseRefused(
            f"{path} is not an SQLite database; left untouched: check QUIZ_DB_PATH"
        )


def refuse_unsound(path: Path, quick_check: list[str], version: int, tables: int) -> None:
    """Refuse a database that fails `PRAGMA quick_check`, or that holds tables of another
    program (schema version 0 and tables: Quiz Tutor's first migration sets the version)."""
    if quick_check != ["ok"]:
        problems = [
            line.strip()
            for row in quick_check
            for line in row.splitlines()
            if line.strip() and not line.startswith("***")
        ] or ["no answer"]
        first = problems[0][:120]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise DatabaseRefused(
            f"{path} failed PRAGMA quick_check: {first}{more}; left untouched: restore it from a "
            "backup"
        )
    if version == 0 and tables:
        raise DatabaseRefused(
            f"{path} is not a Quiz Tutor database (it has tables of another program); left "
            "untouched: check QUIZ_DB_PATH"
        )


def refuse_orphan_log(path: Path) -> None:
    """Refuse to make a database where its write-ahead log is left without it: SQLite would
    apply that log, pages of a database now gone, to the new file."""
    wal = wal_path(path)
    size = wal.stat().st_size if wal.is_file() else 0
    if size:
        raise DatabaseRefused(
            f"{path} does not exist but its write-ahead log {wal} does ({size} bytes): it may "
            "hold the last answers of a database deleted or moved since; left untouched: put "
            "the database back next to it, or move the log away to start with a new, empty "
            "database"
        )


def create_empty(path: Path) -> None:
    """Make a new, empty database at `path`, where no file is: written under another name,
    synced, then renamed into place, so `path` is never an empty or half-written file."""
    partial = path.with_name(path.name + ".new")
    for leftover in (partial, wal_path(partial), shm_path(partial)):
        leftover.unlink(missing_ok=True)  # a start killed while creating
    with contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")  # writes the first page: a real database
    fsync(partial)
    try:
        os.link(partial, path)  # fails if a file appeared at `path` meanwhile: never overwrites
    except FileExistsError:
        raise DatabaseRefused(f"{path} appeared while a new database was being made") from None
    except OSError:  # a file system without hard links; the lock keeps other bots away
        if path.exists():
            raise DatabaseRefused(f"{path} appeared while a new database was being made") from None
        os.rename(partial, path)
    partial.unlink(missing_ok=True)
    fsync(path.parent)
    log.warning("created a new, empty database at %s", path)


def fsync(path: Path) -> None:
    """Flush a file, or a folder's entries (a rename into it), to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class FileIdentity:
    device: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileIdentity | None:
        try:
            stat = os.stat(path)
        except OSError:  # gone, or its folder is: not the file that was opened
            return None
        return cls(stat.st_dev, stat.st_ino)


class FileWatch:
    """The database file and its write-ahead log as this process opened them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._files = [(p, FileIdentity.of(p)) for p in (path, wal_path(path))]
        self._shm = (shm_path(path), FileIdentity.of(shm_path(path)))

    def problem(self) -> str | None:
        """None while both files are the ones opened; else what happened to them."""
        for path, identity in self._files:
            now = FileIdentity.of(path)
            if identity is not None and now != identity:
                return f"{path} was deleted" if now is None else f"{path} was replaced"
        return None

    def drop_own_logs(self) -> None:
        """Remove this process's write-ahead log and its index from next to a file that is
        no longer ours. SQLite does not checkpoint a moved database on close, and leaves the log
        behind: the next process would apply our pages to whatever file now has the name."""
        for path, identity in (self._files[1], self._shm):
            if identity is not None and FileIdentity.of(path) == identity:
                with contextlib.suppress(OSError):
                    path.unlink()
