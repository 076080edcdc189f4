"""Locks by key (bot/core/locks.py): one at a time per key, and no lock kept once unused."""

from __future__ import annotations

import asyncio

from bot.core.locks import KeyedLocks


async def test_a_key_is_held_by_one_task_at_a_time_and_others_wait() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    inside: list[int] = []
    most = 0
    release = asyncio.Event()

    async def work(n: int) -> None:
        nonlocal most
        async with locks.hold(7):
            inside.append(n)
            most = max(most, len(inside))
            await release.wait()
            inside.remove(n)

    tasks = [asyncio.create_task(work(n)) for n in range(5)]
    async with asyncio.timeout(5):
        while locks.waiting(7) < 4:  # noqa: ASYNC110 - waiting for the tasks to queue
            await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*tasks)
    assert most == 1
    assert len(locks) == 0  # nobody holds or waits: the lock is gone


async def test_other_keys_do_not_wait() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    async with locks.hold(1), asyncio.timeout(5), locks.hold(2):
        assert len(locks) == 2
    assert len(locks) == 0


async def test_a_lock_in_use_is_never_dropped_and_many_keys_leave_nothing_behind() -> None:
    """10,000 sessions run over months: the map holds only the keys in use now. A lock whose
    holder is gone while a task still waits for it is not dropped: the waiter gets that lock,
    and a newcomer waits behind it."""
    locks: KeyedLocks[int] = KeyedLocks()
    for key in range(10_000):
        async with locks.hold(key):
            pass
    assert len(locks) == 0

    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def holder(name: str) -> None:
        async with locks.hold(5):
            order.append(name)
            first_in.set()
            await release.wait()

    first = asyncio.create_task(holder("first"))
    await first_in.wait()
    second = asyncio.create_task(holder("second"))
    async with asyncio.timeout(5):
        while locks.waiting(5) < 1:  # noqa: ASYNC110 - waiting for the task to queue
            await asyncio.sleep(0)
    release.set()
    await first
    third = asyncio.create_task(holder("third"))
    await asyncio.gather(second, third)
    assert order == ["first", "second", "third"]
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_nothing_behind() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    async with locks.hold("k"):
        waiter = asyncio.create_task(_hold(locks, "k"))
        async with asyncio.timeout(5):
            while locks.waiting("k") < 1:  # noqa: ASYNC110 - waiting for the task to queue
                await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        assert locks.waiting("k") == 0
    assert len(locks) == 0


async def _hold(locks: KeyedLocks[str], key: str) -> None:
    async with locks.hold(key):
        pass
