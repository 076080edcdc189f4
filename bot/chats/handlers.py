"""`/language` and `/timezone` sent in a group: the group's own, for its admins (in a private
chat the learner's own commands answer them)."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import BaseHandler

from bot.core import arguments, commands
from bot.core.arguments import Refusal
from bot.core.commands import Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.i18n import Locale, language_name, ui_languages


async def language(update: Update, context: QuizContext) -> None:
    """`/language <code>`: the language the bot posts in here."""
    services = context.services
    choices = sorted(ui_languages() | services.catalog.languages)
    current = language_name(context.locale.language)
    wanted = arguments.chat_language(context.args, choices, current)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(context.locale))
        return
    await services.storage.chats.set_language(context.chat_id, wanted, services.clock())
    done = Locale(wanted, services.settings.default_language)
    await context.say(done.t("group_language_set", language=language_name(wanted)))


async def timezone(update: Update, context: QuizContext) -> None:
    """`/timezone Area/City` in a group: the zone its homework deadlines are read in."""
    services = context.services
    stored = await services.storage.chats.settings(context.chat_id)
    wanted = arguments.timezone(context.args, stored.timezone or services.settings.default_timezone)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(context.locale))
        return
    await services.storage.chats.set_timezone(context.chat_id, wanted, services.clock())
    await context.say(context.locale.t("group_timezone_set", timezone=wanted))


ADMIN, GROUP, SETTINGS = Role.CHAT_ADMIN, Where.GROUP, Task.SETTINGS
COMMANDS = (
    Command("language", language, ADMIN, GROUP, SETTINGS, "<code>", "yo", key="cmd_language_group"),
    Command(
        "timezone", timezone, ADMIN, GROUP, SETTINGS, "<Area/City>", "Africa/Lagos",
        key="cmd_timezone_group",
    ),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return commands.handlers(COMMANDS)
