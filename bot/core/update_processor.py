"""The order updates are handled in: concurrently, except where order matters.

- A chat's updates wait for the chat's updates before them: a learner's taps in the order
  they were made, an admin's commands after everything the chat did before them.
- Except a member's answer in a group or channel (a tap on a button whose kind is declared
  `per_member`, a vote in a quiz poll): it waits only for that member's earlier updates and for
  the chat's earlier chat-wide updates, so a thousand members' answers run side by side,
  and a command (/skip, /stopquiz, a Reveal tap) after them still waits for every one.
- A vote in a quiz poll belongs to the poll's chat; other updates of no chat wait for every
  update that came before them.

Each update's arrival is the processor's clock when it came in, before it waited for its turn
(`arrival_time`), or when the webhook took it, if that said so (`arrived`): an answer's time
for points, so that queueing costs no member points.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache
from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseUpdateProcessor

from bot.core.callbacks import decode

MAX_CONCURRENT_UPDATES = 1024  # handlers running at once
UNBOUNDED = 1_000_000_000
POLLS = 10_000  # quiz polls whose chat is remembered

_ARRIVED_AT: ContextVar[float | None] = ContextVar("arrived_at", default=None)


def arrival_time() -> float | None:
    """When the update being handled arrived (the processor's clock), or None outside one."""
    return _ARRIVED_AT.get()


# (chat, member): a member's answer in that chat; (chat, None): any other update of the chat
OrderKey = tuple[int, int | None]


def order_key(update: object, poll_chats: Mapping[str, int] | None = None) -> OrderKey | None:
    """Whose order an update belongs to (see the module's docstring); None for an update of no
    known chat."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat
    if chat is not None:
        query = update.callback_query
        if query is not None and chat.type != ChatType.PRIVATE:
            tap = decode(query.data)
            if tap is not None and tap.per_member:
                return (chat.id, query.from_user.id)
        return (chat.id, None)
    answer = update.poll_answer
    if answer is not None and poll_chats is not None and answer.poll_id in poll_chats:
        voter = answer.user.id if answer.user is not None else None
        return (poll_chats[answer.poll_id], voter)
    return None


def poll_chats(size: int = POLLS) -> MutableMapping[str, int]:
    """Where the quiz polls this process posted are: poll -> chat, forgotten when the poll's
    question closes, and the least recently used first past `size` (a vote on a poll
    forgotten waits for every update before it, as one on a poll posted before a restart)."""
    return LRUCache(maxsize=size)


class UpdateQueue(asyncio.Queue[object]):
    """The application's update queue, counting the updates put on it and not yet handled
    (PTB marks each one done once its handlers have run): what the webhook bounds."""

    def __init__(self) -> None:
        super().__init__()
        self.unfinished = 0
        self.on_finished: Callable[[], None] | None = None  # after each update handled

    def put_nowait(self, item: object) -> None:
        super().put_nowait(item)
        self.unfinished += 1

    def task_done(self) -> None:
        super().task_done()
        self.unfinished -= 1
        if self.on_finished is not None:
            self.on_finished()


@dataclass
class _ChatTurns:
    """One chat's updates in progress, each as the future its end sets."""

    chat_wide: asyncio.Future[None] | None = None  # the last chat-wide update
    members: dict[int, asyncio.Future[None]] = field(default_factory=dict)  # each one's last
    since_chat_wide: set[asyncio.Future[None]] = field(default_factory=set)  # members' since
    in_progress: int = 0


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(
        self,
        max_concurrent_updates: int = MAX_CONCURRENT_UPDATES,
        poll_chats: Mapping[str, int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        # PTB's bound is taken once an update's turn has come (`_running`), not before: an
        # update's arrival and its place in the order are recorded as soon as it comes in
        super().__init__(UNBOUNDED)
        self._running = asyncio.Semaphore(max_concurrent_updates)
        self._poll_chats = poll_chats
        self._clock = clock
        self._chats: dict[int, _ChatTurns] = {}
        self._arrivals: dict[int, float] = {}  # id of an update queued: when it arrived

    def now(self) -> float:
        """This processor's clock."""
        return self._clock()

    def arrived(self, update: object, at: float) -> None:
        """`update`, about to be queued, arrived at `at` (`now()` then), not when the processor
        gets it."""
        self._arrivals[id(update)] = at

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        arrived = self._arrivals.pop(id(update), None)
        # this update's task: its handlers read it
        _ARRIVED_AT.set(self._clock() if arrived is None else arrived)
        key = order_key(update, self._poll_chats)
        if key is None:
            # An update of no known chat (a vote on a poll posted before a restart) may refer
            # to something an earlier update is still doing: it waits for every one before it.
            await _after([f for turns in self._chats.values() for f in _every_update_of(turns)])
            async with self._running:
                await coroutine
            return
        chat, member = key
        turns = self._chats.setdefault(chat, _ChatTurns())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if member is None:
            before = [turns.chat_wide, *turns.since_chat_wide]
            turns.chat_wide, turns.since_chat_wide = done, set()
        else:
            before = [turns.chat_wide, turns.members.get(member)]
            turns.members[member] = done
            turns.since_chat_wide.add(done)
        turns.in_progress += 1
        try:
            await _after(before)
            async with self._running:
                await coroutine
        finally:
            done.set_result(None)
            _forget(turns, member, done)
            if not turns.in_progress:
                del self._chats[chat]

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""


async def _after(updates: list[asyncio.Future[None] | None]) -> None:
    """Wait until these updates have ended (without cancelling them if this one is)."""
    pending = {update for update in updates if update is not None and not update.done()}
    if pending:
        await asyncio.wait(pending)


def _every_update_of(turns: _ChatTurns) -> list[asyncio.Future[None]]:
    chat_wide = [turns.chat_wide] if turns.chat_wide is not None else []
    return [*chat_wide, *turns.since_chat_wide]


def _forget(turns: _ChatTurns, member: int | None, done: asyncio.Future[None]) -> None:
    turns.in_progress -= 1
    turns.since_chat_wide.discard(done)
    if member is not None and turns.members.get(member) is done:
        del turns.members[member]
    if turns.chat_wide is done:
        turns.chat_wide = None
