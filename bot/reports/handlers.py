"""What a group quiz leaves behind: a member's press of "Review what you missed"; `/report` in
a group (chat admins: the file in private), its deep link for an admin who cannot be written
to (anonymous, or never started the bot), and `/report <quiz id>` for the bot's admins."""

from __future__ import annotations

import functools
import logging
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import BaseHandler

from bot.core import arguments, commands, deeplinks, faults, quiz_menus
from bot.core.access import admin_only, is_chat_admin, is_member, sender_passes
from bot.core.arguments import REPORT_FORMATS, Refusal
from bot.core.callbacks import ReportChoice
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import AttemptOpener, QuizContext
from bot.core.deeplinks import MissedReview, ReportFile
from bot.core.handlers import QuizMenuHandler, StartLinkHandler, TapHandler, edit_in_place
from bot.core.quiz_menus import MenuFor
from bot.reports import flow
from content.model import Quiz
from storage.group_store import GroupSession

log = logging.getLogger(__name__)


async def on_missed(
    update: Update, context: QuizContext, link: MissedReview, *, open_attempt: AttemptOpener
) -> None:
    """A member pressed "Review what you missed" under a group quiz's results."""
    services, locale, learner = context.services, context.locale, context.learner
    session = await _linked_session(context, link.session_id)
    if session is None:
        return
    if session.running:
        await context.say(locale.t("missed_running"))
        return
    if not await sender_passes(context, session.chat_id, is_member, "missed_not_member"):
        return
    found = await flow.missed(services, session, learner.user_id)
    await flow.open_missed(
        context.bot, services, context.chat_id, learner.user_id, found, locale, open_attempt
    )


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


async def _offer_link(context: QuizContext, session: GroupSession, key: str) -> None:
    """A deep link in the group that a chat admin presses to get the report in private."""
    services = context.services
    payload = services.links.encode(ReportFile(session.id), services.clock())
    link = deeplinks.url(context.bot.username, payload)
    button = InlineKeyboardButton(context.locale.t("button_report_private"), url=link)
    await context.say(context.locale.t(key), InlineKeyboardMarkup([[button]]))


async def on_report_link(update: Update, context: QuizContext, link: ReportFile) -> None:
    """An admin pressed the group's link to receive a report: still a chat admin, now?"""
    services, locale = context.services, context.locale
    session = await _linked_session(context, link.session_id)
    if session is None:
        return
    if not await sender_passes(context, session.chat_id, is_chat_admin, "report_admins_only"):
        return
    built = await flow.session_report(services, session, locale)
    await flow.send_report(context.bot, context.chat_id, built)


async def quiz_report(update: Update, context: QuizContext) -> None:
    """`/report <quiz id> [csv|xlsx]` in private: every learner's latest attempt; with no
    quiz, the quizzes as buttons, then the file's form."""
    services, locale = context.services, context.locale
    if not context.args:
        await quiz_menus.show(context, MenuFor.REPORT)
        return
    wanted = arguments.report(context.args, services.catalog)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(locale))
        return
    quiz, form = wanted
    await _send_quiz_report(context, quiz, form)


async def _send_quiz_report(context: QuizContext, quiz: Quiz, form: str) -> None:
    services, locale = context.services, context.locale
    built = await flow.quiz_report(services, quiz, form, locale)
    if built is None:
        await context.say(locale.t("report_no_attempts", title=locale.text(quiz.title, 200)))
        return
    await flow.send_report(context.bot, context.chat_id, built)


@admin_only
async def on_report_chosen(query: CallbackQuery, context: QuizContext, quiz: Quiz) -> None:
    """A quiz chosen in `/report`'s menu: as which file?"""
    locale = context.locale
    text = locale.t("menu_which_format", title=locale.text(quiz.title, 200))
    forms = [(name.upper(), ReportChoice(quiz.id, at)) for at, name in enumerate(REPORT_FORMATS)]
    shown = quiz_menus.choices(text, forms)
    await query.answer()
    await edit_in_place(query, shown.text, shown.markup)


@admin_only
async def on_report_form(query: CallbackQuery, context: QuizContext, tap: ReportChoice) -> None:
    quiz = context.services.catalog.get(tap.quiz_id)
    if quiz is None or not 0 <= tap.form < len(REPORT_FORMATS):
        await query.answer(context.locale.t("stale_button"))
        return
    await query.answer()
    title = context.locale.text(quiz.title, 200)
    await edit_in_place(query, context.locale.t("menu_chosen", title=title))
    await _send_quiz_report(context, quiz, REPORT_FORMATS[tap.form])


COMMANDS = (
    Command("report", report, Role.CHAT_ADMIN, Where.GROUP | Where.CHANNEL, Task.HOMEWORK),
    Command(
        "report", quiz_report, Role.BOT_ADMIN, Where.PRIVATE, Task.HOMEWORK,
        "<quiz id> [csv or xlsx]", f"{QUIZ} xlsx", key="cmd_report_quiz",
    ),
)  # fmt: skip


def handlers(open_attempt: AttemptOpener) -> list[BaseHandler[Update, QuizContext, Any]]:
    """The feature's handlers; `open_attempt` (the learner's) asks the review it starts."""
    return [
        *commands.handlers(COMMANDS),
        StartLinkHandler(MissedReview, functools.partial(on_missed, open_attempt=open_attempt)),
        StartLinkHandler(ReportFile, on_report_link),
        QuizMenuHandler(MenuFor.REPORT, on_report_chosen),
        TapHandler(ReportChoice, on_report_form),
    ]
