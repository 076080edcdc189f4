"""The order updates are handled in: a chat's in order, except members' answers in a group,
which wait only for their own member and for the chat's commands; different chats do not
wait for each other; each update's arrival is recorded before it waits."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from telegram import CallbackQuery, Chat, Message, Update, User

from bot.core.callbacks import GroupAnswer, GroupReveal
from bot.core.update_processor import (
    PerChatUpdateProcessor,
    arrival_time,
    order_key,
    poll_chats,
)

_ids = itertools.count(1)


def _update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, "private")
    return Update(update_id, message=Message(update_id, None, chat))  # type: ignore[arg-type]


def _group_tap(chat_id: int, user_id: int, data: str) -> Update:
    chat = Chat(chat_id, "supergroup")
    user = User(user_id, f"member{user_id}", False)
    number = next(_ids)
    message = Message(1, None, chat)  # type: ignore[arg-type]
    query = CallbackQuery(str(number), user, "chat-instance", message=message, data=data)
    return Update(number, callback_query=query)


def _group_command(chat_id: int, user_id: int) -> Update:
    chat = Chat(chat_id, "supergroup")
    number = next(_ids)
    message = Message(number, None, chat, from_user=User(user_id, "admin", False), text="/skip")  # type: ignore[arg-type]
    return Update(number, message=message)


ANSWER = GroupAnswer(session_id=1, position=0, option=1).encode()
REVEAL = GroupReveal(session_id=1, position=0).encode()


class Script:
    """Handlers that note when they start and end, each held until the test releases it."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def handle(self, name: str, held: bool = False) -> None:
        self.order.append(f"start {name}")
        if held:
            await self.gates.setdefault(name, asyncio.Event()).wait()
        self.order.append(f"end {name}")

    def release(self, name: str) -> None:
        self.gates.setdefault(name, asyncio.Event()).set()


