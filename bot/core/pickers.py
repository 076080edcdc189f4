"""Telegram's chat picker, for commands that need a chat and were given none.

`/push week-3` in private names no chat: the command keeps what it will do (`ask`: the
person, what for, its details, in SQLite, as `chat_requests`) and answers with a reply
keyboard of `KeyboardButtonRequestChat` buttons, one for the person's groups (the bot a
member) and one for their channels (the bot an administrator that may post). Telegram's app
lists only the chats that fit; the person picks one and Telegram sends a message with
`chat_shared` (the button's request id, the chat's id and title). `ChatPickHandler`
(bot/core/handlers.py) reads which request it answers, checks with getChatMember that the
person administers that chat, and hands it to the feature that asked; what the feature
answers is sent with the keyboard taken away.

A request id is a signed 32-bit number: `(request number << 4) | (action << 1) | channel`, so
the handler of each action knows its picks without a look-up, and the two buttons of one
keyboard differ (Telegram wants them unique in a message)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from telegram import (
    ChatAdministratorRights,
    KeyboardButton,
    KeyboardButtonRequestChat,
    ReplyKeyboardMarkup,
)

from bot.core.context import QuizContext
from bot.core.i18n import Locale

MAX_REQUEST_NUMBER = 2**27 - 1  # what fits a signed 32-bit request id with the low 4 bits


class PickFor(IntEnum):
    """What a picked chat is for: the command that asked."""

    PUSH = 1
    SCHEDULE = 2
    ASSIGN = 3


@dataclass(frozen=True)
class RequestId:
    number: int  # the stored request (`chat_requests.id`)
    action: PickFor
    channel: bool  # the channels' button (else the groups')

    def encode(self) -> int:
        return (self.number << 4) | (self.action << 1) | int(self.channel)

    @classmethod
    def decode(cls, value: int) -> RequestId | None:
        """The request id a pick names, or None for one the bot never made."""
        action = (value >> 1) & 0b111
        if value <= 0 or value >> 4 > MAX_REQUEST_NUMBER or action not in _ACTIONS:
            return None
        return cls(value >> 4, PickFor(action), bool(value & 1))


_ACTIONS = frozenset(action.value for action in PickFor)


@dataclass(frozen=True)
class Picked:
    """A chat picked for a request, checked: the person administers it."""

    chat_id: int
    title: str  # as Telegram gave it (plain text: escape it to show it)
    channel: bool
    details: dict[str, Any]  # what the command kept for this moment


# the bot's rights a channel must have given it: posting
POSTER = ChatAdministratorRights(
    is_anonymous=False, can_manage_chat=False, can_delete_messages=False,
    can_manage_video_chats=False, can_restrict_members=False, can_promote_members=False,
    can_change_info=False, can_invite_users=False, can_post_stories=False,
    can_edit_stories=False, can_delete_stories=False, can_post_messages=True,
)  # fmt: skip


def keyboard(number: int, action: PickFor, locale: Locale, channels: bool) -> ReplyKeyboardMarkup:
    """The picker: a button for a group (the bot in it) and, with `channels`, one for a
    channel (the bot allowed to post there)."""
    groups = KeyboardButtonRequestChat(
        RequestId(number, action, channel=False).encode(),
        chat_is_channel=False,
        bot_is_member=True,
        request_title=True,
    )
    rows = [[KeyboardButton(locale.t("button_pick_group"), request_chat=groups)]]
    if channels:
        posting = KeyboardButtonRequestChat(
            RequestId(number, action, channel=True).encode(),
            chat_is_channel=True,
            bot_administrator_rights=POSTER,
            request_title=True,
        )
        rows.append([KeyboardButton(locale.t("button_pick_channel"), request_chat=posting)])
    return ReplyKeyboardMarkup(
        rows,
        resize_keyboard=True,
        one_time_keyboard=True,
        input_field_placeholder=locale.t("pick_placeholder"),
    )


async def ask(
    context: QuizContext, action: PickFor, details: dict[str, Any], text: str, channels: bool
) -> None:
    """Keep what the command will do with a chat, and show the picker under `text`."""
    services = context.services
    number = await services.storage.chats.open_request(
        context.learner.user_id, action.name.lower(), json.dumps(details), services.clock()
    )
    await context.bot.send_message(
        context.chat_id, text, reply_markup=keyboard(number, action, context.locale, channels)
    )
