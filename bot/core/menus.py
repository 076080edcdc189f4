"""The command menus (`setMyCommands`), from the commands' declarations (`bot.core.commands.menus`):
set at start, tried again in the background when Telegram refuses them, and set for one of
the bot's admins when that admin first writes to the bot (Telegram knows no private chat with
someone who never started the bot, so their menu cannot be set before).

The menus are a convenience: a refusal is one log line and the bot serves on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import Application, MessageHandler, filters

from bot.config import Settings
from bot.core.commands import Command, Menu, MenuScope, menus
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE
from bot.core.i18n import FALLBACK, STRINGS, translate

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 600.0
# after the features' handlers (group 0), in a group of its own: it never takes an update
# from them
HANDLER_GROUP = 1


def _scope(scope: MenuScope) -> BotCommandScope:
    if scope.type == "chat":
        assert scope.chat_id is not None
        return BotCommandScopeChat(scope.chat_id)
    return {
        "default": BotCommandScopeDefault,
        "all_private_chats": BotCommandScopeAllPrivateChats,
        "all_group_chats": BotCommandScopeAllGroupChats,
        "all_chat_administrators": BotCommandScopeAllChatAdministrators,
    }[scope.type]()


async def _set(bot: Bot, menu: Menu) -> None:
    await bot.set_my_commands(
        [BotCommand(name, description) for name, description in menu.commands],
        scope=_scope(menu.scope),
        language_code=menu.language,
    )


class CommandMenus:
    """Every menu of the declared commands, for the configured admins."""

    def __init__(self, declared: Sequence[Command], settings: Settings) -> None:
        self.settings = settings
        self.menus = menus(declared, settings.admin_ids, STRINGS, translate, FALLBACK)
        # the admins whose own menu Telegram refused: set when they write to the bot
        self.waiting = filters.User(allow_empty=False)

    def install(self, application: Application[Any, QuizContext, Any, Any, Any, Any]) -> None:
        application.add_handler(
            MessageHandler(PRIVATE_MESSAGE & self.waiting, self._admin_writes),
            group=HANDLER_GROUP,
        )

    async def start(self, application: Application[Any, QuizContext, Any, Any, Any, Any]) -> None:
        """At start: every menu; what Telegram refuses is one WARNING line, then tried again
        by a JobQueue job, `commands_retry_seconds` later and twice as long each time (at
        most 10 minutes), `commands_retries` times."""
        try:
            await self._send_all(application.bot)
        except TelegramError as error:
            log.warning("command menus not set (%s); will retry in the background", error)
            self._retry(application, tries=1)

    async def _send_all(self, bot: Bot) -> None:
        for menu in self.menus:
            if menu.scope.chat_id is None:
                await _set(bot, menu)
        for admin_id in sorted(self.settings.admin_ids):
            await self._send_admin(bot, admin_id)

    async def _send_admin(self, bot: Bot, admin_id: int) -> bool:
        """An admin's own menus (a chat scope); refused (the admin has not written to the
        bot yet), they wait for the admin's first message."""
        try:
            for menu in self.menus:
                if menu.scope.chat_id == admin_id:
                    await _set(bot, menu)
        except TelegramError as error:
            log.info("admin %s: command menu set once they write to the bot (%s)", admin_id, error)
            self.waiting.add_user_ids(admin_id)
            return False
        self.waiting.remove_user_ids(admin_id)
        return True

    async def _admin_writes(self, update: Update, context: QuizContext) -> None:
        user = update.effective_user
        if user is not None and await self._send_admin(context.bot, user.id):
            log.info("admin %s: command menu set", user.id)

    def _retry(
        self, application: Application[Any, QuizContext, Any, Any, Any, Any], tries: int
    ) -> None:
        settings = self.settings

        async def again(context: QuizContext) -> None:
            try:
                await self._send_all(context.bot)
            except TelegramError as error:
                if tries >= settings.commands_retries:
                    log.warning(
                        "command menus: gave up after %d retries (%s); they are tried again at "
                        "the next start",
                        tries,
                        error,
                    )
                    return
                log.info("command menus: retry %d failed (%s)", tries, error)
                self._retry(application, tries + 1)
            else:
                log.info("command menus set, on retry %d", tries)

        assert application.job_queue is not None
        delay = min(settings.commands_retry_seconds * 2 ** (tries - 1), MAX_RETRY_SECONDS)
        application.job_queue.run_once(again, when=delay, name="command-menus")
