"""Updates of different chats run concurrently; updates of one chat run one after another.

A learner's taps must be handled in the order they were made (an answer, then the next), and a
group's answers must not race each other; different chats share nothing that needs ordering.
A vote on a quiz poll belongs to the poll's chat; other updates of no chat run after every
update that came before them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT_UPDATES = 256


def chat_key(update: object, poll_chats: Mapping[str, int] | None = None) -> int | None:
    """The chat whose order an update belongs to: a poll answer belongs to its poll's chat when
    the poll was posted by this process; None for other updates of no chat."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    if update.poll_answer is not None and poll_chats is not None:
        return poll_chats.get(update.poll_answer.poll_id)
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(
        self,
        max_concurrent_updates: int = MAX_CONCURRENT_UPDATES,
        poll_chats: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._poll_chats = poll_chats
        self._locks: dict[int | None, asyncio.Lock] = {}
        self._waiting: dict[int | None, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update, self._poll_chats)
        if key is None:
            # An update of no known chat (a vote on a poll posted before a restart) may refer
            # to something an earlier update is still doing: it waits for every one before it.
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
