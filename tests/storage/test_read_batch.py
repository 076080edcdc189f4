"""Reads by key collected into one statement (storage/batching.py `ReadBatcher`), and the
learners a burst of taps looks up, through a real Storage on a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import Storage
from storage.batching import ReadBatcher
from storage.errors import StorageError
from tests.storage.test_answer_batch import trace

T0 = 1_700_000_000.0


async def test_a_burst_of_lookups_is_read_in_few_statements(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "quiz.sqlite3")
    try:
        for user_id in range(1, 301):  # learners 1..300; members 301..1000 never started the bot
            await storage.learners.touch_user(user_id, f"l{user_id}", "en", T0)
        storage.learners.uncache(range(1, 301))
        statements = await trace(storage)
        found = await asyncio.gather(*(storage.learners.get_user(n) for n in range(1, 1001)))
        assert [user is not None for user in found] == [n <= 300 for n in range(1, 1001)]
        assert all(user.first_name == f"l{user.user_id}" for user in found if user is not None)
        reads = [sql for sql in statements.statements if "FROM users" in sql]
        assert 1 <= len(reads) <= 4, reads  # 1,000 lookups, at most 500 a statement
        again = await asyncio.gather(*(storage.learners.get_user(n) for n in (5, 999)))
        assert [u is not None for u in again] == [True, False]
        assert len([sql for sql in statements.statements if "FROM users" in sql]) == len(reads)
    finally:
        await storage.close()


async def test_a_lookup_racing_a_write_sees_the_write(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "quiz.sqlite3")
    try:
        assert await storage.learners.get_user(7) is None
        lookup = asyncio.ensure_future(storage.learners.get_user(7))
        await storage.learners.touch_user(7, "Ada", "en", T0)
        await lookup  # read before or after the write: either is right for that caller
        user = await storage.learners.get_user(7)
        assert user is not None and user.first_name == "Ada"
    finally:
        await storage.close()


async def test_a_key_asked_while_its_read_runs_is_read_again() -> None:
    values = {"k": 1}
    started, release = asyncio.Event(), asyncio.Event()
    reads: list[list[str]] = []

    async def read(keys: list[str]) -> dict[str, int]:
        reads.append(keys)
        seen = {key: values[key] for key in keys if key in values}
        started.set()
        await release.wait()
        return seen

    batcher: ReadBatcher[str, int] = ReadBatcher(read, max_batch=10, name="test")
    first = asyncio.ensure_future(batcher.get("k"))
    await started.wait()
    values["k"] = 2  # written (committed) after the first read ran
    second = asyncio.ensure_future(batcher.get("k"))
    release.set()
    assert (await first, await second) == (1, 2)
    assert reads == [["k"], ["k"]]


async def test_a_failed_read_fails_its_callers_only() -> None:
    fail = True

    async def read(keys: list[int]) -> dict[int, int]:
        await asyncio.sleep(0)
        if fail:
            raise StorageError("disk I/O error")
        return {key: key * 2 for key in keys}

    batcher: ReadBatcher[int, int] = ReadBatcher(read, max_batch=3, name="test")
    results = await asyncio.gather(*(batcher.get(n) for n in range(5)), return_exceptions=True)
    assert all(isinstance(result, StorageError) for result in results)
    fail = False
    assert await asyncio.gather(*(batcher.get(n) for n in range(5))) == [0, 2, 4, 6, 8]


async def test_a_cancelled_caller_leaves_the_others_their_answer() -> None:
    release = asyncio.Event()

    async def read(keys: list[int]) -> dict[int, int]:
        await release.wait()
        return {key: -key for key in keys}

    batcher: ReadBatcher[int, int] = ReadBatcher(read, max_batch=10, name="test")
    gone = asyncio.ensure_future(batcher.get(1))
    stays = asyncio.ensure_future(batcher.get(1))
    other = asyncio.ensure_future(batcher.get(2))
    await asyncio.sleep(0)
    gone.cancel()
    release.set()
    assert (await stays, await other) == (-1, -2)
    with pytest.raises(asyncio.CancelledError):
        await gone
