"""Who may see which class on the dashboard.

A bot admin (`QUIZ_ADMIN_IDS`) sees every chat the bot is in or quizzes. Anyone else sees the
chats that list them among their admins, as the bot last learned it (getChatAdministrators,
refreshed when older than `ADMIN_LIST_TTL`, and chat_member updates): a candidate list only.
Opening a chat's data checks the person again with getChatMember, trusted for at most
`STATUS_TTL` seconds, so a demoted admin loses the class within that time. A chat id in a URL
is an assertion to check, never a permission.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

from telegram import Bot
from telegram.error import TelegramError

from bot.core import teachers
from storage import Storage
from storage.chat_store import KnownChat

log = logging.getLogger(__name__)

STATUS_TTL = 60.0  # seconds a getChatMember answer is trusted
ADMIN_LIST_TTL = 600.0  # seconds a chat's admin list is trusted as a candidate list
REFRESH_AT_ONCE = 20  # admin lists asked for in one listing, at most
CACHE_SIZE = 4_096  # (chat, person) statuses kept
ADMIN_STATUSES = frozenset({"creator", "administrator"})


class ClassAccess:
    def __init__(
        self, bot: Bot, storage: Storage, admin_ids: frozenset[int], clock: Callable[[], float]
    ) -> None:
        self._bot = bot
        self._storage = storage
        self._admin_ids = admin_ids
        self._clock = clock
        self._statuses: OrderedDict[tuple[int, int], tuple[float, bool]] = OrderedDict()

    def is_bot_admin(self, user_id: int) -> bool:
        return user_id in self._admin_ids

    async def classes(self, user_id: int) -> list[KnownChat]:
        """The chats this person may open, as far as the bot knows now."""
        chats = self._storage.chats
        if self.is_bot_admin(user_id):
            return await chats.present_chats()
        await self._refresh_admin_lists()
        return await chats.chats_of_admin(user_id)

    async def may_open(self, user_id: int, chat_id: int) -> bool:
        """Whether the person administers that chat now (or is a bot admin)."""
        if self.is_bot_admin(user_id):
            return True
        now = self._clock()
        key = (chat_id, user_id)
        cached = self._statuses.get(key)
        if cached is not None and now - cached[0] < STATUS_TTL:
            self._statuses.move_to_end(key)
            return cached[1]
        try:
            member = await self._bot.get_chat_member(chat_id, user_id)
        except TelegramError as error:  # a chat the bot left, a person never there
            log.info("dashboard: getChatMember for a class failed: %s", error)
            allowed = False
        else:
            allowed = str(member.status) in ADMIN_STATUSES
        self._statuses[key] = (now, allowed)
        self._statuses.move_to_end(key)
        while len(self._statuses) > CACHE_SIZE:
            self._statuses.popitem(last=False)
        await self._storage.chats.note_admin(chat_id, user_id, allowed)
        return allowed

    async def _refresh_admin_lists(self) -> None:
        """Ask Telegram again for the admin lists that are missing or old (a few at a time)."""
        now = self._clock()
        stale = [
            chat
            for chat in await self._storage.chats.present_chats()
            if chat.admins_checked_at is None or now - chat.admins_checked_at > ADMIN_LIST_TTL
        ][:REFRESH_AT_ONCE]
        await asyncio.gather(
            *(teachers.refresh_chat(self._bot, self._storage, c, now) for c in stale)
        )
