"""Quizzes for a whole chat: /groupquiz, /stopquiz, /skip, /leaderboard, taps and poll votes;
and the taps on posted questions (an admin's /push), which anyone in that chat may answer.

Works in groups, supergroups and channels. In a channel a command arrives as a channel post
with no person behind it (the channel itself is the sender); only a channel's admins can
post there, so such a command is treated as an admin's.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import (
    BaseHandler,
    CommandHandler,
    JobQueue,
    PollAnswerHandler,
    filters,
)

from bot.core import arguments, callbacks
from bot.core.arguments import Refusal
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, TapHandler
from bot.core.i18n import Locale
from bot.group import flow, render
from content.group_rules import may_control, rank

CHAT_COMMAND = (filters.UpdateType.MESSAGE & filters.ChatType.GROUPS) | (
    filters.UpdateType.CHANNEL_POST & filters.ChatType.CHANNEL
)
STATUS_TTL = 120.0  # seconds a chat member status is trusted


def _jobs(context: QuizContext) -> JobQueue[Any]:
    assert context.job_queue is not None
    return context.job_queue


async def _chat_locale(update: Update, context: QuizContext) -> Locale:
    """The sender's language in a group; the bot's default for a channel post."""
    services = context.services
    user = update.effective_user
    message = update.effective_message
    if user is None or (message is not None and message.sender_chat is not None):
        return Locale(services.settings.default_language, services.settings.default_language)
    _, locale = await services.learner(user)
    return locale


async def _may_control(update: Update, context: QuizContext) -> bool:
    chat = update.effective_chat
    assert chat is not None
    # only a command's own message can speak as a chat; a tap's message is the bot's post
    # (which, in a channel, is itself signed by the channel)
    message = update.message or update.channel_post
    user = update.effective_user
    sender_chat_id = message.sender_chat.id if message and message.sender_chat else None
    if update.channel_post is not None and sender_chat_id is None:
        sender_chat_id = chat.id  # a channel post is the channel speaking
    admins = context.services.settings.admin_ids
    status = None
    if user is not None and sender_chat_id is None and user.id not in admins:
        status = await _member_status(context, chat.id, user.id)
    return may_control(
        chat_type=chat.type,
        user_id=user.id if user is not None else None,
        member_status=status,
        sender_chat_id=sender_chat_id,
        chat_id=chat.id,
        configured_admins=admins,
    )


async def _member_status(context: QuizContext, chat_id: int, user_id: int) -> str:
    """The person's status in the chat, looked up at most once per `STATUS_TTL` seconds.

    PTB's rate limiter counts getChatMember against the group's 20 requests a minute, so a
    non-admin repeating /stopquiz, or an admin revealing every question, must not cost a
    look-up each time. A promotion or demotion takes effect within `STATUS_TTL`.
    """
    services = context.services
    now = services.clock()
    cached = services.member_status.get((chat_id, user_id))
    if cached is not None and now - cached[0] < STATUS_TTL:
        return cached[1]
    status = str((await context.bot.get_chat_member(chat_id, user_id)).status)
    services.member_status[(chat_id, user_id)] = (now, status)
    return status


async def _say(update: Update, context: QuizContext, text: str) -> None:
    assert update.effective_chat is not None
    await flow.send(context.bot, context.services, update.effective_chat.id, text)


async def groupquiz(update: Update, context: QuizContext) -> None:
    """`/groupquiz <id> [seconds] [poll]`: start a quiz for the chat (admins only)."""
    chat = update.effective_chat
    assert chat is not None
    services = context.services
    locale = await _chat_locale(update, context)
    if not await _may_control(update, context):
        await _say(update, context, locale.t("group_admins_only"))
        return
    wanted = arguments.groupquiz(context.args, services.catalog, services.settings)
    if isinstance(wanted, Refusal):
        await _say(update, context, wanted.text(locale))
        return
    mode = flow.POLL if wanted.poll else flow.BUTTONS
    if mode == flow.POLL and chat.type == "channel":
        await _say(update, context, locale.t("group_poll_not_in_channel"))
        return
    user = update.effective_user
    started = await flow.start(
        context.bot,
        context.services,
        _jobs(context),
        chat_id=chat.id,
        chat_type=chat.type,
        quiz=wanted.quiz,
        seconds=wanted.seconds,
        mode=mode,
        language=locale.language,
        started_by=user.id if user is not None else None,
    )
    if started is None:
        await _say(update, context, locale.t("group_running_already"))


async def stopquiz(update: Update, context: QuizContext) -> None:
    """`/stopquiz`: end the running quiz now and post its results (admins only)."""
    assert update.effective_chat is not None
    locale = await _chat_locale(update, context)
    if not await _may_control(update, context):
        await _say(update, context, locale.t("group_admins_only"))
        return
    session = await context.services.storage.groups.running_session(update.effective_chat.id)
    if session is None or not await flow.stop(
        context.bot, context.services, _jobs(context), session
    ):
        await _say(update, context, locale.t("group_none_running"))


async def skip(update: Update, context: QuizContext) -> None:
    """`/skip`: reveal the current question now and go on (admins only)."""
    assert update.effective_chat is not None
    locale = await _chat_locale(update, context)
    if not await _may_control(update, context):
        await _say(update, context, locale.t("group_admins_only"))
        return
    groups = context.services.storage.groups
    session = await groups.running_session(update.effective_chat.id)
    asked = await groups.asked(session.id, session.position) if session is not None else None
    sent_at = update.effective_message.date.timestamp() if update.effective_message else None
    if asked is not None and sent_at is not None and sent_at < int(asked.asked_at):
        return  # the command was about the question before, which is revealed already
    if session is None or not await flow.reveal(
        context.bot, context.services, _jobs(context), session.id, session.position
    ):
        await _say(update, context, locale.t("group_none_running"))


async def leaderboard(update: Update, context: QuizContext) -> None:
    """`/leaderboard`: the current or last quiz's ranking, and the chat's all-time one."""
    assert update.effective_chat is not None
    services = context.services
    locale = await _chat_locale(update, context)
    chat_id = update.effective_chat.id
    session = await services.storage.groups.latest_session(chat_id)
    if session is None:
        await _say(update, context, locale.t("board_nothing"))
        return
    quiz = services.catalog.get(session.quiz_id)
    title = locale.plain(quiz.title) if quiz is not None else session.quiz_id
    text = render.leaderboard(
        title,
        session.running,
        rank(await services.storage.groups.session_scores(session.id)),
        rank(await services.storage.groups.chat_scores(chat_id)),
        locale,
    )
    await _say(update, context, text)


async def on_answer(update: Update, context: QuizContext, tap: callbacks.GroupAnswer) -> None:
    """A member's answer to a group quiz's question."""
    query = update.callback_query
    assert query is not None
    services = context.services
    _, locale = await services.learner(query.from_user)
    await flow.take_answer(context.bot, services, _jobs(context), query, tap, locale)


async def on_reveal(update: Update, context: QuizContext, tap: callbacks.GroupReveal) -> None:
    """A chat admin's Reveal tap on a group quiz's question."""
    query = update.callback_query
    assert query is not None
    services = context.services
    _, locale = await services.learner(query.from_user)
    session = await services.storage.groups.get_session(tap.session_id)
    if (
        session is None
        or session.posted  # a post has no Reveal button: this one is forged
        or query.message is None
        or session.chat_id != query.message.chat.id
    ):
        await query.answer(locale.t("stale_button"))
        return
    if not await _may_control(update, context):
        await query.answer(locale.t("group_admins_only"))
        return
    await query.answer()
    await flow.reveal(context.bot, services, _jobs(context), session.id, tap.position)


async def on_post_answer(update: Update, context: QuizContext, tap: callbacks.PostAnswer) -> None:
    """A member's one answer to a posted question (anyone in that chat may answer)."""
    query = update.callback_query
    assert query is not None
    _, locale = await context.services.learner(query.from_user)
    await flow.take_post_answer(context.services, context.job_queue, query, tap, locale)


