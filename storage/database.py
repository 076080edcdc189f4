"""The one `Database`: the aiosqlite connections of a process and everything that touches them
directly. Every store (storage/learner_store.py, group_store.py, content_store.py, audit.py,
privacy.py...) receives it the same way and uses only what is public here.

- **The write connection** is opened once, its PRAGMAs set once (WAL, `synchronous=FULL`,
  `foreign_keys=ON`, `busy_timeout`), and the schema migrated before anyone uses it.
- **Writes** run in `transaction()`: a `BEGIN IMMEDIATE` under an asyncio lock, one writer at a
  time, and the block returns only after COMMIT, so a caller that acknowledges after the call
  never acknowledges a write that a crash could lose. Any error rolls the whole block back.
- **Reads** (`fetchone`, `fetchall`) are one statement each, outside any transaction: in WAL
  mode such a statement reads one snapshot, the last commit when it began. While no write is
  in progress a read runs on the write connection (its thread runs it before any transaction
  asked after it); while one is, on a read connection of its own (`READERS`, read-only, each
  on its own thread). So a read sees every write committed before it and nothing of a
  transaction still open (which may yet roll back), and it never waits for a writer. A
  database in memory has no second connection: its reads wait for the write lock instead.
- **Migrations** (storage/migrations.py) run in order, each in one transaction with the
  `PRAGMA user_version` it sets: a migration that fails leaves the previous version intact.
- **The file** is checked before it is opened and locked while it is open
  (storage/database_file.py). After every COMMIT, and every few seconds when asked, the
  database checks that the file it opened is still the one at its path, and that it still
  holds the lock file (taken again if an operator deleted it): once not (deleted, replaced,
  another process took the lock meanwhile), the database is *lost*: one CRITICAL line, `on_lost` is called, and
  every later call, that write included, raises `DatabaseLost`, so nothing written since is
  acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any, TypedDict, TypeVar, cast

import aiosqlite

from storage.database_file import (
    ClaimedDatabase,
    DatabaseLock,
    DatabaseLost,
    FileWatch,
    claim_database,
)
from storage.errors import StorageError
from storage.migrations import MIGRATIONS, Migration

log = logging.getLogger(__name__)

T = TypeVar("T")


def row_as(kind: type[T], row: Any, **converted: Any) -> T:
    """A dataclass from a row whose columns are named like its fields; `converted` holds the
    fields a column does not give as they are (a JSON list, say)."""
    names = (f.name for f in fields(kind))  # type: ignore[arg-type]
    return kind(**{name: converted[name] if name in converted else row[name] for name in names})


PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",  # an acknowledged answer survives a power cut, not only a crash
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
READER_PRAGMAS = ("PRAGMA busy_timeout=5000",)  # a reader waits only while the log is recovered
READERS = 2  # read connections, for the reads made while a write is in progress


class OpenOptions(TypedDict, total=False):
    """What `Database.open` takes besides the path (and the migrations, for tests)."""

    claimed: ClaimedDatabase | None
    on_lost: Callable[[], None] | None
    watch_seconds: float | None


class Transaction:
    """The statements available inside `Database.transaction()`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, *params: Any) -> aiosqlite.Cursor:
        return await self._connection.execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._connection.executemany(sql, rows)

    async def fetchone(self, sql: str, *params: Any) -> Any:
        return next(iter(await self._connection.execute_fetchall(sql, params)), None)

    async def fetchall(self, sql: str, *params: Any) -> list[Any]:
        return list(await self._connection.execute_fetchall(sql, params))


