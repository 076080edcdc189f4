"""Quizzes for a whole chat: /groupquiz, /stopquiz, /skip, /leaderboard, taps and poll votes;
the bot's admins' /push and /schedule, which post questions into a chat; and the taps on those
posted questions, which anyone in that chat may answer.

Works in groups, supergroups and channels. In a channel a command arrives as a channel post
with no person behind it (the channel itself is the sender); only a channel's admins can
post there, so such a command is treated as an admin's (`bot.core.access`).
"""

from __future__ import annotations

from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler, PollAnswerHandler

from bot.core import arguments, callbacks, commands
from bot.core.access import controls_chat
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, TapHandler
from bot.group import answers, flow, posts, render
from content.group_rules import rank


async def groupquiz(update: Update, context: QuizContext) -> None:
    """`/groupquiz <id> [seconds] [poll]`: start a quiz for the chat (admins only)."""
    services, locale = context.services, context.locale
    wanted = await context.parsed(
        arguments.groupquiz(context.args, services.catalog, services.settings)
    )
    if wanted is None:
        return
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None  # a chat command
    if wanted.poll and chat.type == ChatType.CHANNEL:
        await context.say(locale.t("group_poll_not_in_channel"))
        return
    if not flow.playable_in_groups(wanted.quiz):
        await context.say(locale.t("group_nothing_playable", quiz_id=wanted.quiz.id))
        return
    started = await flow.start(
        context.bot,
        services,
        context.jobs,
        chat_id=chat.id,
        chat_type=chat.type,
        quiz=wanted.quiz,
        seconds=wanted.seconds,
        mode=flow.POLL if wanted.poll else flow.BUTTONS,
        language=locale.language,
        started_by=user.id if user is not None else None,
        thread_id=context.thread_id,
    )
    if started is None:
        await context.say(locale.t("group_running_already"))


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
    """`/push <quiz id> <@channel or chat id>`: the next unposted question, answerable there."""
    wanted = await context.parsed(arguments.push(context.args, context.services.catalog))
    if wanted is None:
        return
    quiz, target = wanted
    outcome = await posts.push_next(
        context.bot, context.services, context.jobs, quiz, target, context.learner.user_id
    )
    await context.say(outcome.text(context.locale))


async def schedule(update: Update, context: QuizContext) -> None:
    """`/schedule <quiz id> <chat> <HH:MM>`: `/push` every day at that time (UTC);
    `off` instead of the time ends it."""
    wanted = await context.parsed(arguments.schedule(context.args))
    if wanted is None:
        return
    outcome = await posts.set_schedule(
        context.services,
        context.jobs,
        wanted.quiz_id,
        wanted.chat,
        wanted.minute_of_day,
        context.learner.user_id,
    )
    await context.say(outcome.text(context.locale))


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
        TapHandler(callbacks.GroupAnswer, on_answer),
        TapHandler(callbacks.PostAnswer, on_answer),
        TapHandler(callbacks.GroupPick, on_pick),
        TapHandler(callbacks.PostPick, on_pick),
        TapHandler(callbacks.GroupSubmit, on_submit),
        TapHandler(callbacks.PostSubmit, on_submit),
        TapHandler(callbacks.GroupReveal, on_reveal),
        PollAnswerHandler(on_vote),
    ]