async def on_poll_answer(update: Update, context: QuizContext) -> None:
    assert update.poll_answer is not None
    await flow.take_poll_answer(context.bot, context.services, update.poll_answer)


async def private_groupquiz(update: Update, context: QuizContext) -> None:
    """`/groupquiz` in a private chat: point to /quiz."""
    assert update.effective_user and update.effective_chat
    _, locale = await context.services.learner(update.effective_user)
    await context.bot.send_message(
        update.effective_chat.id,
        locale.t("group_only_here", example=arguments.example_quiz(context.services.catalog)),
    )


def handlers() -> list[BaseHandler[Update, QuizContext, None]]:
    return [
        CommandHandler("groupquiz", groupquiz, filters=CHAT_COMMAND),
        CommandHandler("stopquiz", stopquiz, filters=CHAT_COMMAND),
        CommandHandler("skip", skip, filters=CHAT_COMMAND),
        CommandHandler("leaderboard", leaderboard, filters=CHAT_COMMAND),
        CommandHandler(
            ["groupquiz", "stopquiz", "skip", "leaderboard"],
            private_groupquiz,
            filters=PRIVATE_MESSAGE,
        ),
        TapHandler(callbacks.GroupAnswer, on_answer),
        TapHandler(callbacks.GroupReveal, on_reveal),
        TapHandler(callbacks.PostAnswer, on_post_answer),
        PollAnswerHandler(on_poll_answer),
    ]