class Database:
    """Open with `Database.open(...)`; close with `close()`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self._write_lock = asyncio.Lock()
        self._readers: list[aiosqlite.Connection] = []  # none yet: reads take the write lock
        self._idle_readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._closed = False
        self._lock: DatabaseLock | None = None
        self._file: FileWatch | None = None
        self._lost: str | None = None
        self._on_lost: Callable[[], None] | None = None
        self._watcher: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        claimed: ClaimedDatabase | None = None,
        on_lost: Callable[[], None] | None = None,
        watch_seconds: float | None = None,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Database:
        """Open the database at `path` (or the one `claimed` already, see
        `storage.claim_database`) and bring its schema up to `len(migrations)`: its lock file
        is taken first, a file that is not a sound Quiz Tutor database is refused untouched,
        and a new one is created only where no file exists. `on_lost` is called once if the
        file is later found deleted or replaced; `watch_seconds` also checks for that on a
        timer, not only after each write. `migrations` is for tests that build an old schema."""
        if str(path) == ":memory:":
            connection = await aiosqlite.connect(":memory:", isolation_level=None)
            return await cls._opened(connection, migrations)
        if claimed is None:
            claimed = await asyncio.to_thread(claim_database, Path(path))
        try:
            connection = await aiosqlite.connect(
                f"{claimed.path.as_uri()}?mode=rw", uri=True, isolation_level=None
            )
            database = await cls._opened(connection, migrations)
        except BaseException:
            claimed.lock.release()
            raise
        try:
            await database._open_readers(claimed.path)
        except BaseException:
            await database.close()
            claimed.lock.release()
            raise
        database._lock = claimed.lock
        database._file = FileWatch(claimed.path)
        database._on_lost = on_lost
        if watch_seconds is not None:
            database._watcher = asyncio.create_task(
                database._watch(watch_seconds), name="database-file-watch"
            )
        return database

    @classmethod
    async def _opened(
        cls, connection: aiosqlite.Connection, migrations: Sequence[Migration]
    ) -> Database:
        connection.row_factory = aiosqlite.Row
        database = cls(connection)
        try:
            for pragma in PRAGMAS:
                await connection.execute(pragma)
            await database._migrate(migrations)
        except BaseException:
            await connection.close()
            raise
        return database

    async def _open_readers(self, path: Path) -> None:
        """The read connections, once the schema is migrated: read-only, so the write
        connection, closed last, is the one that checkpoints the log and removes it."""
        for _ in range(READERS):
            reader = await aiosqlite.connect(
                f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            try:
                reader.row_factory = aiosqlite.Row
                for pragma in READER_PRAGMAS:
                    await reader.execute(pragma)
            except BaseException:
                await reader.close()
                raise
            self._readers.append(reader)
            self._idle_readers.put_nowait(reader)

    async def close(self) -> None:
        """Stop the file watch, wait for the running reads and write, close (the readers
        first), release the lock file. Reads asked after this are refused."""
        self._closed = True
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        for _ in self._readers:
            await (await self._idle_readers.get()).close()
        self._readers.clear()
        async with self._write_lock:
            await self._connection.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def connection(self) -> aiosqlite.Connection:
        """The write connection, for tests and diagnostics only (a PRAGMA): stores write
        through `transaction()` and read through `fetchone`/`fetchall`."""
        return self._connection

    async def set_trace_callback(self, trace: Callable[[str], None] | None) -> None:
        """Call `trace` with every statement run on any of the connections, from their
        threads (None: stop), for tests and diagnostics."""
        for connection in (self._connection, *self._readers):
            await connection.set_trace_callback(cast(Callable[..., Any], trace))  # None: stop

    # the file

    @property
    def lost(self) -> str | None:
        """Why the database file is lost (deleted or replaced under this process), or None."""
        return self._lost

    @property
    def healthy(self) -> bool:
        """False once the database file is lost: what a health check reports."""
        return self._lost is None

    async def _watch(self, seconds: float) -> None:
        with contextlib.suppress(DatabaseLost):  # noticed: logged, `on_lost` called
            while True:
                await asyncio.sleep(seconds)
                self._check_file()

    def _check_file(self) -> None:
        """Raise `DatabaseLost` if the file is lost, noticing it now if it just was."""
        if self._lost is None and self._file is not None:
            problem = self._file.problem()
            if problem is not None:
                self._lose(problem, drop_logs=True)
            elif self._lock is not None and (taken := self._lock.keep()) is not None:
                self._lose(taken, drop_logs=False)  # the file is shared now: logs stay
        self._refuse_if_lost()

    def _lose(self, problem: str, *, drop_logs: bool) -> None:
        self._lost = problem
        if drop_logs and self._file is not None:
            self._file.drop_own_logs()
        log.critical(
            "database lost: %s while in use; nothing is acknowledged from now on, "
            "and the bot stops so that it can be restarted",
            problem,
        )
        if self._on_lost is not None:
            try:
                self._on_lost()
            except Exception:
                log.exception("on_lost failed")

    def _refuse_if_lost(self) -> None:
        if self._lost is not None:
            raise DatabaseLost(f"the database is lost: {self._lost}")

    # writes and reads

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One `BEGIN IMMEDIATE` ... `COMMIT`, under the write lock; rolled back on any error
        (an SQLite error is raised as `StorageError`). Returns after COMMIT, once the file is
        known to be the one opened."""
        async with self._write_lock:
            self._refuse_if_lost()
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise StorageError(str(error)) from error
            try:
                yield Transaction(self._connection)
                await self._connection.execute("COMMIT")
            except BaseException as error:
                try:
                    await self._connection.execute("ROLLBACK")
                except sqlite3.Error:
                    log.exception("rollback failed")
                if isinstance(error, sqlite3.Error):
                    raise StorageError(str(error)) from error
                raise
            # committed, but into the file at our path? Only then may the caller acknowledge.
            self._check_file()

    async def fetchone(self, sql: str, *params: Any) -> Any:
        """The first row of a read, or None."""
        return next(iter(await self.fetchall(sql, *params)), None)

    async def fetchone_as(self, make: Callable[[Any], T], sql: str, *params: Any) -> T | None:
        """The first row of a read made into an object by `make`, or None."""
        row = await self.fetchone(sql, *params)
        return None if row is None else make(row)

    async def update_once(self, sql: str, *params: Any) -> bool:
        """An UPDATE whose WHERE holds only until it has run (`... IS NULL`), in a transaction
        of its own: True if this call changed the row, False if another had already."""
        async with self.transaction() as tx:
            cursor = await tx.execute(sql, *params)
            return cursor.rowcount == 1

    async def fetchall(self, sql: str, *params: Any) -> list[Any]:
        """Every row of a read: one statement outside any transaction, so one snapshot, the
        last commit when it began. On the write connection while no write is in progress (its
        thread runs the read before any `BEGIN` asked after it), else on a read connection."""
        self._refuse_if_lost()
        if self._closed:
            raise StorageError("the database is closed")
        try:
            if not self._readers:
                async with self._write_lock:
                    return list(await self._connection.execute_fetchall(sql, params))
            if not self._write_lock.locked():
                # queued on the write connection's thread now, before this coroutine yields:
                # a transaction begun after this is queued behind it
                return list(await self._connection.execute_fetchall(sql, params))
            reader = await self._idle_readers.get()
            try:
                return list(await reader.execute_fetchall(sql, params))
            finally:
                self._idle_readers.put_nowait(reader)
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    # the schema

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        current = await self.schema_version()
        latest = len(migrations)
        if current > latest:
            raise StorageError(f"database schema {current} is newer than this program's {latest}")
        for version in range(current + 1, latest + 1):
            async with self.transaction() as tx:
                for statement in migrations[version - 1]:
                    await tx.execute(statement)
                # PRAGMA takes no parameters; `version` is an int of ours
                await tx.execute(f"PRAGMA user_version={version:d}")
            log.info("database migrated to schema %d", version)
