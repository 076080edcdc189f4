"""Quizzes for a whole chat: /groupquiz, /stopquiz, /skip, /leaderboard, taps and poll votes;
the bot's admins' /push and /schedule, which post questions into a chat; and the taps on those
posted questions, which anyone in that chat may answer.

Works in groups, supergroups and channels. In a channel a command arrives as a channel post
with no person behind it (the channel itself is the sender); only a channel's admins can
post there, so such a command is treated as an admin's (`bot.core.access`).
"""

from __future__ import annotations

import html
from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler, MessageHandler, PollAnswerHandler, filters

from bot.config import Settings
from bot.core import arguments, callbacks, commands, pickers, quiz_menus
from bot.core.access import admin_only, controls_chat
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.handlers import (
    PRIVATE_MESSAGE,
    ChatPickHandler,
    QuizMenuHandler,
    TapHandler,
    edit_in_place,
)
from bot.core.pickers import Picked, PickFor
from bot.core.quiz_menus import MenuFor
from bot.group import answers, flow, posts, render, upgrade
from content.group_rules import rank
from content.model import Quiz


async def groupquiz(update: Update, context: QuizContext) -> None:
    """`/groupquiz <id> [seconds] [poll]`: start a quiz for the chat (admins only); with no
    quiz, the quizzes as buttons."""
    services = context.services
    if not context.args:
        await quiz_menus.show(context, MenuFor.GROUPQUIZ)
        return
    wanted = await context.parsed(
        arguments.groupquiz(context.args, services.catalog, services.settings)
    )
    if wanted is None:
        return
    refusal = await _start(context, wanted.quiz, wanted.seconds, wanted.poll)
    if refusal is not None:
        await context.say(refusal)


async def _start(context: QuizContext, quiz: Quiz, seconds: int, poll: bool) -> str | None:
    """Start the quiz for the update's chat (its topic); what stood in the way, if anything."""
    services, locale = context.services, context.locale
    update = context.current_update
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None  # a chat's command, or a tap on a chat's message
    if poll and chat.type == ChatType.CHANNEL:
        return locale.t("group_poll_not_in_channel")
    if not flow.playable_in_groups(quiz):
        return locale.t("group_nothing_playable", quiz_id=quiz.id)
    exam = await services.storage.homework.open_exam(chat.id, quiz.id)
    if exam is not None:  # its reveals would be the exam's answers before the deadline
        return locale.t("group_exam_homework_open", number=exam.id)
    language = (await services.chat_locale(chat.id)).language
    started = await flow.start(
        context.bot,
        services,
        context.jobs,
        chat_id=chat.id,
        chat_type=chat.type,
        quiz=quiz,
        seconds=seconds,
        mode=flow.POLL if poll else flow.BUTTONS,
        language=language,
        started_by=user.id if user is not None else None,
        thread_id=context.thread_id,
    )
    return locale.t("group_running_already") if started is None else None


async def on_groupquiz_chosen(query: CallbackQuery, context: QuizContext, quiz: Quiz) -> None:
    """A quiz chosen in `/groupquiz`'s menu: how long a question, and in which mode?"""
    assert query.message is not None  # a menu's message
    settings = context.services.settings
    shown = render.start_menu(
        quiz, _seconds_choices(settings), query.message.chat.type != ChatType.CHANNEL,
        context.locale,
    )  # fmt: skip
    await query.answer()
    await edit_in_place(query, shown.text, shown.markup)


def _seconds_choices(settings: Settings) -> tuple[int, ...]:
    """The common times a question, within what the bot allows, its default among them."""
    low, high = settings.group_min_seconds, settings.group_max_seconds
    return tuple(sorted({s for s in (15, settings.group_seconds, 60) if low <= s <= high}))


async def on_groupquiz_start(
    query: CallbackQuery, context: QuizContext, tap: callbacks.GroupQuizStart
) -> None:
    """A chat admin's choice of time and mode in the menu: the quiz starts."""
    settings, locale = context.services.settings, context.locale
    quiz = context.services.catalog.get(tap.quiz_id)
    low, high = settings.group_min_seconds, settings.group_max_seconds
    if quiz is None or tap.poll not in (0, 1) or not low <= tap.seconds <= high:
        await query.answer(locale.t("stale_button"))
        return
    if not await controls_chat(context):
        await query.answer(locale.t("group_admins_only"))
        return
    refusal = await _start(context, quiz, tap.seconds, bool(tap.poll))
    await query.answer(refusal)
    if refusal is None:
        title = locale.text(quiz.title, 200)
        await edit_in_place(query, locale.t("menu_started", title=title, seconds=tap.seconds))


async def stopquiz(update: Update, context: QuizContext) -> None:
    """`/stopquiz`: end the running quiz now and post its results (admins only)."""
    session = await context.services.storage.groups.running_session(
        context.chat_id, context.thread_id
    )
    if session is None or not await flow.stop(context.bot, context.services, context.jobs, session):
        await context.say(context.locale.t("group_none_running"))


