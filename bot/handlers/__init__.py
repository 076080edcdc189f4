"""Handlers, one module per audience; `filters` shared by them."""

from __future__ import annotations

from telegram import Message
from telegram.ext import filters


class _HasSender(filters.MessageFilter):
    """A message sent by a person (not a channel post or an anonymous sender chat)."""

    def filter(self, message: Message) -> bool:
        return message.from_user is not None and message.sender_chat is None


USER_MESSAGE = filters.UpdateType.MESSAGE & _HasSender()
PRIVATE_MESSAGE = USER_MESSAGE & filters.ChatType.PRIVATE
GROUP_MESSAGE = USER_MESSAGE & filters.ChatType.GROUPS
