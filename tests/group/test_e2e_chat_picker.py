"""Telegram's chat picker for the commands that need a chat: `/push`, `/schedule` and, in
private, `/assign`. The chat picked is checked with getChatMember (its admins only), the
request is carried out once, by the person who made it; numeric ids and @names still work."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, GROUP_ID, Room, room_settings

GROUPS, CHANNELS = "👥 Pick a group", "📣 Pick a channel"
CHANNEL_ID = -100900


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """Ada is one of the bot's admins; Bo is not."""
    return room_settings(api, tmp_path, admin_ids=frozenset({ADA.id}))


def _rows(settings: Settings, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(sql).fetchall()


async def test_push_through_the_picker_to_a_group_and_a_channel(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={ADA.id}))
    room.chat.members = {BO.id}
    channel = api.group(CHANNEL_ID, "Study news", admins={ADA.id}, type="channel")
    other = api.group(-100901, "Not mine", admins=set())
    ada = Learner(api, ADA)
    async with running_bot(settings):
        asked = await ada.send("/push tiny", "Where should the next question")
        assert "Tiny" in asked.text
        buttons = api.chat_buttons(ADA)
        assert [b["text"] for b in buttons] == [GROUPS, CHANNELS]
        groups, channels = (b["request_chat"] for b in buttons)
        assert (groups["chat_is_channel"], groups["bot_is_member"], groups["request_title"]) == (
            False, True, True,
        )  # fmt: skip
        assert channels["chat_is_channel"] is True and channels["request_title"] is True
        assert channels["bot_administrator_rights"]["can_post_messages"] is True
        assert {c.id for c in api.pickable(ADA, groups)} == {GROUP_ID, other.id}
        assert {c.id for c in api.pickable(ADA, channels)} == {CHANNEL_ID}

        # a group she is only a member of: refused, the picker stays for another pick
        other.members = {ADA.id}
        seen = len(ada.messages())
        api.share_chat(ADA, other, GROUPS)
        refused = await api.wait_for_bot_message(ADA.id, "not an admin of Not mine", after=seen)
        assert api.bot_messages(other.id) == [] and api.chat_buttons(ADA)
        assert "Nothing was done" not in refused.text

        seen = len(ada.messages())
        api.share_chat(ADA, room.chat, GROUPS)
        done = await api.wait_for_bot_message(ADA.id, "posted to Study group", after=seen)
        assert "Question 1 of 3" in done.text
        assert ADA.id not in api.keyboards  # the picker is taken away
        await api.wait_for_bot_message(GROUP_ID, "Two plus two?")

        await ada.send("/push tiny", "Where should")
        seen = len(ada.messages())
        api.share_chat(ADA, channel, CHANNELS)
        await api.wait_for_bot_message(ADA.id, "posted to Study news", after=seen)
        await api.wait_for_bot_message(CHANNEL_ID, "Two plus two?")

        # a title is no chat: said so, and the picker offered
        named = await ada.send("/push tiny Study group", "cannot find a chat by its name")
        assert "Study group" in named.text and "Where should" in named.text
        # an id still works
        await ada.send(f"/push tiny {GROUP_ID}", "Question 2 of 3")


async def test_a_pick_is_the_askers_once_and_only_for_its_own_request(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={ADA.id, BO.id}))
    ada, bo = Learner(api, ADA), Learner(api, BO)
    async with running_bot(settings):
        await bo.send("/start", "")
        await ada.send("/push tiny", "Where should")
        [button] = [b for b in api.chat_buttons(ADA) if b["text"] == GROUPS]
        request_id = button["request_chat"]["request_id"]
        # Bo sends a pick naming Ada's request (a forged client): nothing is posted
        forged = _shared(api, BO, request_id, room.chat.id)
        api.push_update({"message": forged})
        await api.wait_for_bot_message(BO.id, "no longer open")
        api.share_chat(ADA, room.chat, GROUPS)
        await api.wait_for_bot_message(ADA.id, "posted to Study group")
        # the same pick again: the request was carried out already
        seen = len(ada.messages())
        api.push_update({"message": _shared(api, ADA, request_id, room.chat.id)})
        await api.wait_for_bot_message(ADA.id, "no longer open", after=seen)
        # an id the bot never made (its action bits name nothing)
        seen = len(ada.messages())
        api.push_update({"message": _shared(api, ADA, 15, room.chat.id)})
        await api.wait_for_bot_message(ADA.id, "no longer open", after=seen)
    assert len([m for m in api.bot_messages(GROUP_ID) if "Two plus two?" in m.text]) == 1


