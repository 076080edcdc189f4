"""Updates of different chats run concurrently; updates of one chat run one after another.

A learner's taps must be handled in the order they were made (an answer, then the next), and a
group's answers must not race each other; different chats share nothing that needs ordering.
Updates of no chat (poll answers) run after every update that came before them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT_UPDATES = 256


def chat_key(update: object) -> int | None:
    """The chat whose order an update belongs to; None for updates of no chat (poll answers)."""
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int | None, asyncio.Lock] = {}
        self._waiting: dict[int | None, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        if key is None:
            # A poll answer names no chat, but it may refer to a poll that an earlier update
            # of some chat is still posting: it waits until every update before it is done.
            for earlier in list(self._locks.values()):
                async with earlier:
                    pass
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:
                del self._waiting[key], self._locks[key]

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""
