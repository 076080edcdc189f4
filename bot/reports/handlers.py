"""What a group quiz leaves behind: a member's press of "Review what you missed"."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import BaseHandler

from bot.core import faults
from bot.core.access import is_member
from bot.core.context import QuizContext
from bot.core.deeplinks import MissedReview
from bot.core.handlers import StartLinkHandler
from bot.reports import flow

log = logging.getLogger(__name__)

COMMANDS: tuple[str, ...] = ()


async def on_missed(update: Update, context: QuizContext, link: MissedReview) -> None:
    """A member pressed "Review what you missed" under a group quiz's results."""
    services, locale, learner = context.services, context.locale, context.learner
    session = await services.storage.groups.get_session(link.session_id)
    if session is None or session.posted:
        await context.say(locale.t("link_invalid"))
        return
    if session.running:
        await context.say(locale.t("missed_running"))
        return
    try:
        member = await is_member(context, session.chat_id, learner.user_id)
    except TelegramError as error:
        if not faults.classify(error).permanent:
            await context.say(locale.t("member_check_failed"))
            return
        member = False  # Telegram does not know them there (or that chat any more)
    if not member:
        log.info("a missed-questions link of session %s refused: not a member", session.id)
        await context.say(locale.t("missed_not_member"))
        return
    found = await flow.missed(services, session, learner.user_id)
    await flow.open_missed(context.bot, services, context.chat_id, learner.user_id, found, locale)


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return [StartLinkHandler(MissedReview, on_missed)]
