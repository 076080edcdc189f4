"""Homework in a group: `/assign`, `/assignments`, `/unassign` (chat admins), or `/assign` in
private for a group picked with the chat picker; a member's press of the homework's deep
link; a chat admin's press of the link to its report."""

from __future__ import annotations

import functools
import logging
from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler

from bot.core import arguments, callbacks, commands, pickers, quiz_menus
from bot.core.access import controls_chat, is_chat_admin, is_member, sender_passes
from bot.core.arguments import Refusal
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import AttemptOpener, ExamOpener, QuizContext
from bot.core.deeplinks import AssignmentReport, Homework
from bot.core.handlers import (
    PRIVATE_MESSAGE,
    ChatPickHandler,
    QuizMenuHandler,
    StartLinkHandler,
    TapHandler,
    edit_in_place,
)
from bot.core.pickers import Picked, PickFor
from bot.core.quiz_menus import MenuFor
from bot.homework import flow, render
from content.model import Quiz
from storage.homework_store import Assignment

log = logging.getLogger(__name__)

ASSIGN_HOURS = (24, 72, 168)  # the menu's deadlines: a day, three days, a week


async def _timezone(context: QuizContext) -> str:
    stored = await context.services.storage.chats.settings(context.chat_id)
    return stored.timezone or context.services.settings.default_timezone


async def assign(update: Update, context: QuizContext) -> None:
    """`/assign <quiz id> <deadline> [first|best] [shuffle] [exam [minutes]]`: homework for
    the group, taken in private (as an exam, with `exam`); with no quiz, the quizzes as
    buttons."""
    services = context.services
    if not context.args:
        await quiz_menus.show(context, MenuFor.ASSIGN)
        return
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
    created_by = None if anonymous or user is None else user.id
    await _assign_here(context, wanted, timezone, created_by)


async def _assign_here(
    context: QuizContext, wanted: arguments.AssignArgs, timezone: str, created_by: int | None
) -> Assignment:
    """Set the homework in the update's chat (its topic), in the group's language."""
    services = context.services
    language = (await services.chat_locale(context.chat_id)).language
    return await flow.assign(
        context.bot, services, context.jobs,
        chat_id=context.chat_id, thread_id=context.thread_id, quiz=wanted.quiz,
        deadline=wanted.deadline, language=language,
        timezone=timezone, created_by=created_by, counts=wanted.counts, shuffled=wanted.shuffled,
        exam=wanted.exam, exam_minutes=wanted.minutes,
    )  # fmt: skip


async def on_assign_chosen(query: CallbackQuery, context: QuizContext, quiz: Quiz) -> None:
    """A quiz chosen in `/assign`'s menu: until when, and how it counts?"""
    shown = render.setup_menu(quiz, ASSIGN_HOURS, best=False, shuffle=False, locale=context.locale)
    await query.answer()
    await edit_in_place(query, shown.text, shown.markup)


async def on_assign_setup(
    query: CallbackQuery, context: QuizContext, tap: callbacks.AssignSetup
) -> None:
    """`/assign`'s menu once a quiz is chosen: an option toggled (the menu redrawn), or a
    deadline chosen: then, as homework or as an exam?"""
    quiz = await _menu_quiz(query, context, tap.quiz_id, tap.hours, {tap.best, tap.shuffle})
    if quiz is None:
        return
    best, shuffle = bool(tap.best), bool(tap.shuffle)
    if tap.hours == 0:
        shown = render.setup_menu(quiz, ASSIGN_HOURS, best, shuffle, context.locale)
    else:
        shown = render.homework_or_exam(quiz, tap.hours, best, shuffle, context.locale)
    await edit_in_place(query, shown.text, shown.markup)


async def on_assign_as(query: CallbackQuery, context: QuizContext, tap: callbacks.AssignAs) -> None:
    """`/assign`'s menu done: the homework set with the words `/assign` would be typed with
    (`exam` when taken as one): in a group, there; in private, in the group picked next with
    the chat picker."""
    services, locale = context.services, context.locale
    toggles = {tap.best, tap.shuffle, tap.exam}
    quiz = await _menu_quiz(query, context, tap.quiz_id, tap.hours or -1, toggles)
    if quiz is None or query.message is None:
        return
    private = query.message.chat.type == ChatType.PRIVATE
    words = [
        quiz.id, f"{tap.hours}h",
        *(["best"] * tap.best), *(["shuffle"] * tap.shuffle), *(["exam"] * tap.exam),
    ]  # fmt: skip
    timezone = services.settings.default_timezone if private else await _timezone(context)
    wanted = arguments.assign(
        words, services.catalog, timezone, services.clock(), services.settings.homework_min_seconds
    )
    assert not isinstance(wanted, Refusal)  # the menu's own words
    await edit_in_place(query, locale.t("menu_chosen", title=locale.text(quiz.title, 200)))
    if private:
        text = locale.t("homework_pick", title=locale.text(quiz.title, 200))
        await pickers.ask(context, PickFor.ASSIGN, {"args": words}, text, channels=False)
        return
    await _assign_here(context, wanted, timezone, query.from_user.id)


