"""Who may do what, as decorators on handlers: `@admin_only` for the bot's admins
(`QUIZ_ADMIN_IDS`), `@chat_admin_only` for what controls a group's or a channel's quiz,
`@teacher_only` for what the admins of a group or a channel the bot is in do in private.

Anyone else is told so (a toast for a tap, a message for a command) and the handler does not
run: it returns None, which a conversation takes as "stay where you are".
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.core import faults, teachers
from bot.core.context import QuizContext
from content.group_rules import may_control

STATUS_TTL = 120.0  # seconds a chat member status is trusted

P = ParamSpec("P")
R = TypeVar("R")
U = TypeVar("U")  # the handler's first argument: the update, or a tap's callback query

Handler = Callable[Concatenate[U, QuizContext, P], Coroutine[Any, Any, R]]
Guarded = Callable[Concatenate[U, QuizContext, P], Coroutine[Any, Any, R | None]]


def admin_only(handler: Handler[U, P, R]) -> Guarded[U, P, R]:
    """For the bot's admins only."""

    @functools.wraps(handler)
    async def guarded(
        first: U, context: QuizContext, /, *args: P.args, **kwargs: P.kwargs
    ) -> R | None:
        if is_bot_admin(context):
            return await handler(first, context, *args, **kwargs)
        await context.answer(not_admin(context))
        return None

    return guarded


def chat_admin_only(handler: Handler[U, P, R]) -> Guarded[U, P, R]:
    """For the chat's admins only (and the bot's), in a group or a channel."""

    @functools.wraps(handler)
    async def guarded(
        first: U, context: QuizContext, /, *args: P.args, **kwargs: P.kwargs
    ) -> R | None:
        if await controls_chat(context):
            return await handler(first, context, *args, **kwargs)
        await context.answer(context.locale.t("group_admins_only"))
        return None

    return guarded


def teacher_only(handler: Handler[U, P, R]) -> Guarded[U, P, R]:
    """For the teachers: the admins of a group or a channel the bot is in, as it last learned
    them, and the bot's admins. Anyone else is told how one becomes a teacher."""

    @functools.wraps(handler)
    async def guarded(
        first: U, context: QuizContext, /, *args: P.args, **kwargs: P.kwargs
    ) -> R | None:
        if await is_teacher(context):
            return await handler(first, context, *args, **kwargs)
        await context.answer(context.locale.t("teachers_only"))
        return None

    return guarded


async def is_teacher(context: QuizContext) -> bool:
    """Whether the sender is one of the bot's admins, or an admin of a group or a channel the
    bot is in (`chat_admins`, kept from getChatAdministrators and chat_member updates)."""
    user = context.current_update.effective_user
    if user is None:
        return False
    if user.id in context.services.settings.admin_ids:
        return True
    return await context.services.storage.chats.administers_any(user.id)


def not_admin(context: QuizContext) -> str:
    """The refusal of a bot admin's command; in a private chat it tells the person their id,
    which the bot's operator puts in QUIZ_ADMIN_IDS to make them an admin."""
    refusal = context.locale.t("not_admin")
    update = context.current_update
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None or chat.type != ChatType.PRIVATE:
        return refusal
    return f"{refusal}\n\n{context.locale.t('not_admin_hint', user_id=user.id)}"


def is_bot_admin(context: QuizContext) -> bool:
    user = context.current_update.effective_user
    return user is not None and user.id in context.services.settings.admin_ids


async def controls_chat(context: QuizContext) -> bool:
    """Whether the sender may start, stop, skip or reveal in this chat (`may_control`); for a
    handler that must check something else first (a button's own staleness)."""
    update = context.current_update
    chat = update.effective_chat
    if chat is None:
        return False
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
        cached = context.services.member_status.get((chat.id, user.id))
        status = await _member_status(context, chat.id, user.id)
        asked = context.services.member_status.get((chat.id, user.id)) is not cached
        if asked and status in ADMIN_STATUSES and chat.type != ChatType.PRIVATE:
            await _note_teacher(context, chat.id, chat.type, chat.title or "", user.id)
    return may_control(
        chat_type=chat.type,
        user_id=user.id if user is not None else None,
        member_status=status,
        sender_chat_id=sender_chat_id,
        chat_id=chat.id,
        configured_admins=admins,
    )


async def _note_teacher(
    context: QuizContext, chat_id: int, chat_type: str, title: str, user_id: int
) -> None:
    """An admin seen using the bot in their chat is a teacher from now on (their private
    commands and menu follow)."""
    services = context.services
    if await services.storage.chats.note_admin_seen(
        chat_id, chat_type, title, user_id, services.clock()
    ):
        teachers.changed(context)


ADMIN_STATUSES = frozenset({"creator", "administrator"})
MEMBER_STATUSES = frozenset({"creator", "administrator", "member", "restricted"})


async def is_member(context: QuizContext, chat_id: int, user_id: int) -> bool:
    """Whether the person is in the chat now, as getChatMember says (looked up at most once
    per `STATUS_TTL`; a restricted member counts). A Telegram error is raised: the caller
    tells a refusal from a failure."""
    return await _member_status(context, chat_id, user_id) in MEMBER_STATUSES


async def is_chat_admin(context: QuizContext, chat_id: int, user_id: int) -> bool:
    """Whether the person may control that chat now: one of the bot's admins, or the chat's
    creator or an administrator as getChatMember says. A Telegram error is raised."""
    if user_id in context.services.settings.admin_ids:
        return True
    return await _member_status(context, chat_id, user_id) in ("creator", "administrator")


ChatCheck = Callable[[QuizContext, int, int], Awaitable[bool]]  # `is_member`, `is_chat_admin`


async def sender_passes(context: QuizContext, chat_id: int, check: ChatCheck, refusal: str) -> bool:
    """Whether the sender passes `check` in that chat, now, as Telegram answers it. A no (or
    Telegram no longer knowing them there, or that chat) is said with the string `refusal`;
    Telegram failing to answer now, with "try again in a moment"."""
    try:
        allowed = await check(context, chat_id, context.learner.user_id)
    except TelegramError as error:
        if not faults.classify(error).permanent:
            await context.say(context.locale.t("member_check_failed"))
            return False
        allowed = False
    if not allowed:
        await context.say(context.locale.t(refusal))
    return allowed


async def administers(context: QuizContext, chat_id: int, user_id: int) -> bool:
    """Whether the person is that chat's creator or one of its administrators, as
    getChatMember says (being one of the bot's admins does not make one). A Telegram error is
    raised."""
    return await _member_status(context, chat_id, user_id) in ("creator", "administrator")


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