async def _settle() -> None:
    """Let every task that can run, run (a handful of loop turns)."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_one_chat_in_order_other_chats_alongside() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    script = Script()
    first = asyncio.create_task(
        processor.process_update(_update(1, 10), script.handle("a1", held=True))
    )
    second = asyncio.create_task(processor.process_update(_update(2, 10), script.handle("a2")))
    other = asyncio.create_task(processor.process_update(_update(3, 20), script.handle("b1")))
    await other  # chat 20 finishes while chat 10's first update still waits
    assert script.order == ["start a1", "start b1", "end b1"]
    script.release("a1")
    await asyncio.gather(first, second)
    assert script.order[3:] == ["end a1", "start a2", "end a2"]
    assert processor._chats == {}  # nothing kept for chats that are idle


async def test_members_answers_run_alongside_and_a_command_waits_for_all_of_them() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    script = Script()
    tasks = [
        asyncio.create_task(
            processor.process_update(
                _group_tap(-5, user, ANSWER), script.handle(f"tap{user}", True)
            )
        )
        for user in (1, 2, 3)
    ]
    await _settle()
    assert sorted(script.order) == ["start tap1", "start tap2", "start tap3"]  # side by side
    skip = asyncio.create_task(
        processor.process_update(_group_command(-5, 9), script.handle("skip"))
    )
    reveal = asyncio.create_task(
        processor.process_update(_group_tap(-5, 9, REVEAL), script.handle("reveal"))
    )
    late = asyncio.create_task(
        processor.process_update(_group_tap(-5, 4, ANSWER), script.handle("tap4"))
    )
    script.release("tap1")
    script.release("tap2")
    await _settle()
    assert "start skip" not in script.order  # tap3 still runs
    script.release("tap3")
    await asyncio.gather(*tasks, skip, reveal, late)
    assert script.order[-7:] == [
        "end tap3", "start skip", "end skip", "start reveal", "end reveal", "start tap4",
        "end tap4",
    ]  # fmt: skip
    assert processor._chats == {}


async def test_one_members_answers_stay_in_order() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    script = Script()
    first = asyncio.create_task(
        processor.process_update(_group_tap(-5, 1, ANSWER), script.handle("first", True))
    )
    second = asyncio.create_task(
        processor.process_update(_group_tap(-5, 1, ANSWER), script.handle("second"))
    )
    other = asyncio.create_task(
        processor.process_update(_group_tap(-5, 2, ANSWER), script.handle("other"))
    )
    await other
    assert script.order == ["start first", "start other", "end other"]
    script.release("first")
    await asyncio.gather(first, second)
    assert script.order[3:] == ["end first", "start second", "end second"]


async def test_an_update_of_no_chat_waits_for_the_updates_before_it() -> None:
    processor = PerChatUpdateProcessor(max_concurrent_updates=16)
    script = Script()
    posting = asyncio.create_task(
        processor.process_update(_update(1, 10), script.handle("post", True))
    )
    answering = asyncio.create_task(
        processor.process_update(_group_tap(-5, 1, ANSWER), script.handle("tap", True))
    )
    await _settle()
    vote = asyncio.create_task(processor.process_update("poll answer", script.handle("vote")))
    await _settle()
    script.release("post")
    await _settle()
    assert "start vote" not in script.order  # the tap still runs
    script.release("tap")
    await asyncio.gather(posting, answering, vote)
    assert script.order[-2:] == ["start vote", "end vote"]


async def test_an_update_arrives_before_it_waits_for_its_turn() -> None:
    now = [100.0]
    processor = PerChatUpdateProcessor(max_concurrent_updates=16, clock=lambda: now[0])
    script = Script()
    seen: list[Any] = []

    async def note() -> None:
        seen.append(arrival_time())

    first = asyncio.create_task(processor.process_update(_update(1, 10), script.handle("a", True)))
    second = asyncio.create_task(processor.process_update(_update(2, 10), note()))
    await _settle()
    now[0] = 130.0  # the second waited half a minute for the first
    script.release("a")
    await asyncio.gather(first, second)
    assert seen == [100.0]
    assert arrival_time() is None  # outside an update


def test_order_keys() -> None:
    assert order_key(_update(1, 42)) == (42, None)
    assert order_key("not an update") is None
    assert order_key(_group_tap(-5, 7, ANSWER)) == (-5, 7)  # a member's answer
    assert order_key(_group_tap(-5, 7, REVEAL)) == (-5, None)  # Reveal orders the chat
    assert order_key(_group_tap(-5, 7, "forged")) == (-5, None)
    assert order_key(_group_command(-5, 7)) == (-5, None)


def test_a_vote_on_a_poll_this_process_posted_belongs_to_its_voter_in_the_poll_chat() -> None:
    vote = Update.de_json(
        {"update_id": 5, "poll_answer": {"poll_id": "poll-1", "option_ids": [0],
         "option_persistent_ids": ["0"], "user": {"id": 3, "is_bot": False, "first_name": "Bo"}}},
        None,
    )  # fmt: skip
    assert order_key(vote, {"poll-1": -100}) == (-100, 3)
    assert order_key(vote, {"poll-2": -100}) is None
    assert order_key(vote) is None


def test_the_polls_remembered_are_bounded_the_least_recently_used_going_first() -> None:
    """A vote on a poll forgotten waits for every update before it (as one on a poll posted
    before a restart): slower, still in order."""
    polls = poll_chats(size=100)
    for n in range(1_000):
        polls[f"poll-{n}"] = -n
    assert len(polls) == 100
    vote = Update.de_json(
        {"update_id": 5, "poll_answer": {"poll_id": "poll-999", "option_ids": [0],
         "option_persistent_ids": ["0"], "user": {"id": 3, "is_bot": False, "first_name": "Bo"}}},
        None,
    )  # fmt: skip
    assert order_key(vote, polls) == (-999, 3)
    assert "poll-0" not in polls