async def _menu_quiz(
    query: CallbackQuery, context: QuizContext, quiz_id: str, hours: int, toggles: set[int]
) -> Quiz | None:
    """The quiz a tap on `/assign`'s menu is for, the tap answered; None (told why) for a
    tap no menu of ours drew (`hours`: 0 or one of the menu's deadlines; each toggle 0 or 1)
    or, in a group, by someone who does not control its quizzes."""
    locale = context.locale
    quiz = context.services.catalog.get(quiz_id)
    wrong = toggles - {0, 1} or hours not in (0, *ASSIGN_HOURS)
    if quiz is None or query.message is None or wrong:
        await query.answer(locale.t("stale_button"))
        return None
    private = query.message.chat.type == ChatType.PRIVATE
    if not private and not await controls_chat(context):
        await query.answer(locale.t("group_admins_only"))
        return None
    await query.answer()
    return quiz


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
    """`/assign <quiz id> <deadline> [first|best] [shuffle]` in private: checked now (in the
    bot's time zone), then the group is picked with the chat picker; with no quiz, the
    quizzes as buttons."""
    services, locale = context.services, context.locale
    if not context.args:
        await quiz_menus.show(context, MenuFor.ASSIGN)
        return
    timezone = services.settings.default_timezone
    settings = services.settings
    parsed = arguments.assign(
        context.args, services.catalog, timezone, services.clock(), settings.homework_min_seconds
    )
    wanted = await context.parsed(parsed)
    if wanted is None:
        return
    text = locale.t("homework_pick", title=locale.text(wanted.quiz.title, 200))
    details = {"args": list(context.args or ())}
    await pickers.ask(context, PickFor.ASSIGN, details, text, channels=False)


async def on_assign_pick(update: Update, context: QuizContext, picked: Picked) -> str:
    """The group picked for a homework set in private: the deadline read again in that
    group's time zone, then set there as `/assign` in the group would."""
    services, locale = context.services, context.locale
    stored = await services.storage.chats.settings(picked.chat_id)
    timezone = stored.timezone or services.settings.default_timezone
    wanted = arguments.assign(
        picked.details["args"], services.catalog, timezone, services.clock(),
        services.settings.homework_min_seconds,
    )  # fmt: skip
    if isinstance(wanted, Refusal):
        return wanted.text(locale)
    assignment = await flow.assign(
        context.bot, services, context.jobs,
        chat_id=picked.chat_id, thread_id=None, quiz=wanted.quiz, deadline=wanted.deadline,
        language=(await services.chat_locale(picked.chat_id)).language, timezone=timezone,
        created_by=context.learner.user_id, counts=wanted.counts, shuffled=wanted.shuffled,
        exam=wanted.exam, exam_minutes=wanted.minutes,
    )  # fmt: skip
    return render.assigned_there(wanted.quiz, assignment, picked.title, locale)


async def private_homework(update: Update, context: QuizContext) -> None:
    await context.say(context.locale.t("homework_groups_only"))


async def on_homework(
    update: Update,
    context: QuizContext,
    link: Homework,
    *,
    open_attempt: AttemptOpener,
    open_exam: ExamOpener,
) -> None:
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
    if not await sender_passes(context, assignment.chat_id, is_member, "homework_not_member"):
        return
    await flow.open_homework(
        context.bot, services, context.jobs, context.chat_id, context.learner.user_id,
        assignment, locale, open_attempt, open_exam,
    )  # fmt: skip


async def on_report_link(update: Update, context: QuizContext, link: AssignmentReport) -> None:
    """A chat admin pressed the group's link to receive a homework's report."""
    services = context.services
    assignment = await services.storage.homework.get(link.assignment_id)
    if assignment is None:
        await context.say(context.locale.t("link_invalid"))
        return
    if not await sender_passes(context, assignment.chat_id, is_chat_admin, "report_admins_only"):
        return
    await flow.send_report(context.bot, services, context.chat_id, assignment, context.locale)


GROUP, PRIVATE = Where.GROUP, Where.PRIVATE
COMMANDS = (
    Command("assign", assign, Role.CHAT_ADMIN, GROUP, Task.HOMEWORK, "<quiz id> <deadline> [exam [minutes]]", f"{QUIZ} 2d"),
    # in private: for a group picked with the chat picker (its admins only: checked on the pick)
    Command("assign", private_assign, Role.TEACHER, PRIVATE, Task.HOMEWORK, "<quiz id> <deadline> [exam [minutes]]", f"{QUIZ} 2d", "cmd_assign_private"),
    Command("assignments", assignments, Role.LEARNER, GROUP, Task.HOMEWORK),
    Command("unassign", unassign, Role.CHAT_ADMIN, GROUP, Task.HOMEWORK, "<number>", "1"),
)  # fmt: skip


def handlers(
    open_attempt: AttemptOpener, open_exam: ExamOpener
) -> list[BaseHandler[Update, QuizContext, Any]]:
    """The feature's handlers; what the learner feature lends them: `open_attempt` asks the
    homework's attempt, `open_exam` an exam homework's exam."""
    elsewhere = commands.not_declared(COMMANDS, Where.PRIVATE)
    opened = functools.partial(on_homework, open_attempt=open_attempt, open_exam=open_exam)
    return [
        *commands.handlers(COMMANDS),
        # in private, the group's other commands point to the group
        CommandHandler(elsewhere, private_homework, filters=PRIVATE_MESSAGE),
        ChatPickHandler(PickFor.ASSIGN, on_assign_pick),
        QuizMenuHandler(MenuFor.ASSIGN, on_assign_chosen),
        TapHandler(callbacks.AssignSetup, on_assign_setup),
        TapHandler(callbacks.AssignAs, on_assign_as),
        StartLinkHandler(Homework, opened),
        StartLinkHandler(AssignmentReport, on_report_link),
    ]
