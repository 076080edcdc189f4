"""Who teaches: the admins of the groups and channels the bot is in, as it learns them
(`storage.chat_store`: getChatAdministrators when the bot joins a chat, chat_member updates,
an admin seen using the bot in their chat). A teacher gets, in private, the commands declared
for `Role.TEACHER`, a menu of their own and the dashboard on the chat's menu button
(`bot.core.menus`), which follow each change through `changed`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from telegram import Bot, ChatMember
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.core.context import QuizContext
from storage import Storage
from storage.chat_store import KnownChat

log = logging.getLogger(__name__)

# in bot_data: what brings the teachers' menus up to date (`bot.core.menus.CommandMenus`)
MENUS_KEY = "teacher-menus"


def changed(context: QuizContext) -> None:
    """Someone may have become a teacher or stopped being one: their menus follow, in the
    background (never in the handler that learned it)."""
    follow: Callable[[Any], None] | None = context.bot_data.get(MENUS_KEY)
    if follow is not None:
        follow(context.application)


async def learn_admins(bot: Bot, storage: Storage, chat_id: int, now: float) -> bool:
    """Ask Telegram for a chat's admins and keep them; False when it would not say."""
    try:
        admins = await bot.get_chat_administrators(chat_id)
    except TelegramError as error:  # removed meanwhile, the chat gone, or Telegram failing
        log.info("chat %s: admins not learned: %s", chat_id, error)
        return False
    await _keep_admins(storage, chat_id, admins, now)
    return True


async def refresh_chat(bot: Bot, storage: Storage, chat: KnownChat, now: float) -> None:
    """Ask Telegram again about a chat known from earlier: what it is when its title is
    unknown, and its admins. A chat the bot can no longer see (removed, gone) is noted as
    left; a failure of Telegram's changes nothing."""
    chats = storage.chats
    try:
        if not chat.title:
            found = await bot.get_chat(chat.chat_id)
            await chats.note_chat(chat.chat_id, found.type, found.title or "", "member", now)
        admins = await bot.get_chat_administrators(chat.chat_id)
    except (Forbidden, BadRequest) as error:
        log.info("chat %s: no longer reachable: %s", chat.chat_id, error)
        await chats.note_chat(chat.chat_id, chat.type, chat.title, "left", now)
        return
    except TelegramError as error:
        log.info("chat %s: not asked again: %s", chat.chat_id, error)
        return
    await _keep_admins(storage, chat.chat_id, admins, now)


async def _keep_admins(
    storage: Storage, chat_id: int, admins: Sequence[ChatMember], now: float
) -> None:
    people = {admin.user.id for admin in admins if not admin.user.is_bot}
    await storage.chats.set_admins(chat_id, people, now)


async def learn_unknown_admins(
    bot: Bot, storage: Storage, now: float, at_most: int, tried: set[int]
) -> bool:
    """Learn the admins of up to `at_most` chats the bot is in whose admins it never asked for
    (chats it joined before it kept them), but those `tried` already (each is added to it);
    True when more remain."""
    unknown = [
        chat
        for chat in await storage.chats.present_chats()
        if chat.admins_checked_at is None and chat.chat_id not in tried
    ]
    tried.update(chat.chat_id for chat in unknown[:at_most])
    await asyncio.gather(*(refresh_chat(bot, storage, chat, now) for chat in unknown[:at_most]))
    return len(unknown) > at_most
