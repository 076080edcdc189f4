"""Homework in a group: `/assign`, `/assignments`, `/unassign` (chat admins); a member's press of the homework's deep link; a chat admin's press of the
link to its report."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import BaseHandler, CommandHandler

from bot.core import arguments, commands, faults
from bot.core.access import is_chat_admin, is_member
from bot.core.arguments import Refusal
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.deeplinks import AssignmentReport, Homework
from bot.core.handlers import PRIVATE_MESSAGE, StartLinkHandler
from bot.homework import flow, render

log = logging.getLogger(__name__)


async def _timezone(context: QuizContext) -> str:
    stored = await context.services.storage.chats.settings(context.chat_id)
    return stored.timezone or context.services.settings.default_timezone


async def assign(update: Update, context: QuizContext) -> None:
    """`/assign <quiz id> <deadline>`: homework for the group, taken in private."""
    services = context.services
    timezone = await _timezone(context)
    wanted = arguments.assign(
        context.args,
        services.catalog,
        timezone,
        services.clock(),
        services.settings.homework_min_seconds,
    )
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(context.locale))
        return
    message = update.message
    user = update.effective_user
    anonymous = message is not None and message.sender_chat is not None
    await flow.assign(
        context.bot, services, context.jobs,
        chat_id=context.chat_id, thread_id=context.thread_id, quiz=wanted.quiz,
        deadline=wanted.deadline, language=context.locale.language, timezone=timezone,
        created_by=None if anonymous or user is None else user.id,
    )  # fmt: skip


async def assignments(update: Update, context: QuizContext) -> None:
    """`/assignments`: the group's open homework."""
    services = context.services
    entries = []
    for assignment in await services.storage.homework.open_assignments(context.chat_id):
        done = await services.storage.homework.done_count(assignment.id, assignment.deadline)
        entries.append((assignment, services.catalog.get(assignment.quiz_id), done))
    await context.say(render.assignments_list(entries, context.locale))


async def unassign(update: Update, context: QuizContext) -> None:
    """`/unassign <number>`: cancel an open homework of this group."""
    services, locale = context.services, context.locale
    number = arguments.unassign(context.args)
    if isinstance(number, Refusal):
        await context.say(number.text(locale))
        return
    assignment = await services.storage.homework.get(number)
    if (
        assignment is None
        or assignment.chat_id != context.chat_id
        or not assignment.open
        or not await flow.cancel(context.bot, services, context.jobs, assignment)
    ):
        await context.say(locale.t("homework_unknown", number=number))
        return
    await context.say(locale.t("homework_unassigned", number=number))


async def private_assign(update: Update, context: QuizContext) -> None:
    await context.say(context.locale.t("homework_groups_only"))


async def _checked(context: QuizContext, chat_id: int, check: Any, refusal: str) -> bool:
    """Whether the sender passes `check` (a getChatMember question) in that chat, now; else
    they are told why not."""
    try:
        allowed = bool(await check(context, chat_id, context.learner.user_id))
    except TelegramError as error:
        if not faults.classify(error).permanent:
            await context.say(context.locale.t("member_check_failed"))
            return False
        allowed = False
    if not allowed:
        await context.say(context.locale.t(refusal))
    return allowed


async def on_homework(update: Update, context: QuizContext, link: Homework) -> None:
    """A member pressed "Start in private chat" under a homework."""
    services, locale = context.services, context.locale
    assignment = await services.storage.homework.get(link.assignment_id)
    if assignment is None:
        await context.say(locale.t("link_invalid"))
        return
    if assignment.outcome == "cancelled":
        await context.say(locale.t("homework_cancelled"))
        return
    if not assignment.open or assignment.deadline <= services.clock():
        await context.say(locale.t("homework_closed"))
        return
    if not await _checked(context, assignment.chat_id, is_member, "homework_not_member"):
        return
    await flow.open_homework(
        context.bot, services, context.chat_id, context.learner.user_id, assignment, locale
    )


async def on_report_link(update: Update, context: QuizContext, link: AssignmentReport) -> None:
    """A chat admin pressed the group's link to receive a homework's report."""
    services = context.services
    assignment = await services.storage.homework.get(link.assignment_id)
    if assignment is None:
        await context.say(context.locale.t("link_invalid"))
        return
    if not await _checked(context, assignment.chat_id, is_chat_admin, "report_admins_only"):
        return
    await flow.send_report(context.bot, services, context.chat_id, assignment, context.locale)


GROUP = Where.GROUP
COMMANDS = (
    Command("assign", assign, Role.CHAT_ADMIN, GROUP, Task.HOMEWORK, "<quiz id> <deadline>", f"{QUIZ} 2d"),
    Command("assignments", assignments, Role.LEARNER, GROUP, Task.HOMEWORK),
    Command("unassign", unassign, Role.CHAT_ADMIN, GROUP, Task.HOMEWORK, "<number>", "1"),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    elsewhere = commands.not_declared(COMMANDS, Where.PRIVATE)
    return [
        *commands.handlers(COMMANDS),
        CommandHandler(elsewhere, private_assign, filters=PRIVATE_MESSAGE),
        StartLinkHandler(Homework, on_homework),
        StartLinkHandler(AssignmentReport, on_report_link),
    ]