async def skip(update: Update, context: QuizContext) -> None:
    """`/skip`: reveal the current question now and go on (admins only)."""
    groups = context.services.storage.groups
    session = await groups.running_session(context.chat_id, context.thread_id)
    asked = await groups.asked(session.id, session.position) if session is not None else None
    sent_at = update.effective_message.date.timestamp() if update.effective_message else None
    if asked is not None and sent_at is not None and sent_at < int(asked.asked_at):
        return  # the command was about the question before, which is revealed already
    if session is None or not await flow.reveal(
        context.bot, context.services, context.jobs, session.id, session.position
    ):
        await context.say(context.locale.t("group_none_running"))


async def leaderboard(update: Update, context: QuizContext) -> None:
    """`/leaderboard`: the current or last quiz's ranking, and the chat's all-time one."""
    services, locale = context.services, context.locale
    groups = services.storage.groups
    session = await groups.latest_session(context.chat_id, context.thread_id)
    if session is None:
        await context.say(locale.t("board_nothing"))
        return
    quiz = services.catalog.get(session.quiz_id)
    title = locale.plain(quiz.title) if quiz is not None else session.quiz_id
    text = render.leaderboard(
        title,
        session.running,
        rank(await groups.session_scores(session.id)),
        rank(await groups.chat_scores(context.chat_id)),
        locale,
    )
    await context.say(text)


async def on_answer(
    query: CallbackQuery, context: QuizContext, tap: callbacks.GroupAnswer | callbacks.PostAnswer
) -> None:
    """A member's answer to a group quiz's question, or to a posted question."""
    await answers.take_tap(
        context.services, context.jobs, query, tap, context.locale, context.arrived_at
    )


async def on_pick(
    query: CallbackQuery, context: QuizContext, tap: callbacks.GroupPick | callbacks.PostPick
) -> None:
    """A member picks or unpicks an option of a multiple question (theirs alone)."""
    await answers.take_pick(
        context.services, context.jobs, query, tap, context.locale, context.arrived_at
    )


async def on_submit(
    query: CallbackQuery, context: QuizContext, tap: callbacks.GroupSubmit | callbacks.PostSubmit
) -> None:
    """A member submits their selection on a multiple question."""
    await answers.take_submit(
        context.services, context.jobs, query, tap, context.locale, context.arrived_at
    )


async def on_reveal(query: CallbackQuery, context: QuizContext, tap: callbacks.GroupReveal) -> None:
    """A chat admin's Reveal tap on a group quiz's question (a stale button is said to be so
    to anyone)."""
    session = await context.services.storage.groups.get_session(tap.session_id)
    if (
        session is None
        or session.posted  # a post has no Reveal button: this one is forged
        or query.message is None
        or session.chat_id != query.message.chat.id
    ):
        await query.answer(context.locale.t("stale_button"))
        return
    if not await controls_chat(context):
        await query.answer(context.locale.t("group_admins_only"))
        return
    await query.answer()
    await flow.reveal(context.bot, context.services, context.jobs, session.id, tap.position)


async def on_vote(update: Update, context: QuizContext) -> None:
    """A vote in a quiz poll."""
    assert update.poll_answer is not None  # PollAnswerHandler
    await answers.take_vote(context.services, update.poll_answer, context.arrived_at)


async def private_groupquiz(update: Update, context: QuizContext) -> None:
    """`/groupquiz` in a private chat: point to /quiz."""
    example = arguments.example_quiz(context.services.catalog)
    await context.say(context.locale.t("group_only_here", example=example))


async def push(update: Update, context: QuizContext) -> None:
    """`/push <quiz id> [<@channel or chat id>]`: the next unposted question, answerable
    there; without a chat, the chat picker."""
    locale = context.locale
    if not context.args:
        await quiz_menus.show(context, MenuFor.PUSH)
        return
    wanted = await context.parsed(arguments.push(context.args, context.services.catalog))
    if wanted is None:
        return
    if wanted.chat is None:
        text = locale.t("push_pick", title=locale.text(wanted.quiz.title, 200))
        if wanted.named is not None:
            text = f"{locale.t('pick_not_by_name', value=wanted.named)}\n{text}"
        await pickers.ask(context, PickFor.PUSH, {"quiz": wanted.quiz.id}, text, channels=True)
        return
    outcome = await posts.push_next(
        context.bot, context.services, context.jobs, wanted.quiz, wanted.chat,
        context.learner.user_id,
    )  # fmt: skip
    await context.say(outcome.text(locale))


