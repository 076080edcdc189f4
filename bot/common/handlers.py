"""What every chat gets: /help, /whoami, answers to unknown commands and stray text, the error
handler."""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from typing import Any

from telegram import CallbackQuery, ReplyKeyboardRemove, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot.common import render
from bot.core import arguments, callbacks, commands, faults
from bot.core.access import controls_chat, is_bot_admin, is_teacher
from bot.core.commands import Audience, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.handlers import GROUP_MESSAGE, PRIVATE_MESSAGE, TapHandler
from bot.core.i18n import translate
from storage import DatabaseLost, StorageError

log = logging.getLogger(__name__)


def _bot_link(context: QuizContext) -> str:
    return html.escape(f"https://t.me/{context.bot.username}")


async def _audience(update: Update, context: QuizContext) -> Audience:
    """Who asks, where: in private one of the bot's admins, a teacher (an admin of a chat the
    bot is in) or a learner; in a group one who may control it (its admins, the bot's) or a
    member."""
    chat = update.effective_chat
    if chat is not None and chat.type == ChatType.PRIVATE:
        if is_bot_admin(context):
            return Audience.BOT_ADMIN
        return Audience.TEACHER if await is_teacher(context) else Audience.LEARNER
    return Audience.CHAT_ADMIN if await controls_chat(context) else Audience.MEMBER


async def help_command(update: Update, context: QuizContext) -> None:
    """What this person may use here, by task, each command with an example."""
    audience = await _audience(update, context)
    message = render.help_message(
        commands.declared(context),
        audience,
        arguments.example_quiz(context.services.catalog),
        context.locale,
        _bot_link(context),
    )
    await context.say(message.text, message.markup)


async def on_help_topic(
    query: CallbackQuery, context: QuizContext, tap: callbacks.HelpTopic
) -> None:
    """A topic of /help pressed: its page in place of the overview, or the overview again."""
    declared = commands.declared(context)
    audience = next((a for a in Audience if a.value == tap.audience), None)
    task = next((t for t in Task if t.value == tap.task), None)
    if audience is None or (task is None and tap.task != render.OVERVIEW):
        await query.answer(context.locale.t("stale_button"))
        return
    if audience.where is Where.PRIVATE:  # the presser's own: never more than they may use
        audience = await _audience(context.current_update, context)
    await query.answer()
    if task is None:
        page = render.help_overview(declared, audience, context.locale, _bot_link(context))
    else:
        quiz_id = arguments.example_quiz(context.services.catalog)
        page = render.help_topic(declared, audience, task, quiz_id, context.locale)
    await faults.edit_quietly(query, page)


async def whoami(update: Update, context: QuizContext) -> None:
    """`/whoami`: the person's Telegram id; to an admin in a group, the chat's id too."""
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None  # a command
    private = chat.type == ChatType.PRIVATE
    sender_chat = message.sender_chat if message is not None else None
    text = render.whoami(
        user.id if user is not None else None,
        chat.id,
        private=private,
        admin=not private and await controls_chat(context),
        bot_admin=is_bot_admin(context) and sender_chat is None,
        sender_chat_id=sender_chat.id if sender_chat is not None else None,
        locale=context.locale,
    )
    await context.say(text)


async def private_command_elsewhere(update: Update, context: QuizContext) -> None:
    """A private-chat command sent in a group: point to the private chat, change nothing."""
    await context.say(context.locale.t("private_only", link=_bot_link(context)))


async def unknown_command(update: Update, context: QuizContext) -> None:
    await context.say(context.locale.t("unknown_command"))


async def plain_text(update: Update, context: QuizContext) -> None:
    await context.say(context.locale.t("plain_text"))


async def stale_pick(update: Update, context: QuizContext) -> None:
    """A chat picked with a picker no feature took: not one the bot showed (or forged)."""
    await context.bot.send_message(
        context.chat_id, context.locale.t("pick_expired"), reply_markup=ReplyKeyboardRemove()
    )


async def stale_button(update: Update, context: QuizContext) -> None:
    """A button no handler took: not ours, forged, or of a version gone by."""
    await context.answer(context.locale.t("stale_button"))


COMMANDS = (
    Command("help", help_command, Role.LEARNER, Where.PRIVATE | Where.GROUP, Task.SETTINGS),
    Command("whoami", whoami, Role.LEARNER, Where.PRIVATE | Where.GROUP, Task.SETTINGS),
)


def handlers(declared: Sequence[Command]) -> list[BaseHandler[Update, QuizContext, Any]]:
    """Registered after the features' handlers: they catch what those did not take. A
    learner's command that works in private only is answered in a group with a pointer to
    the private chat."""
    return [
        *commands.handlers(COMMANDS),
        CommandHandler(
            commands.private_only(declared), private_command_elsewhere, filters=GROUP_MESSAGE
        ),
        TapHandler(callbacks.HelpTopic, on_help_topic),
        MessageHandler(filters.COMMAND & PRIVATE_MESSAGE, unknown_command),
        MessageHandler(filters.TEXT & ~filters.COMMAND & PRIVATE_MESSAGE, plain_text),
        MessageHandler(filters.StatusUpdate.CHAT_SHARED & PRIVATE_MESSAGE, stale_pick),
        CallbackQueryHandler(stale_button),
    ]


async def on_error(update: object, context: QuizContext) -> None:
    """Log the failure with its update; tell the person when it was ours to tell."""
    error = context.error
    if isinstance(error, TelegramError) and faults.classify(error) is not faults.Fault.REJECTED:
        await _telegram_fault(update, context, error)
        return
    if isinstance(error, DatabaseLost) and not isinstance(update, Update):
        log.info("job not completed: %s", error)  # the loss itself was logged once, CRITICAL
        return
    if not isinstance(update, Update) or not isinstance(error, StorageError):
        log.error(
            "error while handling update %s",
            update.to_dict() if isinstance(update, Update) else update,
            exc_info=error,
        )
        return
    if isinstance(error, DatabaseLost):
        log.info("update %s not completed: %s", update.update_id, error)
    elif error.refused:  # not a bug but the database refusing (full, read-only): one line
        log.error(
            "storage error, the database refused; update %s in chat %s not completed: %s",
            update.update_id,
            update.effective_chat.id if update.effective_chat else None,
            error,
        )
    else:
        log.error("storage error while handling update %s", update.update_id, exc_info=error)
    language = update.effective_user.language_code if update.effective_user else None
    key = "storage_lost" if isinstance(error, DatabaseLost) else "storage_error"
    text = translate((language or "en").split("-")[0], key)
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        elif update.effective_chat is not None:
            await context.bot.send_message(update.effective_chat.id, text)
    except Exception:
        log.exception("could not tell the user about the storage error")


async def _telegram_fault(update: object, context: QuizContext, error: TelegramError) -> None:
    """A fault of Telegram or of a chat, not a bug: one line, no traceback. Only the private
    chat that refused is marked as having blocked the bot, never the person whose update led
    to the call (an admin whose /groupquiz meets a group that removed the bot)."""
    what = f"update {update.update_id}" if isinstance(update, Update) else "a job"
    fault = faults.classify(error)
    if fault is not faults.Fault.CHAT_REFUSES:
        log.warning("%s not completed: %s", what, faults.describe(error))
        return
    user_id = faults.refusing_user(error)
    if user_id is None:
        log.info("%s not completed: %s", what, faults.describe(error))
        return
    log.info("user %s refuses the bot; marked inactive: %s", user_id, faults.describe(error))
    try:
        services = context.services
        await services.storage.learners.set_active(user_id, False, services.clock())
    except StorageError:
        log.exception("could not mark user inactive")
