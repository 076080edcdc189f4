"""What a read of the `Database` sees (storage/database.py): only what was committed, every
commit before it, and nothing a transaction still open may roll back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.database import Database
from storage.errors import StorageError

T0 = 1_700_000_000.0
USER = 4242
FIND = "SELECT first_name FROM users WHERE user_id = ?"


class Doomed(Exception):
    """Raised inside a transaction to roll it back."""


async def _doomed_write(database: Database) -> tuple[asyncio.Task[None], asyncio.Event]:
    """A transaction that has written a row and is still open: it rolls back once the event
    returned is set (the task then raises `Doomed`)."""
    written, release = asyncio.Event(), asyncio.Event()

    async def doomed() -> None:
        async with database.transaction() as tx:
            await tx.execute(
                "INSERT INTO users (user_id, first_name, created_at, updated_at) "
                "VALUES (?, 'Ghost', ?, ?)",
                USER,
                T0,
                T0,
            )
            written.set()
            await release.wait()
            raise Doomed

    writer = asyncio.create_task(doomed())
    await written.wait()
    return writer, release


async def test_a_read_during_a_write_transaction_never_sees_rows_later_rolled_back(
    db_path: Path,
) -> None:
    """The bot must never show, or decide on, a row that never existed: a read made while a
    batch's transaction is open, which that transaction then rolls back, finds nothing."""
    database = await Database.open(db_path)
    try:
        writer, release = await _doomed_write(database)
        read = asyncio.create_task(database.fetchone(FIND, USER))
        # the read may answer at once (it does not wait for a writer) or after the rollback;
        # either way it must not have seen the row
        await asyncio.wait({read}, timeout=5)
        release.set()
        with pytest.raises(Doomed):
            await writer
        assert await read is None
        assert await database.fetchone(FIND, USER) is None
    finally:
        await database.close()


async def test_a_read_asked_before_a_transaction_runs_before_it_on_the_write_connection(
    db_path: Path,
) -> None:
    """While no write is in progress a read runs on the write connection: it is queued on
    that connection's thread at once, so a transaction asked after it begins after it has
    run, and it cannot see that transaction's rows."""
    database = await Database.open(db_path)
    statements: list[str] = []
    await database.connection.set_trace_callback(statements.append)  # the write connection
    try:
        read = asyncio.create_task(database.fetchone(FIND, USER))  # runs before the writer
        writer, release = await _doomed_write(database)
        release.set()
        with pytest.raises(Doomed):
            await writer
        assert await read is None
        assert [sql.split()[0] for sql in statements] == ["SELECT", "BEGIN", "INSERT", "ROLLBACK"]
    finally:
        await database.close()


async def _insert(database: Database, user_id: int, name: str) -> None:
    async with database.transaction() as tx:
        await tx.execute(
            "INSERT INTO users (user_id, first_name, created_at, updated_at) VALUES (?, ?, ?, ?)",
            user_id,
            name,
            T0,
            T0,
        )


async def test_a_read_right_after_a_commit_sees_it(db_path: Path) -> None:
    """What a caller acknowledged (the write returned after COMMIT) is there for the very next
    read, on whichever connection it runs, and for reads running beside it."""
    database = await Database.open(db_path)
    try:
        for user_id in range(1, 201):
            others = [asyncio.create_task(database.fetchall("SELECT * FROM users")) for _ in "ab"]
            await _insert(database, user_id, f"n{user_id}")
            row = await database.fetchone(FIND, user_id)
            assert row is not None and row["first_name"] == f"n{user_id}"
            await asyncio.gather(*others)
        assert tuple(await database.fetchone("SELECT COUNT(*) FROM users")) == (200,)
    finally:
        await database.close()


async def test_a_read_does_not_wait_for_an_open_write_transaction(db_path: Path) -> None:
    """A batch's transaction holds the write lock for several round trips: reads go on beside
    it, and see the last commit."""
    database = await Database.open(db_path)
    try:
        await _insert(database, 1, "before")
        written, release = asyncio.Event(), asyncio.Event()

        async def held() -> None:
            async with database.transaction() as tx:
                await tx.execute("UPDATE users SET first_name = 'after' WHERE user_id = 1")
                written.set()
                await release.wait()

        writer = asyncio.create_task(held())
        await written.wait()
        row = await asyncio.wait_for(database.fetchone(FIND, 1), timeout=10)
        assert row is not None and row["first_name"] == "before"
        release.set()
        await writer
        row = await database.fetchone(FIND, 1)
        assert row is not None and row["first_name"] == "after"
    finally:
        await database.close()


async def test_the_log_is_checkpointed_while_reads_never_stop(db_path: Path) -> None:
    """Readers hold a snapshot only for one statement, so the write connection's automatic
    checkpoints still empty the log: it does not grow with the writes."""
    database = await Database.open(db_path)
    wal = db_path.with_name(db_path.name + "-wal")
    await database.connection.execute("PRAGMA wal_autocheckpoint=20")  # pages
    page = int((await database.fetchone("PRAGMA page_size"))[0])
    writing = True

    async def read_on() -> int:
        reads = 0
        while writing:
            await database.fetchall("SELECT * FROM users ORDER BY user_id DESC LIMIT 5")
            reads += 1
        return reads

    readers = [asyncio.create_task(read_on()) for _ in range(3)]
    try:
        largest = 0
        for user_id in range(1, 401):
            await _insert(database, user_id, "x" * page)  # a page or more each
            largest = max(largest, wal.stat().st_size)
        writing = False
        assert all(reads > 0 for reads in await asyncio.gather(*readers))
        # 400 transactions of two pages or more (a row's overflow page, its leaf): without a
        # checkpoint the log would hold 800 pages; with one every 20, some 100 (as with no reader)
        assert largest < 200 * page, largest // page
    finally:
        writing = False
        await asyncio.gather(*readers, return_exceptions=True)
        await database.close()


async def test_close_waits_for_reads_then_refuses_them_and_leaves_no_log(db_path: Path) -> None:
    database = await Database.open(db_path)
    await _insert(database, 1, "Ada")
    reads = [asyncio.create_task(database.fetchone(FIND, 1)) for _ in range(10)]
    await asyncio.sleep(0)  # the reads begin before the close
    await database.close()
    assert [row["first_name"] for row in await asyncio.gather(*reads)] == ["Ada"] * 10
    with pytest.raises(StorageError, match="closed"):
        await database.fetchone(FIND, 1)
    # the write connection, closed last, checkpointed the log into the file and removed it
    assert not db_path.with_name(db_path.name + "-wal").exists()
    reopened = await Database.open(db_path)
    try:
        assert (await reopened.fetchone(FIND, 1))["first_name"] == "Ada"
    finally:
        await reopened.close()


async def test_a_database_in_memory_reads_under_the_write_lock() -> None:
    """No second connection can open a database in memory: its reads wait for the open
    transaction, and so never see what it rolls back either."""
    database = await Database.open(":memory:")
    try:
        writer, release = await _doomed_write(database)
        read = asyncio.create_task(database.fetchone(FIND, USER))
        done, _ = await asyncio.wait({read}, timeout=0.5)
        assert not done  # waiting for the writer
        release.set()
        with pytest.raises(Doomed):
            await writer
        assert await read is None
    finally:
        await database.close()
