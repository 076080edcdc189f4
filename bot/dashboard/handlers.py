"""`/dashboard`, and what Telegram says of the chats the bot is in (the dashboard finds a
teacher's classes in what these record: storage/chat_store.py)."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, WebAppInfo
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import BaseHandler, ChatMemberHandler

from bot.core import commands, teachers
from bot.core.commands import Command, Role, Task, Where
from bot.core.context import QuizContext
from storage.chat_store import BOT_PRESENT

ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def dashboard(update: Update, context: QuizContext) -> None:
    """`/dashboard`: a button that opens the Mini App. Inline `web_app` buttons work in
    private chats only (a reply-keyboard one gives the app no initData), so a group is
    pointed to the private chat."""
    url = context.services.settings.app_url
    chat = update.effective_chat
    if url is None:
        await context.say(context.locale.t("dashboard_off"))
    elif chat is None or chat.type != ChatType.PRIVATE:
        await context.say(context.locale.t("dashboard_in_private"))
    else:
        button = InlineKeyboardButton(context.locale.t("dashboard_button"), web_app=WebAppInfo(url))
        await context.say(context.locale.t("dashboard_open"), InlineKeyboardMarkup([[button]]))


async def bot_membership(update: Update, context: QuizContext) -> None:
    """The bot was added to a chat, removed, promoted or restricted."""
    changed = update.my_chat_member
    if changed is None or changed.chat.type == ChatType.PRIVATE:
        return
    services = context.services
    status = str(changed.new_chat_member.status)
    chat = changed.chat
    await services.storage.chats.note_chat(
        chat.id, chat.type, chat.title or "", status, services.clock()
    )
    # its admins are teachers (their private commands, menu and menu button follow); gone,
    # they may no longer be
    if status in BOT_PRESENT:
        await teachers.learn_admins(context.bot, services.storage, chat.id, services.clock())
    teachers.changed(context)


async def member_change(update: Update, context: QuizContext) -> None:
    """Someone became an admin of a chat or stopped being one (Telegram sends these to a bot
    that is an admin there)."""
    changed = update.chat_member
    if changed is None or changed.new_chat_member.user.is_bot:
        return
    was = changed.old_chat_member.status in ADMIN_STATUSES
    now = changed.new_chat_member.status in ADMIN_STATUSES
    if was != now:
        await context.services.storage.chats.note_admin(
            changed.chat.id, changed.new_chat_member.user.id, now
        )
        teachers.changed(context)


# the teachers' (the admins of a chat the bot is in); in a group, its admins are pointed to
# the private chat
COMMANDS = (
    Command("dashboard", dashboard, Role.TEACHER, Where.PRIVATE, Task.HOMEWORK),
    Command("dashboard", dashboard, Role.CHAT_ADMIN, Where.GROUP, Task.HOMEWORK, key="cmd_dashboard_group"),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return [
        *commands.handlers(COMMANDS),
        ChatMemberHandler(bot_membership, ChatMemberHandler.MY_CHAT_MEMBER),
        ChatMemberHandler(member_change, ChatMemberHandler.CHAT_MEMBER),
    ]