@admin_only
async def on_push_chosen(query: CallbackQuery, context: QuizContext, quiz: Quiz) -> None:
    """A quiz chosen in `/push`'s menu: where to? (the chat picker)"""
    locale = context.locale
    await query.answer()
    await edit_in_place(query, locale.t("menu_chosen", title=locale.text(quiz.title, 200)))
    text = locale.t("push_pick", title=locale.text(quiz.title, 200))
    await pickers.ask(context, PickFor.PUSH, {"quiz": quiz.id}, text, channels=True)


async def on_push_pick(update: Update, context: QuizContext, picked: Picked) -> str:
    """The chat picked for a `/push`."""
    services = context.services
    quiz = services.catalog.get(picked.details["quiz"])
    if quiz is None:
        return context.locale.t("unknown_quiz", quiz_id=html.escape(picked.details["quiz"]))
    outcome = await posts.push_next(
        context.bot, services, context.jobs, quiz, picked.chat_id, context.learner.user_id,
        shown=html.escape(picked.title),
    )  # fmt: skip
    return outcome.text(context.locale)


async def schedule(update: Update, context: QuizContext) -> None:
    """`/schedule <quiz id> [<chat>] <HH:MM>`: `/push` every day at that time (UTC); `off`
    instead of the time ends it; without a chat, the chat picker."""
    locale = context.locale
    wanted = await context.parsed(arguments.schedule(context.args))
    if wanted is None:
        return
    if wanted.chat is None:
        minute = wanted.minute_of_day
        if minute is None:
            text = locale.t("schedule_pick_off", quiz_id=html.escape(wanted.quiz_id))
        else:
            text = locale.t(
                "schedule_pick", quiz_id=html.escape(wanted.quiz_id), time=_clock(minute)
            )
        details = {"quiz": wanted.quiz_id, "minute": minute}
        await pickers.ask(context, PickFor.SCHEDULE, details, text, channels=True)
        return
    outcome = await posts.set_schedule(
        context.services,
        context.jobs,
        wanted.quiz_id,
        wanted.chat,
        wanted.minute_of_day,
        context.learner.user_id,
    )
    await context.say(outcome.text(locale))


async def on_schedule_pick(update: Update, context: QuizContext, picked: Picked) -> str:
    """The chat picked for a `/schedule`."""
    outcome = await posts.set_schedule(
        context.services, context.jobs, picked.details["quiz"], picked.chat_id,
        picked.details["minute"], context.learner.user_id, shown=html.escape(picked.title),
    )  # fmt: skip
    return outcome.text(context.locale)


def _clock(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


CHATS = Where.GROUP | Where.CHANNEL
TO_A_CHAT = "<quiz id> <@channel or chat id>"
COMMANDS = (
    Command(
        "groupquiz", groupquiz, Role.CHAT_ADMIN, CHATS, Task.GROUP_QUIZ,
        "<quiz id> [seconds] [poll]", f"{QUIZ} 30 poll",
    ),
    Command("stopquiz", stopquiz, Role.CHAT_ADMIN, CHATS, Task.GROUP_QUIZ),
    Command("skip", skip, Role.CHAT_ADMIN, CHATS, Task.GROUP_QUIZ),
    Command("leaderboard", leaderboard, Role.LEARNER, CHATS, Task.GROUP_QUIZ),
    Command(
        "push", push, Role.BOT_ADMIN, Where.PRIVATE, Task.GROUP_QUIZ, TO_A_CHAT, f"{QUIZ} @mychannel"
    ),
    Command(
        "schedule", schedule, Role.BOT_ADMIN, Where.PRIVATE, Task.GROUP_QUIZ,
        f"{TO_A_CHAT} <HH:MM or off>", f"{QUIZ} @mychannel 07:30",
    ),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    elsewhere = commands.not_declared(COMMANDS, Where.PRIVATE)
    return [
        *commands.handlers(COMMANDS),
        CommandHandler(elsewhere, private_groupquiz, filters=PRIVATE_MESSAGE),
        ChatPickHandler(PickFor.PUSH, on_push_pick),
        QuizMenuHandler(MenuFor.PUSH, on_push_chosen),
        ChatPickHandler(PickFor.SCHEDULE, on_schedule_pick),
        TapHandler(callbacks.GroupAnswer, on_answer),
        TapHandler(callbacks.PostAnswer, on_answer),
        TapHandler(callbacks.GroupPick, on_pick),
        TapHandler(callbacks.PostPick, on_pick),
        TapHandler(callbacks.GroupSubmit, on_submit),
        TapHandler(callbacks.PostSubmit, on_submit),
        TapHandler(callbacks.GroupReveal, on_reveal),
        QuizMenuHandler(MenuFor.GROUPQUIZ, on_groupquiz_chosen),
        TapHandler(callbacks.GroupQuizStart, on_groupquiz_start),
        PollAnswerHandler(on_vote),
        MessageHandler(filters.StatusUpdate.MIGRATE, upgrade.on_upgrade),
    ]
