"""Updates of one chat run in order; different chats do not wait for each other."""

from __future__ import annotations

import asyncio

from telegram import Chat, Message, Update

from bot.core.update_processor import PerChatUpdateProcessor, chat_key


def _update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, "private")
    return Update(update_id, message=Message(update_id, None, chat))  # type: ignore[arg-type]


async def test_one_chat_in_order_other_chats_alongside() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    release_first = asyncio.Event()
    order: list[str] = []

    async def handle(name: str, wait: asyncio.Event | None = None) -> None:
        order.append(f"start {name}")
        if wait is not None:
            await wait.wait()
        order.append(f"end {name}")

    first = asyncio.create_task(
        processor.process_update(_update(1, 10), handle("a1", release_first))
    )
    second = asyncio.create_task(processor.process_update(_update(2, 10), handle("a2")))
    other = asyncio.create_task(processor.process_update(_update(3, 20), handle("b1")))
    await other  # chat 20 finishes while chat 10's first update still waits
    assert order == ["start a1", "start b1", "end b1"]
    release_first.set()
    await asyncio.gather(first, second)
    assert order[3:] == ["end a1", "start a2", "end a2"]
    assert processor._locks == {}  # nothing kept for chats that are idle


def test_chat_key_is_the_chat_or_none() -> None:
    assert chat_key(_update(1, 42)) == 42
    assert chat_key("not an update") is None


async def test_an_update_of_no_chat_waits_for_the_updates_before_it() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    release = asyncio.Event()
    order: list[str] = []

    async def handle(name: str, wait: asyncio.Event | None = None) -> None:
        if wait is not None:
            await wait.wait()
        order.append(name)

    posting = asyncio.create_task(processor.process_update(_update(1, 10), handle("post", release)))
    await asyncio.sleep(0)  # let the first update take its chat's lock
    vote = asyncio.create_task(processor.process_update("poll answer", handle("vote")))
    await asyncio.sleep(0)
    assert order == []
    release.set()
    await asyncio.gather(posting, vote)
    assert order == ["post", "vote"]


def test_a_vote_on_a_poll_this_process_posted_belongs_to_the_poll_chat() -> None:
    vote = Update.de_json(
        {"update_id": 5, "poll_answer": {"poll_id": "poll-1", "option_ids": [0],
         "option_persistent_ids": ["0"], "user": {"id": 3, "is_bot": False, "first_name": "Bo"}}},
        None,
    )  # fmt: skip
    assert chat_key(vote, {"poll-1": -100}) == -100
    assert chat_key(vote, {"poll-2": -100}) is None
    assert chat_key(vote) is None
