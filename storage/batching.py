"""Writes collected into batches: one transaction and one commit for every write that arrived
while the previous batch was being written.

Each statement costs a round trip to the database thread, and each round trip waits for the
event loop; a transaction per write holds the write lock for milliseconds, and writes queue
behind it. A batch costs the same few statements whatever its size. The caller's `record`
returns only after its batch's COMMIT, so a write is durable before it is acknowledged. If the
database refuses a batch (full, read-only...), every write in it fails and none is
acknowledged; if it fails otherwise, its writes are done again one at a time, so only a write
the database cannot take fails.

Learners' answers (storage/answer_batch.py), a chat's answers (storage/group_batch.py) and its
members' picks (storage/pick_batch.py) are written this way, each by its own `WriteBatcher`.

Reads by key can be collected the same way (`ReadBatcher`): the learners a thousand members'
taps look up at once are one `SELECT ... WHERE user_id IN (...)`, not a thousand.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Hashable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, Protocol, TypeVar

from storage.errors import StorageError

T = TypeVar("T")
R = TypeVar("R")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BatchTx(Protocol):
    async def fetchall(self, sql: str, *params: Any) -> list[Any]: ...
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class WriteBatcher(Generic[T, R]):
    """Collects writes and writes them in batches through `transaction` (which serializes
    writers, begins, and commits or rolls back): `write(tx, batch)` returns one result per
    item, in order. A batch holds at most `max_batch` items and at most one item per `key`:
    a second item of the same key waits for the next batch, so it sees the first one's effect
    exactly as if they had been written apart."""

    def __init__(
        self,
        transaction: Callable[[], AbstractAsyncContextManager[BatchTx]],
        write: Callable[[BatchTx, list[T]], Awaitable[list[R]]],
        *,
        key: Callable[[T], Hashable],
        max_batch: int,
        name: str,
    ) -> None:
        self._transaction = transaction
        self._write_items = write
        self._key = key
        self._max_batch = max_batch
        self._name = name
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def record(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_waiting(), name=self._name)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # the item is still written; nobody will read how that went
            future.add_done_callback(_consume)
            raise

    async def drain(self) -> None:
        """Wait until every item handed in so far is written (or has failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.wait({self._writer})

    def _take_batch(self) -> list[tuple[T, asyncio.Future[R]]]:
        """The oldest waiting items, at most one per key."""
        batch: list[tuple[T, asyncio.Future[R]]] = []
        rest: list[tuple[T, asyncio.Future[R]]] = []
        keys: set[Hashable] = set()
        for waiting in self._waiting:
            key = self._key(waiting[0])
            if len(batch) < self._max_batch and key not in keys:
                keys.add(key)
                batch.append(waiting)
            else:
                rest.append(waiting)
        self._waiting = rest
        return batch

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                batch = self._take_batch()
                error = await self._write(batch)
                refused = isinstance(error, StorageError) and error.refused
                if error is not None and len(batch) > 1 and not refused:
                    # not the database refusing but one item it cannot take: the others
                    # must not fail with it, so each is written on its own
                    for waiting in batch:
                        await self._write([waiting])
                elif error is not None:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
        except BaseException:  # cancelled: whatever was not written fails
            for _, future in self._waiting:
                future.cancel()
            self._waiting = []
            raise

    async def _write(self, batch: list[tuple[T, asyncio.Future[R]]]) -> Exception | None:
        """Write one batch and settle its callers; the error if it failed (callers unsettled
        then, unless the batch held one item)."""
        try:
            async with self._transaction() as tx:
                results = await self._write_items(tx, [item for item, _ in batch])
        except Exception as error:
            if len(batch) == 1 and not batch[0][1].done():
                batch[0][1].set_exception(error)
            return error
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)
        return None


class ReadBatcher(Generic[K, V]):
    """Reads by key, collected: every key asked while a read runs is read by the next one,
    `read(keys)` returning what it found by key (a key it did not find: None). A key asked
    again while its read is running waits for the next read, so it sees every write that was
    committed before it was asked."""

    def __init__(
        self, read: Callable[[list[K]], Awaitable[dict[K, V]]], *, max_batch: int, name: str
    ) -> None:
        self._read_keys = read
        self._max_batch = max_batch
        self._name = name
        self._waiting: dict[K, asyncio.Future[V | None]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        future = self._waiting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            future.add_done_callback(_consume)  # nobody may be left to read a failure
            self._waiting[key] = future
            if self._reader is None or self._reader.done():
                self._reader = asyncio.create_task(self._read_waiting(), name=self._name)
        return await asyncio.shield(future)

    async def _read_waiting(self) -> None:
        while self._waiting:
            keys = list(itertools.islice(self._waiting, self._max_batch))
            batch = {key: self._waiting.pop(key) for key in keys}
            try:
                found = await self._read_keys(keys)
            except BaseException as error:
                for future in batch.values():
                    if isinstance(error, Exception):
                        future.set_exception(error)
                    else:
                        future.cancel()
                if not isinstance(error, Exception):
                    for future in self._waiting.values():
                        future.cancel()
                    self._waiting = {}
                    raise
                continue
            for key, future in batch.items():
                future.set_result(found.get(key))


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def placeholders(rows: int, columns: int) -> str:
    """`(?, ?), (?, ?)` for a multi-row VALUES of `rows` rows of `columns` values."""
    row = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([row] * rows)
