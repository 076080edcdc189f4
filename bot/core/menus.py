"""The command menus (`setMyCommands`), from the commands' declarations (`bot.core.commands.menus`):
set at start, tried again in the background when Telegram refuses them, and set for one of
the bot's admins when that admin first writes to the bot (Telegram knows no private chat with
someone who never started the bot, so their menu cannot be set before).

A teacher (`bot.core.teachers`) gets a menu of their own in their private chat (a chat scope,
every language) and, when the dashboard is on (`QUIZ_APP_URL`), the chat's menu button opens
it (`setChatMenuButton`); the bot's admins get the button too. Both are set by a JobQueue job
as the bot learns of a teacher (and at start, for those it knows), a few people a run, and
taken back when they administer no chat the bot is in any more.

The menus are a convenience: a refusal is one log line and the bot serves on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    MenuButtonWebApp,
    Update,
    WebAppInfo,
)
from telegram.error import TelegramError
from telegram.ext import Application, JobQueue, MessageHandler, filters

from bot.config import Settings
from bot.core import teachers
from bot.core.commands import Audience, Command, Menu, MenuScope, audience_menus, menus
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE
from bot.core.i18n import FALLBACK, STRINGS, translate

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 600.0
TEACHERS_AT_ONCE = 10  # teachers whose menus one run of the job sets or takes back
TEACHERS_PAUSE = 1.0  # seconds between two runs, when more are waiting
TEACHER_JOB = "teacher-menus"
ADMINS_JOB = "teacher-admins"
# how often the teachers are compared with the menus set anyway: a change stored by a path
# that does not say so (the dashboard checking an admin again) is followed within this time
TEACHERS_CHECK_SECONDS = 600.0
# after the features' handlers (group 0), in a group of its own: it never takes an update
# from them
HANDLER_GROUP = 1


Job = Callable[[QuizContext], Coroutine[Any, Any, None]]


def _later(
    application: Application[Any, Any, Any, Any, Any, Any], job: Job, seconds: float, name: str
) -> None:
    """Run `job` in `seconds`, unless it is already waiting to run."""
    jobs: JobQueue[QuizContext] | None = application.job_queue
    assert jobs is not None
    if not jobs.get_jobs_by_name(name):
        jobs.run_once(job, when=seconds, name=name)


def _scope(scope: MenuScope) -> BotCommandScope:
    if scope.type == "chat":
        assert scope.chat_id is not None
        return BotCommandScopeChat(scope.chat_id)
    return {
        "default": BotCommandScopeDefault,
        "all_private_chats": BotCommandScopeAllPrivateChats,
        "all_group_chats": BotCommandScopeAllGroupChats,
        "all_chat_administrators": BotCommandScopeAllChatAdministrators,
    }[scope.type]()


async def _set(bot: Bot, menu: Menu) -> None:
    await bot.set_my_commands(
        [BotCommand(name, description) for name, description in menu.commands],
        scope=_scope(menu.scope),
        language_code=menu.language,
    )


class CommandMenus:
    """Every menu of the declared commands, for the configured admins."""

    def __init__(self, declared: Sequence[Command], settings: Settings) -> None:
        self.settings = settings
        self.menus = menus(declared, settings.admin_ids, STRINGS, translate, FALLBACK)
        # a teacher's menus, for the chat id 0: each teacher's chat in its place
        teacher = MenuScope("chat", 0)
        self.teacher_menus = audience_menus(
            declared, Audience.TEACHER, teacher, STRINGS, translate, FALLBACK
        )
        # the admins and teachers whose own menu Telegram refused: set when they write
        self.waiting = filters.User(allow_empty=False)
        self.teachers: set[int] = set()  # the teachers whose menus are set
        self.unreachable: set[int] = set()  # teachers whose menus wait for their message
        self.wrote: set[int] = set()  # teachers who wrote since (whatever storage says yet)
        self._stale = False  # the teachers may have changed since the last run
        self._asked: set[int] = set()  # chats whose unknown admins were asked for at start
        self._running = False

    def install(self, application: Application[Any, QuizContext, Any, Any, Any, Any]) -> None:
        application.add_handler(
            MessageHandler(PRIVATE_MESSAGE & self.waiting, self._waiting_writes),
            group=HANDLER_GROUP,
        )
        application.bot_data[teachers.MENUS_KEY] = self.teachers_changed

    async def start(self, application: Application[Any, QuizContext, Any, Any, Any, Any]) -> None:
        """At start: every menu; what Telegram refuses is one WARNING line, then tried again
        by a JobQueue job, `commands_retry_seconds` later and twice as long each time (at
        most 10 minutes), `commands_retries` times."""
        try:
            await self._send_all(application.bot)
        except TelegramError as error:
            log.warning("command menus not set (%s); will retry in the background", error)
            self._retry(application, tries=1)
        self.teachers_changed(application)  # the teachers known from earlier runs
        assert application.job_queue is not None
        application.job_queue.run_repeating(
            self._check_teachers, interval=TEACHERS_CHECK_SECONDS, name="teacher-menus-check"
        )
        _later(application, self._learn_admins, 0, ADMINS_JOB)

    async def _send_all(self, bot: Bot) -> None:
        for menu in self.menus:
            if menu.scope.chat_id is None:
                await _set(bot, menu)
        for admin_id in sorted(self.settings.admin_ids):
            await self._send_admin(bot, admin_id)

    async def _send_admin(self, bot: Bot, admin_id: int) -> bool:
        """An admin's own menus (a chat scope); refused (the admin has not written to the
        bot yet), they wait for the admin's first message."""
        try:
            for menu in self.menus:
                if menu.scope.chat_id == admin_id:
                    await _set(bot, menu)
            await self._dashboard_button(bot, admin_id, True)
        except TelegramError as error:
            log.info("admin %s: command menu set once they write to the bot (%s)", admin_id, error)
            self.waiting.add_user_ids(admin_id)
            return False
        self.waiting.remove_user_ids(admin_id)
        return True

    async def _waiting_writes(self, update: Update, context: QuizContext) -> None:
        user = update.effective_user
        if user is None:
            return
        if user.id not in self.settings.admin_ids:  # a teacher: the job sets their menu
            self.waiting.remove_user_ids(user.id)
            self.unreachable.discard(user.id)
            self.wrote.add(user.id)
            self.teachers_changed(context.application)
        elif await self._send_admin(context.bot, user.id):
            log.info("admin %s: command menu set", user.id)

    async def _dashboard_button(self, bot: Bot, chat_id: int, shown: bool) -> None:
        """The private chat's menu button: the dashboard, or Telegram's default again."""
        url = self.settings.app_url
        if url is None:
            return
        if shown:
            text = translate(FALLBACK, "dashboard_menu_button")
            await bot.set_chat_menu_button(chat_id, MenuButtonWebApp(text, WebAppInfo(url)))
        else:
            await bot.set_chat_menu_button(chat_id)

    # the teachers' own menus

    def teachers_changed(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Bring the teachers' menus up to date in the background (`_follow_teachers`)."""
        self._stale = True
        if not self._running:
            self._follow_later(application, 0)

    def _follow_later(
        self, application: Application[Any, Any, Any, Any, Any, Any], seconds: float
    ) -> None:
        _later(application, self._follow_teachers, seconds, TEACHER_JOB)

    async def _learn_admins(self, context: QuizContext) -> None:
        """At start, the admins of the chats the bot is in but never asked for (it joined them
        before it kept their admins): `TEACHERS_AT_ONCE` chats a run, their teachers' menus
        following."""
        services = context.services
        more = await teachers.learn_unknown_admins(
            context.bot, services.storage, services.clock(), TEACHERS_AT_ONCE, self._asked
        )
        self.teachers_changed(context.application)
        if more:
            _later(context.application, self._learn_admins, TEACHERS_PAUSE, ADMINS_JOB)

    async def _check_teachers(self, context: QuizContext) -> None:
        self.teachers_changed(context.application)

    async def _follow_teachers(self, context: QuizContext) -> None:
        """Set the menus of those who became teachers, take back those of who no longer are:
        `TEACHERS_AT_ONCE` people a run, the rest `TEACHERS_PAUSE` later (the Bot API's
        rate limit kept by the client besides)."""
        if self._running:
            return  # the run in progress sees `_stale`
        self._running = True
        try:
            while self._stale:
                self._stale = False
                found = await context.services.storage.chats.teachers()
                wanted = set(found) - self.settings.admin_ids
                known = self.teachers | self.unreachable
                work = []
                for user_id in sorted(wanted - known):
                    if found[user_id] or user_id in self.wrote:
                        work.append((user_id, True))
                    else:  # Telegram knows no private chat with them: at their first message
                        self._wait_for(user_id)
                work += [(user_id, False) for user_id in sorted(known - wanted)]
                for user_id, teacher in work[:TEACHERS_AT_ONCE]:
                    await self._set_teacher(context.bot, user_id, teacher)
                if len(work) > TEACHERS_AT_ONCE:
                    self._stale = True
                    self._follow_later(context.application, TEACHERS_PAUSE)
                    return
        finally:
            self._running = False

    def _wait_for(self, user_id: int) -> None:
        self.wrote.discard(user_id)
        self.unreachable.add(user_id)
        self.waiting.add_user_ids(user_id)

    async def _set_teacher(self, bot: Bot, user_id: int, teacher: bool) -> None:
        """A teacher's menus and menu button, or Telegram's defaults again."""
        if not teacher and user_id in self.unreachable:  # nothing was set
            self.unreachable.discard(user_id)
            self.waiting.remove_user_ids(user_id)
            return
        scope = MenuScope("chat", user_id)
        try:
            for menu in self.teacher_menus:
                if teacher:
                    await _set(bot, Menu(scope, menu.language, menu.commands))
                else:
                    await bot.delete_my_commands(_scope(scope), menu.language)
            await self._dashboard_button(bot, user_id, teacher)
        except TelegramError as error:
            if teacher:  # never wrote to the bot, or blocked it: when they write
                log.info("teacher %s: menu set once they write to the bot (%s)", user_id, error)
                self._wait_for(user_id)
            else:
                log.info("teacher %s: menu not taken back (%s)", user_id, error)
                self.teachers.discard(user_id)
            return
        if teacher:
            self.teachers.add(user_id)
            self.wrote.discard(user_id)
            log.info("teacher %s: menu set", user_id)
        else:
            self.teachers.discard(user_id)
            log.info("teacher %s: menu taken back", user_id)

    def _retry(
        self, application: Application[Any, QuizContext, Any, Any, Any, Any], tries: int
    ) -> None:
        settings = self.settings

        async def again(context: QuizContext) -> None:
            try:
                await self._send_all(context.bot)
            except TelegramError as error:
                if tries >= settings.commands_retries:
                    log.warning(
                        "command menus: gave up after %d retries (%s); they are tried again at "
                        "the next start",
                        tries,
                        error,
                    )
                    return
                log.info("command menus: retry %d failed (%s)", tries, error)
                self._retry(application, tries + 1)
            else:
                log.info("command menus set, on retry %d", tries)

        assert application.job_queue is not None
        delay = min(settings.commands_retry_seconds * 2 ** (tries - 1), MAX_RETRY_SECONDS)
        application.job_queue.run_once(again, when=delay, name="command-menus")
