"""What updates of different chats, handled at once, must still do one at a time (`Locks`), and
locks by key (`KeyedLocks`) that last only while they are used, so that a bot running for
months does not keep a lock for every group session it ever ran."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class _Used:
    """A key's lock and the tasks holding it or waiting for it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class KeyedLocks(Generic[K]):
    """One lock per key, made when a task first asks for it and dropped when the last task
    holding or waiting for it lets go: there are never more locks than keys in use, and a lock
    in use is never dropped (a task asking for its key gets that same lock)."""

    def __init__(self) -> None:
        self._used: dict[K, _Used] = {}

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        """The key's lock, held for the block."""
        used = self._used.get(key)
        if used is None:
            used = self._used[key] = _Used()
        used.users += 1
        try:
            async with used.lock:
                yield
        finally:
            used.users -= 1
            if not used.users:
                del self._used[key]

    def waiting(self, key: K) -> int:
        """How many tasks wait for the key's lock (besides the one holding it)."""
        used = self._used.get(key)
        if used is None:
            return 0
        return used.users - (1 if used.lock.locked() else 0)

    def __len__(self) -> int:
        return len(self._used)


@dataclass(frozen=True)
class Locks:
    """The bot's locks, one set per running application."""

    # a change to a bank (read the quiz, plan, store, put into the catalog): two admins
    # cannot overwrite each other
    bank: asyncio.Lock = field(default_factory=asyncio.Lock)
    upload: asyncio.Lock = field(default_factory=asyncio.Lock)  # one upload parsed at once
    # a group session's posting, redrawing, revealing and stopping, one at a time
    sessions: KeyedLocks[int] = field(default_factory=KeyedLocks)
    pushes: KeyedLocks[int] = field(default_factory=KeyedLocks)  # one push into a chat at once
