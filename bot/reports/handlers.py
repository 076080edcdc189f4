"""What a group quiz leaves behind: a member's press of "Review what you missed"; `/report` in
a group (chat admins: the file in private), its deep link for an admin who cannot be written
to (anonymous, or never started the bot), and `/report <quiz id>` for the bot's admins."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import BaseHandler

from bot.core import arguments, commands, deeplinks, faults
from bot.core.access import is_chat_admin, is_member
from bot.core.arguments import Refusal
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.deeplinks import MissedReview, ReportFile
from bot.core.handlers import StartLinkHandler
from bot.reports import flow
from storage.group_store import GroupSession

log = logging.getLogger(__name__)


async def on_missed(update: Update, context: QuizContext, link: MissedReview) -> None:
    """A member pressed "Review what you missed" under a group quiz's results."""
    services, locale, learner = context.services, context.locale, context.learner
    session = await _linked_session(context, link.session_id)
    if session is None:
        return
    if session.running:
        await context.say(locale.t("missed_running"))
        return
    member = await _telegram_says(context, is_member(context, session.chat_id, learner.user_id))
    if member is None:
        return
    if not member:
        log.info("a missed-questions link of session %s refused: not a member", session.id)
        await context.say(locale.t("missed_not_member"))
        return
    found = await flow.missed(services, session, learner.user_id)
    await flow.open_missed(context.bot, services, context.chat_id, learner.user_id, found, locale)


async def report(update: Update, context: QuizContext) -> None:
    """`/report` in a group: the current or last quiz's report, to the admin in private."""
    services, locale = context.services, context.locale
    session = await services.storage.groups.latest_session(context.chat_id, context.thread_id)
    if session is None:
        await context.say(locale.t("report_nothing"))
        return
    message = update.message or update.channel_post
    user = update.effective_user
    if user is None or (message is not None and message.sender_chat is not None):
        await _offer_link(context, session, "report_anonymous")  # no private chat to write to
        return
    _, own = await services.look_up(user)  # in private, their language, not the group's
    built = await flow.session_report(services, session, own)
    try:
        await flow.send_report(context.bot, user.id, built)
    except TelegramError as error:
        if faults.classify(error) is not faults.Fault.CHAT_REFUSES:
            raise
        log.info("report of session %s: admin %s not reachable in private", session.id, user.id)
        await _offer_link(context, session, "report_start_first")
        return
    await context.say(locale.t("report_sent_privately"))


async def _linked_session(context: QuizContext, session_id: int) -> GroupSession | None:
    """The group quiz a link names; None, once said, when it is no quiz of a group (any more)."""
    session = await context.services.storage.groups.get_session(session_id)
    if session is None or session.posted:
        await context.say(context.locale.t("link_invalid"))
        return None
    return session


async def _telegram_says(context: QuizContext, check: Awaitable[bool]) -> bool | None:
    """What Telegram answers about someone in a chat; no when it does not know them there (or
    that chat any more); None, once said, when it could not answer now."""
    try:
        return await check
    except TelegramError as error:
        if not faults.classify(error).permanent:
            await context.say(context.locale.t("member_check_failed"))
            return None
        return False


async def _offer_link(context: QuizContext, session: GroupSession, key: str) -> None:
    """A deep link in the group that a chat admin presses to get the report in private."""
    services = context.services
    payload = services.links.encode(ReportFile(session.id), services.clock())
    link = deeplinks.url(context.bot.username, payload)
    button = InlineKeyboardButton(context.locale.t("button_report_private"), url=link)
    await context.say(context.locale.t(key), InlineKeyboardMarkup([[button]]))


async def on_report_link(update: Update, context: QuizContext, link: ReportFile) -> None:
    """An admin pressed the group's link to receive a report: still a chat admin, now?"""
    services, locale, learner = context.services, context.locale, context.learner
    session = await _linked_session(context, link.session_id)
    if session is None:
        return
    admin = await _telegram_says(context, is_chat_admin(context, session.chat_id, learner.user_id))
    if admin is None:
        return
    if not admin:
        await context.say(locale.t("report_admins_only"))
        return
    built = await flow.session_report(services, session, locale)
    await flow.send_report(context.bot, context.chat_id, built)


async def quiz_report(update: Update, context: QuizContext) -> None:
    """`/report <quiz id> [csv|xlsx]` in private: every learner's latest attempt."""
    services, locale = context.services, context.locale
    wanted = arguments.report(context.args, services.catalog)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(locale))
        return
    quiz, form = wanted
    built = await flow.quiz_report(services, quiz, form, locale)
    if built is None:
        await context.say(locale.t("report_no_attempts", title=locale.text(quiz.title, 200)))
        return
    await flow.send_report(context.bot, context.chat_id, built)


COMMANDS = (
    Command("report", report, Role.CHAT_ADMIN, Where.GROUP | Where.CHANNEL, Task.HOMEWORK),
    Command(
        "report", quiz_report, Role.BOT_ADMIN, Where.PRIVATE, Task.HOMEWORK,
        "<quiz id> [csv or xlsx]", f"{QUIZ} xlsx", key="cmd_report_quiz",
    ),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return [
        *commands.handlers(COMMANDS),
        StartLinkHandler(MissedReview, on_missed),
        StartLinkHandler(ReportFile, on_report_link),
    ]
