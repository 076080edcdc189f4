"""Who teaches: the admins of the groups and channels the bot is in, as it learns them
(`storage.chat_store`: getChatAdministrators when the bot joins a chat, chat_member updates,
an admin seen using the bot in their chat). A teacher gets, in private, the commands declared
for `Role.TEACHER`, a menu of their own and the dashboard on the chat's menu button
(`bot.core.menus`), which follow each change through `changed`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from telegram import Bot
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.core.context import QuizContext
from storage import Storage

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
    except (Forbidden, BadRequest) as error:  # removed meanwhile, or the chat is gone
        log.info("chat %s: admins not learned: %s", chat_id, error)
        return False
    except TelegramError as error:
        log.info("chat %s: getChatAdministrators failed: %s", chat_id, error)
        return False
    people = {admin.user.id for admin in admins if not admin.user.is_bot}
    await storage.chats.set_admins(chat_id, people, now)
    return True
