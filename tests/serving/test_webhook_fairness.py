"""One chat cannot starve the others: a chat holds at most its share of the updates the webhook
accepted and has not handled (past it its POSTs wait, then 503), so another chat's update is
still taken and served while one chat floods; a room freed goes first to the chat holding the
fewest; an update's chat is read from its JSON before it is taken."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

from bot.sandbox import FakeBotApi, FakeUser
from bot.serving.http import Limits
from bot.serving.webhook import chat_of
from tests.serving.test_webhook import exchange, post, until, update_for
from tests.serving.test_webhook_limits import webhook

FLOOD = FakeUser(2901, "Flood", "en")
OTHER = FakeUser(2902, "Ayo", "en")


def _holding(gate: asyncio.Event) -> TypeHandler[Update, Any]:
    """Every update of the flooding chat waits at the gate before it is handled."""

    async def hold(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_chat is not None and update.effective_chat.id == FLOOD.id:
            await gate.wait()

    return TypeHandler(Update, hold)


async def test_a_flooding_chat_leaves_room_for_another_chats_update(
    api: FakeBotApi, db_path: Any
) -> None:
    gate = asyncio.Event()
    limits = Limits(pending_updates=20, room_seconds=3)
    async with webhook(api, db_path, limits) as (application, listener):
        application.add_handler(_holding(gate), group=-100)
        flood = [
            asyncio.create_task(
                exchange(
                    listener.port,
                    post(json.dumps(update_for(api, FLOOD, "/help", n)).encode()),
                    timeout=20,
                )
            )
            for n in range(1, 41)
        ]
        # the flooding chat took its share and waits for more
        await until(lambda: listener.intake.waiting_for_room >= 40 - limits.chat_share)
        assert listener.intake.held(FLOOD.id) == limits.chat_share == 15
        started = time.monotonic()
        body = json.dumps(update_for(api, OTHER, "/help", 100)).encode()
        assert (await exchange(listener.port, post(body)))[0] == 200
        await api.wait_for_bot_message(OTHER.id, "/progress")
        assert time.monotonic() - started < 1.0
        # the flood's POSTs past its share waited, then were answered 503 (sent again later)
        statuses = [status for status, _ in await asyncio.gather(*flood)]
        assert statuses.count(200) == limits.chat_share
        assert statuses.count(503) == 40 - limits.chat_share
        gate.set()
        await api.wait_for(lambda: len(api.bot_messages(FLOOD.id)) == limits.chat_share)


async def test_a_room_freed_goes_to_the_chat_holding_the_fewest(
    api: FakeBotApi, db_path: Any
) -> None:
    """Two chats at the bound: the one that holds the fewest gets the next room, though the
    other's POST waited longer."""
    gate = asyncio.Event()
    limits = Limits(pending_updates=4, pending_per_chat=3, room_seconds=10)
    async with webhook(api, db_path, limits) as (application, listener):
        application.add_handler(_holding(gate), group=-100)
        intake = listener.intake

        def posting(user: FakeUser, update_id: int) -> asyncio.Task[tuple[int, bytes]]:
            body = json.dumps(update_for(api, user, "/help", update_id)).encode()
            return asyncio.create_task(exchange(listener.port, post(body), timeout=20))

        held = [posting(FLOOD, n) for n in range(1, 4)]  # the flood's share: 3
        await until(lambda: intake.held(FLOOD.id) == 3)
        first_other = posting(OTHER, 10)  # the fourth room
        assert (await first_other)[0] == 200
        await api.wait_for_bot_message(OTHER.id, "/progress")
        # now: the flood holds 3 (at its share) and the bound is free by one
        await until(lambda: intake.pending() == 3)
        flood_waits = posting(FLOOD, 4)  # past its share: waits
        await until(lambda: intake.waiting_for_room == 1)
        other_again = posting(OTHER, 11)  # a room is free and its chat holds none: taken
        assert (await other_again)[0] == 200
        await api.wait_for(lambda: len(api.bot_messages(OTHER.id)) == 2)
        assert not flood_waits.done()
        gate.set()  # the flood's updates are handled: its waiting POST gets its room
        assert (await flood_waits)[0] == 200
        for task in held:
            assert (await task)[0] == 200
        await api.wait_for(lambda: len(api.bot_messages(FLOOD.id)) == 4)


CHAT_ID = st.integers(min_value=-(10**13), max_value=10**13)


@pytest.mark.parametrize(
    ("update", "chat"),
    [
        ({"update_id": 1, "message": {"chat": {"id": -5}, "from": {"id": 7}}}, -5),
        ({"update_id": 1, "channel_post": {"chat": {"id": -9}}}, -9),
        (
            {
                "update_id": 1,
                "callback_query": {"from": {"id": 7}, "message": {"chat": {"id": -5}}},
            },
            -5,
        ),
        ({"update_id": 1, "callback_query": {"from": {"id": 7}, "inline_message_id": "x"}}, 7),
        ({"update_id": 1, "poll_answer": {"poll_id": "p", "user": {"id": 8}}}, 8),
        ({"update_id": 1, "my_chat_member": {"chat": {"id": -3}, "from": {"id": 7}}}, -3),
        ({"update_id": 1, "message": {"chat": {"id": True}}}, None),
        ({"update_id": 1, "message": {"chat": {"id": "7"}}}, None),
        ({"update_id": 1, "message": ["chat"]}, None),
        ({"update_id": 1}, None),
    ],
)
def test_an_updates_chat_is_read_from_its_json(update: dict[str, Any], chat: int | None) -> None:
    assert chat_of(update) == chat


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["message", "callback_query", "poll_answer", "chat", "x"]), JSON
    )
)
def test_any_json_gives_a_chat_or_none_never_an_error(update: dict[str, Any]) -> None:
    found = chat_of(update)
    assert found is None or (isinstance(found, int) and not isinstance(found, bool))


@settings(deadline=None)
@given(CHAT_ID, st.sampled_from(["message", "edited_message", "channel_post", "chat_member"]))
def test_the_chat_of_a_message_is_its_chats_id(chat: int, part: str) -> None:
    assert chat_of({"update_id": 1, part: {"chat": {"id": chat}, "from": {"id": 1}}}) == chat
