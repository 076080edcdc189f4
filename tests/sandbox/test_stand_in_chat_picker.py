"""The stand-in's chat picker, as Telegram's: `KeyboardButtonRequestChat` buttons in a reply
keyboard (their fields checked, private chats only), and a pick, which only a chat that
satisfies the button's request can be, arriving as a message with `chat_shared`."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp import ClientSession
from telegram import (
    Bot,
    ChatAdministratorRights,
    KeyboardButton,
    KeyboardButtonRequestChat,
    ReplyKeyboardMarkup,
)
from telegram.error import BadRequest

from bot.sandbox import FakeBotApi, FakeUser

POSTER = ChatAdministratorRights(
    False, False, False, False, False, False, False, False, False, False, False,
    can_post_messages=True,
)  # fmt: skip
GROUPS = KeyboardButtonRequestChat(1, False, bot_is_member=True, request_title=True)
CHANNELS = KeyboardButtonRequestChat(2, True, bot_administrator_rights=POSTER, request_title=True)


def _picker(*requests: KeyboardButtonRequestChat) -> ReplyKeyboardMarkup:
    return ReplyKeyboardMarkup(
        [[KeyboardButton(f"pick {r.request_id}", request_chat=r)] for r in requests]
    )


async def test_a_pick_arrives_as_chat_shared_with_the_title_asked_for(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    group = api.group(-100, "Study group", admins={user.id})
    channel = api.group(-200, "News", admins={user.id}, type="channel")
    await client.send_message(user.id, "Where?", reply_markup=_picker(GROUPS, CHANNELS))
    assert [c.id for c in api.pickable(user, api.chat_buttons(user)[0]["request_chat"])] == [-100]
    assert [c.id for c in api.pickable(user, api.chat_buttons(user)[1]["request_chat"])] == [-200]
    api.share_chat(user, group, "pick 1")
    api.share_chat(user, channel, "pick 2")
    updates = await client.get_updates()
    shared = [u.message.chat_shared for u in updates if u.message is not None]
    assert [(s.request_id, s.chat_id, s.title) for s in shared if s is not None] == [
        (1, -100, "Study group"),
        (2, -200, "News"),
    ]


async def test_only_a_chat_that_satisfies_the_request_can_be_picked(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    mine = api.group(-100, "mine", admins={user.id})
    closed = api.group(-101, "not in it", admins=set())
    closed.members = set()
    gone = api.group(-102, "kicked the bot", admins={user.id})
    api.kick_bot(gone)
    channel = api.group(-200, "News", admins={user.id}, type="channel")
    silent = api.group(-201, "bot may not post", admins={user.id}, type="channel")
    api.restrict_bot(silent)
    await client.send_message(user.id, "Where?", reply_markup=_picker(GROUPS, CHANNELS))
    for chat, button in ((closed, "pick 1"), (gone, "pick 1"), (channel, "pick 1"),
                         (mine, "pick 2"), (silent, "pick 2")):  # fmt: skip
        with pytest.raises(AssertionError, match="cannot be picked"):
            api.share_chat(user, chat, button)
    # a group in which the bot must be an administrator: it is one only where it was made one
    admin_only = KeyboardButtonRequestChat(3, False, bot_administrator_rights=POSTER)
    await client.send_message(user.id, "Where?", reply_markup=_picker(admin_only))
    with pytest.raises(AssertionError, match="cannot be picked"):
        api.share_chat(user, mine)
    mine.bot_rights = {"can_post_messages"}
    api.share_chat(user, mine)


async def test_a_request_chat_button_is_for_private_chats_only(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    group = api.group(-100, "Study group", admins={user.id})
    with pytest.raises(BadRequest, match="(?i)button_type_invalid"):
        await client.send_message(group.id, "Where?", reply_markup=_picker(GROUPS))
    assert group.id not in api.keyboards


def _raw(request: dict[str, Any]) -> dict[str, Any]:
    return {"keyboard": [[{"text": "pick", "request_chat": request}]]}


RIGHTS = {name: False for name in POSTER.to_dict()} | {"can_post_messages": True}


def _buttons(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"keyboard": [list(buttons)]}


GROUP = {"request_id": 1, "chat_is_channel": False}
NO_RIGHTS = {"request_id": 1, "chat_is_channel": True, "bot_administrator_rights": {}}


@pytest.mark.parametrize(
    ("markup", "refusal"),
    [
        (_raw({"chat_is_channel": False}), 'Field "request_id"'),
        (_raw({"request_id": 2**31, "chat_is_channel": False}), 'Field "request_id"'),
        (_raw({"request_id": "1", "chat_is_channel": False}), 'Field "request_id"'),
        (_raw({"request_id": 1}), 'Field "chat_is_channel"'),
        (_raw({"request_id": 1, "chat_is_channel": "yes"}), 'Field "chat_is_channel"'),
        (_raw({**GROUP, "request_title": 1}), "request_title"),
        (_raw(NO_RIGHTS | {"bot_administrator_rights": {"can_post": True}}), '"is_anonymous"'),
        (_raw({**GROUP, "chat_type": "group"}), "unknown field"),
        (
            _buttons(
                {"text": "a", "request_chat": {**GROUP, "request_id": 7}},
                {"text": "b", "request_chat": {**GROUP, "request_id": 7}},
            ),
            "BUTTON_ID_INVALID",
        ),
        (_buttons({"text": "", "request_chat": GROUP}), 'Field "text"'),
        (_buttons({"text": "x", "request_contact": True, "request_chat": GROUP}), "TYPE_INVALID"),
    ],
)
async def test_a_malformed_chat_button_is_refused(
    api: FakeBotApi, user: FakeUser, markup: dict[str, Any], refusal: str
) -> None:
    answer = await _send(api, user, markup)
    assert answer["ok"] is False and refusal in answer["description"], answer
    assert user.id not in api.keyboards
    good = _raw({"request_id": 5, "chat_is_channel": True, "bot_administrator_rights": RIGHTS})
    assert (await _send(api, user, good))["ok"] is True
    assert api.chat_buttons(user)[0]["request_chat"]["request_id"] == 5


async def _send(api: FakeBotApi, user: FakeUser, markup: dict[str, Any]) -> dict[str, Any]:
    """sendMessage with this reply markup as JSON, as any client may send it."""
    body = {"chat_id": user.id, "text": "Where?", "reply_markup": markup}
    url = f"{api.base_url}{api.token}/sendMessage"
    async with ClientSession() as session, session.post(url, json=body) as response:
        answer: dict[str, Any] = await response.json()
    return answer
