"""The one place where the application is built and wired."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes, Defaults

from bot import admin, chats, common, dashboard, group, homework, learner, reports
from bot.config import Settings
from bot.core import handlers
from bot.core.context import SERVICES_KEY, QuizContext, Services
from bot.core.i18n import STRINGS, translate
from bot.core.transport import AiohttpRequest, QuizBot, RateLimiter
from bot.core.update_processor import PerChatUpdateProcessor, UpdateQueue
from bot.serving.toaster import Toaster
from content.catalog import Catalog
from content.group_rules import SendPace
from storage import ClaimedDatabase, Storage

log = logging.getLogger(__name__)

# the command menus, in the order shown
PRIVATE_COMMANDS = (
    "start",
    "quizzes",
    "quiz",
    "review",
    "progress",
    "preview",
    "remind",
    "timezone",
    "language",
    "help",
    "forgetme",
)
GROUP_COMMANDS = (*group.COMMANDS, *reports.COMMANDS, *homework.COMMANDS, "help")
ADMIN_COMMANDS = (
    "import", "addquestion", "export", "delquestion", "push", "schedule", "stats", "collect",
    *reports.ADMIN_COMMANDS,
)  # fmt: skip
# in the order they are asked for an update: a feature's deep links before the learner's /start
FEATURES = (admin, group, reports, homework, chats, dashboard, learner)

QuizApplication = Application[Any, QuizContext, Any, Any, Any, Any]


DATABASE_WATCH_SECONDS = 2.0  # how often the database file is checked while no write happens


def build_application(
    settings: Settings,
    clock: Callable[[], float] = time.time,
    *,
    database: ClaimedDatabase | None = None,
    on_database_lost: Callable[[], None] | None = None,
) -> QuizApplication:
    """The PTB application with every handler; resources open in `post_init`. `database` is
    the database file already claimed (`storage.claim_database`), else `settings.db_path`;
    `on_database_lost` is called once if that file is deleted or replaced while the bot runs
    (`python -m bot` stops then, to be restarted)."""
    poll_chats: dict[str, int] = {}  # quiz polls this process posted -> their chat
    toasters: list[Toaster] = []  # the toast process, while it runs (QUIZ_TOAST_PROCESS)
    # the database once opened: closed at shutdown even if a stop interrupted post_init (its
    # thread would keep the process from exiting)
    storages: list[Storage] = []

    async def post_init(application: QuizApplication) -> None:
        storage = await Storage.open(
            settings.db_path,
            claimed=database,
            on_lost=on_database_lost,
            watch_seconds=DATABASE_WATCH_SECONDS,
        )
        storages.append(storage)
        catalog = Catalog.from_folder(settings.content_dir, settings.default_language)
        pace = SendPace(interval=settings.group_count_interval)
        toaster = await Toaster.start(settings) if settings.uses_toast_process else None
        if toaster is not None:
            toasters.append(toaster)
        services = Services(
            settings, storage, catalog, clock, pace=pace, poll_chats=poll_chats, toaster=toaster
        )
        application.bot_data[SERVICES_KEY] = services
        assert application.job_queue is not None
        for feature in FEATURES:
            await feature.start(application.job_queue, services)
        await _set_commands(application, settings)
        log.info(
            "Quiz Tutor ready as @%s: %d quiz(zes), database %s",
            application.bot.username,
            len(catalog),
            settings.db_path,
        )

    async def post_shutdown(application: QuizApplication) -> None:
        # every update was handled: the last toast was handed over
        while toasters:
            await toasters.pop().stop()
        while storages:
            await storages.pop().close()
        if application.bot_data.pop(SERVICES_KEY, None) is not None:  # it was ready
            log.info("Quiz Tutor stopped")

    application: QuizApplication = (
        Application.builder()
        .bot(_bot(settings))
        .context_types(ContextTypes(context=QuizContext))
        .concurrent_updates(PerChatUpdateProcessor(poll_chats=poll_chats, clock=clock))
        .update_queue(UpdateQueue())
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    for guard, group_number in handlers.guards():
        application.add_handler(guard, group=group_number)
    # the admin's /addquestion conversation takes an admin's text before anything else;
    # the common handlers take what no feature took
    for feature in FEATURES:
        application.add_handlers(feature.handlers())
    application.add_handlers(common.handlers(private_commands=learner.COMMANDS))
    application.add_error_handler(common.on_error)
    return application


def _bot(settings: Settings) -> QuizBot:
    """The bot: HTML by default, no link previews, requests over aiohttp, Telegram's limits
    kept by the client."""
    return QuizBot(
        settings.token,
        base_url=settings.api_base_url,
        base_file_url=settings.file_base_url,
        request=AiohttpRequest(),
        get_updates_request=AiohttpRequest(connection_pool_size=1),
        defaults=Defaults(
            parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
        ),
        rate_limiter=_rate_limiter(settings),
    )


def _rate_limiter(settings: Settings) -> RateLimiter:
    """Telegram's limits, kept by the client: 20 messages a minute into one group always, and
    `QUIZ_MAX_MESSAGES_PER_SECOND` overall (0 turns the overall limit off, for a local Bot API
    server or a benchmark). A 429 is waited out and retried. Callback answers pass freely."""
    overall = settings.max_messages_per_second
    if overall > 0:
        return RateLimiter(overall_max_rate=overall, overall_time_period=1, max_retries=5)
    return RateLimiter(overall_max_rate=0, max_retries=5)


def _commands(names: tuple[str, ...], language: str) -> list[BotCommand]:
    return [BotCommand(name, translate(language, f"cmd_{name}")) for name in names]


async def _set_commands(application: QuizApplication, settings: Settings) -> None:
    """The command menus. They are a convenience: a refusal is one WARNING line and the bot
    serves on, while a JobQueue job tries again, `commands_retry_seconds` later and then
    twice as long each time (at most 10 minutes), `commands_retries` times."""
    try:
        await _send_commands(application.bot, settings)
    except TelegramError as error:
        log.warning("command menus not set (%s); will retry in the background", error)
        _retry_commands(application, settings, tries=1)


COMMANDS_MAX_RETRY_SECONDS = 600.0


def _retry_commands(application: QuizApplication, settings: Settings, tries: int) -> None:
    async def again(context: QuizContext) -> None:
        try:
            await _send_commands(context.bot, settings)
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
            _retry_commands(application, settings, tries + 1)
        else:
            log.info("command menus set, on retry %d", tries)

    assert application.job_queue is not None
    delay = min(settings.commands_retry_seconds * 2 ** (tries - 1), COMMANDS_MAX_RETRY_SECONDS)
    application.job_queue.run_once(again, when=delay, name="command-menus")


async def _send_commands(bot: Bot, settings: Settings) -> None:
    """The command menu per scope, in every interface language; admins get theirs in their
    own chat (a chat scope), so nobody else sees the admin commands."""
    for language in STRINGS:
        code = None if language == "en" else language
        await bot.set_my_commands(
            _commands(PRIVATE_COMMANDS, language),
            scope=BotCommandScopeAllPrivateChats(),
            language_code=code,
        )
        await bot.set_my_commands(
            _commands(GROUP_COMMANDS, language),
            scope=BotCommandScopeAllGroupChats(),
            language_code=code,
        )
        for admin_id in sorted(settings.admin_ids):
            try:
                await bot.set_my_commands(
                    _commands(PRIVATE_COMMANDS + ADMIN_COMMANDS, language),
                    scope=BotCommandScopeChat(admin_id),
                    language_code=code,
                )
            except TelegramError as error:  # e.g. the admin has not opened a chat with the bot
                log.warning("admin %s: command menu not set: %s", admin_id, error)
