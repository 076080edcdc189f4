"""The webhook answers a POST before its update is parsed and handled: the updates it holds
are bounded (past the bound a POST waits for room, then 503 and Telegram sends it again), each
is handled exactly once, also
when the bot stops right after answering, at the time its POST came, and the shape check in
front of the answer refuses what is not an update."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

from bot.core.update_processor import UpdateQueue, arrival_time
from bot.sandbox import FakeBotApi, FakeUser
from bot.serving import health
from bot.serving.http import Limits
from bot.serving.webhook import RETRY_AFTER_SECONDS, WebhookListener, _update_object, start_webhook
from tests.serving.test_webhook import PATH, SECRET, post, read_response, served, update_for
from tests.serving.test_webhook_limits import webhook
from tests.support.harness import make_settings, running_bot

PENDING = Limits(pending_updates=2, room_seconds=0.5)


def headers_of(response: bytes) -> dict[str, str]:
    lines = response.split(b"\r\n\r\n", 1)[0].decode("latin-1").splitlines()[1:]
    return {
        name.strip().lower(): value.strip() for name, _, value in (x.partition(":") for x in lines)
    }


async def test_past_the_bound_a_post_is_503_and_taken_when_sent_again(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    users = [FakeUser(2401 + n, f"Member{n}", "en") for n in range(3)]
    updates = [json.dumps(update_for(api, u, "/help", n + 1)).encode() for n, u in enumerate(users)]
    async with webhook(api, db_path, PENDING) as (_, listener):
        # two replies held back by the stand-in: two updates accepted and not handled for 3 s
        api.delay("sendMessage", 3.0, times=2)
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        for body in updates[:2]:
            writer.write(post(body))
            assert (await read_response(reader))[0] == 200
        assert listener.intake.pending() == 2
        writer.write(post(updates[2]))
        raw = await reader.readuntil(b"\r\n\r\n")
        assert raw.startswith(b"HTTP/1.1 503 ")
        assert headers_of(raw)["retry-after"] == str(RETRY_AFTER_SECONDS)
        await reader.readexactly(int(headers_of(raw)["content-length"]))
        # once the held ones are handled, the same update sent again on the same connection
        # (it stayed open) is taken, and each update was handled exactly once
        await api.wait_for(lambda: all(api.bot_messages(u.id) for u in users[:2]))
        await api.wait_for(lambda: listener.intake.pending() == 0)
        writer.write(post(updates[2]))
        assert (await read_response(reader))[0] == 200
        await api.wait_for_bot_message(users[2].id, "/progress")
        writer.close()
    assert [len(api.bot_messages(u.id)) for u in users] == [1, 1, 1]
    busy = [r.getMessage() for r in caplog.records if "503" in r.getMessage()]
    assert busy == ["webhook: refused an update from 127.0.0.1: 2 are not handled yet (503)"]


async def test_a_post_past_the_bound_waits_for_room_and_is_taken(
    api: FakeBotApi, db_path: Path
) -> None:
    first, second = FakeUser(2451, "Ada", "en"), FakeUser(2452, "Obi", "en")
    async with webhook(api, db_path, Limits(pending_updates=1, room_seconds=10)) as (_, listener):
        api.delay("sendMessage", 1.0)  # the first update is handled in a second
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(post(json.dumps(update_for(api, first, "/help", 1)).encode()))
        assert (await read_response(reader))[0] == 200
        other_reader, other_writer = await asyncio.open_connection("127.0.0.1", listener.port)
        other_writer.write(post(json.dumps(update_for(api, second, "/help", 2)).encode()))
        assert (await read_response(other_reader))[0] == 200
        # answered only once the first was handled
        assert len(api.bot_messages(first.id)) == 1
        await api.wait_for_bot_message(second.id, "/progress")
        writer.close()
        other_writer.close()


async def test_updates_answered_and_not_yet_parsed_are_handled_once_when_the_bot_stops(
    api: FakeBotApi, db_path: Path
) -> None:
    users = [FakeUser(2501 + n, f"Learner{n}", "en") for n in range(20)]
    settings = make_settings(
        api, db_path, webhook_url=f"http://127.0.0.1{PATH}", webhook_secret=SECRET, webhook_port=0
    )
    async with running_bot(settings) as application:
        listener = await start_webhook(
            application, settings, health.application_health(application)
        )
        assert isinstance(listener, WebhookListener)
        for n, user in enumerate(users):  # as the endpoint does after answering 200
            body = json.dumps(update_for(api, user, "/help", n + 1)).encode()
            listener.intake.put(_update_object(body), listener.intake.now())
        assert listener.intake.pending() == len(users)
        # the bot stops at once: nothing was parsed yet, and the application still handles all
        await listener.close()
    assert [len(api.bot_messages(u.id)) for u in users] == [1] * len(users)


async def test_an_update_arrives_when_its_post_came_not_when_it_was_taken(
    api: FakeBotApi, db_path: Path
) -> None:
    """Points are counted from the arrival: waiting for room or for parsing costs none."""
    now = [1_000.0]
    settings = make_settings(
        api, db_path, webhook_url=f"http://127.0.0.1{PATH}", webhook_secret=SECRET, webhook_port=0
    )
    seen: dict[int, float | None] = {}

    async def note(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        seen[update.update_id] = arrival_time()

    first, second = FakeUser(2601, "Femi", "en"), FakeUser(2602, "Tayo", "en")
    async with running_bot(settings, clock=lambda: now[0]) as application:
        application.add_handler(TypeHandler(Update, note), group=-100)
        check = health.application_health(application)
        limits = Limits(pending_updates=1, room_seconds=10)
        listener = await start_webhook(application, settings, check, limits)
        assert isinstance(listener, WebhookListener)
        try:
            api.delay("sendMessage", 1.0)  # the first holds the only room for a second
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            writer.write(post(json.dumps(update_for(api, first, "/help", 41)).encode()))
            assert (await read_response(reader))[0] == 200
            writer.write(post(json.dumps(update_for(api, second, "/help", 42)).encode()))
            await api.wait_for(lambda: listener.intake.waiting_for_room == 1)
            now[0] = 1_007.0  # taken, parsed and handled later
            assert (await read_response(reader))[0] == 200
            await api.wait_for_bot_message(second.id, "/progress")
            writer.close()
        finally:
            await listener.close()
    assert seen == {41: 1_000.0, 42: 1_000.0}


async def test_an_update_python_telegram_bot_cannot_read_is_dropped_with_a_line(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    user = FakeUser(2701, "Bisi", "en")
    async with webhook(api, db_path) as (_, listener):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        strange = {"update_id": 5, "message": {"message_id": "x", "chat": 7}}
        writer.write(post(json.dumps(strange).encode()))
        assert (await read_response(reader))[0] == 200  # an update's shape: answered first
        deep = b"[" * 2000 + b"]" * 2000
        writer.write(post(deep))
        assert (await read_response(reader))[0] == 400  # and the connection is closed
        writer.close()
        await served(api, listener.port, user, 6)
    lines = [r for r in caplog.records if "cannot read" in r.getMessage()]
    assert [r.getMessage() for r in lines] == [
        "webhook: dropped an update python-telegram-bot cannot read, KeyError"
    ]
    assert not any(r.exc_info for r in caplog.records if r.levelno >= logging.WARNING)


async def test_an_update_dropped_unread_frees_its_room_for_a_post_waiting(
    api: FakeBotApi, db_path: Path
) -> None:
    user = FakeUser(2751, "Dayo", "en")
    async with webhook(api, db_path, Limits(pending_updates=1, room_seconds=10)) as (_, listener):
        intake = listener.intake
        strange = {"update_id": 7, "message": {"message_id": "x", "chat": 7}}
        # a POST that came in the same turn as the strange one's, and runs before it is parsed
        waiting = asyncio.create_task(intake.room(10))
        intake.put(strange, intake.now())  # answered 200, not parsed yet: the only room
        await api.wait_for(lambda: intake.waiting_for_room == 1 or waiting.done())
        # it gets the room when the strange update is dropped, not 10 s later
        assert await asyncio.wait_for(waiting, timeout=3)
        assert intake.pending() == 0
        await served(api, listener.port, user, 8)


async def test_the_room_given_to_a_waiting_post_is_not_taken_by_a_newcomer_meanwhile(
    api: FakeBotApi, db_path: Path
) -> None:
    """An update handled gives its room to the first POST waiting; a POST that comes before
    that one has run again waits too, and the bound holds."""
    first, second = FakeUser(2761, "Ada", "en"), FakeUser(2762, "Obi", "en")
    limits = Limits(pending_updates=1, room_seconds=10)
    async with webhook(api, db_path, limits) as (application, listener):
        intake = listener.intake
        queue = application.update_queue
        assert isinstance(queue, UpdateQueue) and queue.on_finished is not None
        give_room = queue.on_finished
        newcomer: list[bool] = []

        def finished() -> None:
            give_room()
            if newcomer:
                return
            # a POST whose turn comes right now, before the waiting one's
            came = intake.room(10)
            try:
                came.send(None)
            except StopIteration as taken:
                newcomer.append(taken.value)
            else:
                came.close()
                newcomer.append(False)

        queue.on_finished = finished
        api.delay("sendMessage", 1.0)  # the first holds the only room for a second
        intake.put(
            _update_object(json.dumps(update_for(api, first, "/help", 1)).encode()), intake.now()
        )
        waiting = asyncio.create_task(intake.room(10))
        await api.wait_for(lambda: intake.waiting_for_room == 1)
        assert await asyncio.wait_for(waiting, timeout=5)
        assert newcomer == [False]
        intake.put(
            _update_object(json.dumps(update_for(api, second, "/help", 2)).encode()), intake.now()
        )
        await api.wait_for_bot_message(second.id, "/progress")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(st.binary(max_size=200) | JSON.map(lambda value: json.dumps(value).encode()))
def test_the_shape_check_takes_updates_and_refuses_the_rest_clearly(body: bytes) -> None:
    try:
        data: Any = _update_object(body)
    except (ValueError, TypeError, RecursionError):
        return
    assert isinstance(data, dict)
    assert isinstance(data["update_id"], int) and not isinstance(data["update_id"], bool)
    assert data == json.loads(body)


@given(st.integers(), JSON)
def test_any_object_with_an_integer_update_id_is_taken(update_id: int, rest: Any) -> None:
    body = json.dumps({"update_id": update_id, "other": rest}).encode()
    assert _update_object(body) == {"update_id": update_id, "other": rest}


def test_a_deeply_nested_body_is_refused_not_crashed() -> None:
    with pytest.raises((ValueError, TypeError, RecursionError)):
        _update_object(b"[" * 200_000 + b"]" * 200_000)