def _shared(api: FakeBotApi, user: FakeUser, request_id: int, chat_id: int) -> dict[str, object]:
    """A message with `chat_shared`, as a client would send it, whatever the keyboard."""
    chat = api.private_chat(user)
    return {
        "message_id": 9000 + request_id % 1000,
        "date": 1_800_000_000,
        "chat": chat.to_dict(),
        "from": user.to_dict(),
        "chat_shared": {"request_id": request_id, "chat_id": chat_id, "title": "x"},
    }


async def test_schedule_through_the_picker(api: FakeBotApi, settings: Settings) -> None:
    channel = api.group(CHANNEL_ID, "Study news", admins={ADA.id}, type="channel")
    ada = Learner(api, ADA)
    async with running_bot(settings):
        await ada.send("/schedule tiny 25:00", "/schedule")
        await ada.send("/schedule tiny 07:30", "every day at 07:30 UTC")
        api.share_chat(ADA, channel, CHANNELS)
        await api.wait_for_bot_message(ADA.id, "goes to Study news")
        assert _rows(settings, "SELECT chat, minute_of_day FROM push_schedules") == [
            (str(CHANNEL_ID), 450)
        ]
        await ada.send("/schedule tiny off", "should stop getting daily questions")
        seen = len(ada.messages())
        api.share_chat(ADA, channel, CHANNELS)
        await api.wait_for_bot_message(ADA.id, "No more daily questions", after=seen)
    assert _rows(settings, "SELECT chat FROM push_schedules") == []


async def test_a_group_admin_sets_homework_from_private_for_a_picked_group(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={BO.id}))
    bo = Learner(api, BO)
    async with running_bot(settings):
        await room.say(BO, "/timezone Africa/Lagos", "Africa/Lagos")
        await bo.send("/assign tiny soon", "cannot read")
        await bo.send("/assign tiny", "Which deadline?")
        asked = await bo.send("/assign tiny 2027-01-02 10:00 best", "Which group gets the homework")
        assert "Tiny" in asked.text
        assert [b["text"] for b in api.chat_buttons(BO)] == [GROUPS]  # homework: groups only
        api.share_chat(BO, room.chat)
        done = await api.wait_for_bot_message(BO.id, "is set in Study group")
        assert "2027-01-02 10:00 (Africa/Lagos)" in done.text
        post = await api.wait_for_bot_message(GROUP_ID, "Homework #1")
        assert "best attempt" in post.text and post.buttons
    assert _rows(settings, "SELECT chat_id, created_by, counts FROM assignments") == [
        (GROUP_ID, BO.id, "best")
    ]


async def test_forgetme_drops_the_requests_waiting_for_a_pick(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    ada = Learner(api, ADA)
    async with running_bot(settings):
        await ada.send("/push tiny", "Where should")
        assert _rows(settings, "SELECT user_id FROM chat_requests") == [(ADA.id,)]
        ask = await ada.send("/forgetme", "This deletes everything")
        await ada.tap(ask, next(b["callback_data"] for b in ask.buttons if "Delete" in b["text"]))
        await api.wait_for(lambda: not _rows(settings, "SELECT * FROM chat_requests") or None)
        seen = len(ada.messages())
        api.share_chat(ADA, room.chat, GROUPS)  # the keyboard she still has
        await api.wait_for_bot_message(ADA.id, "no longer open", after=seen)
    assert api.bot_messages(GROUP_ID) == []
