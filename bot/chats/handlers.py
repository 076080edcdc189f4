"""`/language` and `/timezone` sent in a group: the group's own, for its admins (in a private
chat the learner's own commands answer them)."""

from __future__ import annotations

from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import BaseHandler

from bot.core import arguments, callbacks, commands, quiz_menus
from bot.core.access import chat_admin_only
from bot.core.arguments import Refusal
from bot.core.commands import Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.handlers import TapHandler, edit_in_place
from bot.core.i18n import Locale, language_name, ui_languages
from content.rules import parse_timezone


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
    """`/timezone Area/City` in a group: the zone its homework deadlines are read in; a place
    that is no zone's name gets the zones it may mean as buttons (for its admins)."""
    services, locale = context.services, context.locale
    stored = await services.storage.chats.settings(context.chat_id)
    wanted = arguments.timezone(context.args, stored.timezone or services.settings.default_timezone)
    if isinstance(wanted, Refusal):
        suggested = quiz_menus.zone_suggestions(
            context.args or (), callbacks.SetChatTimezone, locale
        )
        if suggested is None or wanted.problem is None:
            await context.say(wanted.text(locale))
        else:
            await context.say(suggested.text, suggested.markup)
        return
    await services.storage.chats.set_timezone(context.chat_id, wanted, services.clock())
    await context.say(locale.t("group_timezone_set", timezone=wanted))


@chat_admin_only
async def on_timezone(
    query: CallbackQuery, context: QuizContext, tap: callbacks.SetChatTimezone
) -> None:
    """A chat admin tapped a suggested zone: the group's now."""
    services, locale = context.services, context.locale
    if parse_timezone(tap.zone) != tap.zone:
        await query.answer(locale.t("stale_button"))
        return
    await services.storage.chats.set_timezone(context.chat_id, tap.zone, services.clock())
    await query.answer()
    await edit_in_place(query, locale.t("group_timezone_set", timezone=tap.zone))


ADMIN, GROUP, SETTINGS = Role.CHAT_ADMIN, Where.GROUP, Task.SETTINGS
COMMANDS = (
    Command("language", language, ADMIN, GROUP, SETTINGS, "<code>", "yo", key="cmd_language_group"),
    Command(
        "timezone", timezone, ADMIN, GROUP, SETTINGS, "<Area/City>", "Africa/Lagos",
        key="cmd_timezone_group",
    ),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return [*commands.handlers(COMMANDS), TapHandler(callbacks.SetChatTimezone, on_timezone)]
