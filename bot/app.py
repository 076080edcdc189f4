"""The one place where the application is built and wired."""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.ext import Application, BaseHandler, ContextTypes, Defaults

from bot import admin, chats, common, dashboard, group, homework, learner, reports
from bot.config import Settings
from bot.core import commands, handlers
from bot.core.context import SERVICES_KEY, QuizContext, Services
from bot.core.menus import CommandMenus
from bot.core.pace import SendPace
from bot.core.transport import AiohttpRequest, QuizBot, RateLimiter
from bot.core.update_processor import PerChatUpdateProcessor, UpdateQueue, poll_chats
from bot.serving.toaster import Toaster
from content.catalog import Catalog
from storage import ClaimedDatabase, Storage

log = logging.getLogger(__name__)

# in the order they are asked for an update: a feature's deep links before the learner's /start
FEATURES = (admin, group, homework, reports, chats, dashboard, learner)
# every command, as its feature declares it: menus, /help and the README's table follow
COMMANDS = tuple(c for feature in (*FEATURES, common) for c in feature.COMMANDS)

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
    polls = poll_chats()  # quiz polls this process posted -> their chat
    toasters: list[Toaster] = []  # the toast process, while it runs (QUIZ_TOAST_PROCESS)
    # the database once opened: closed at shutdown even if a stop interrupted post_init (its
    # thread would keep the process from exiting)
    storages: list[Storage] = []
    menus = CommandMenus(COMMANDS, settings)

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
        toaster = (
            await Toaster.start(settings, application.bot.answer_callback_query)
            if settings.uses_toast_process
            else None
        )
        if toaster is not None:
            toasters.append(toaster)
        services = Services(
            settings, storage, catalog, clock, toaster=toaster, pace=pace, poll_chats=polls
        )
        application.bot_data[SERVICES_KEY] = services
        assert application.job_queue is not None
        # a group that became a supergroup, learnt from a refused call, is followed there
        jobs = application.job_queue
        bot.follow_chat_moves(lambda old, new: group.follow(bot, services, jobs, old, new))
        for feature in FEATURES:
            await feature.start(application.job_queue, services)
        await menus.start(application)
        # what start made (the catalog, the application) lives as long as the bot: out of the
        # garbage collector's full passes, which otherwise held the event loop 150 ms at a time
        # (docs/performance.md)
        gc.collect()
        gc.freeze()
        log.info(
            "Quiz Tutor ready as @%s: %d quiz(zes), database %s",
            application.bot.username,
            len(catalog),
            settings.db_path,
        )

    async def post_shutdown(application: QuizApplication) -> None:
        bot.follow_chat_moves(None)
        gc.unfreeze()  # collectable again (a process that starts bots again, the tests)
        # every update was handled: the last toast was handed over
        while toasters:
            await toasters.pop().stop()
        while storages:
            await storages.pop().close()
        if application.bot_data.pop(SERVICES_KEY, None) is not None:  # it was ready
            log.info("Quiz Tutor stopped")

    bot = _bot(settings)
    application: QuizApplication = (
        Application.builder()
        .bot(bot)
        .context_types(ContextTypes(context=QuizContext))
        .concurrent_updates(PerChatUpdateProcessor(poll_chats=polls, clock=clock))
        .update_queue(UpdateQueue())
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    for guard, group_number in handlers.guards():
        application.add_handler(guard, group=group_number)
    # the admin's /addquestion conversation takes an admin's text before anything else;
    # the common handlers take what no feature took
    for feature_handlers in _feature_handlers():
        application.add_handlers(feature_handlers)
    application.add_handlers(common.handlers(COMMANDS))
    commands.publish(application.bot_data, COMMANDS)
    # what a feature lends another: the dashboard sends and serves the reports' files, and
    # for the bot's admins the banks' files as /export makes them
    dashboard.lend(
        application.bot_data,
        dashboard.Reports(reports.report_file, reports.send_session_report),
        dashboard.Banks(admin.bank_file, admin.export_quiz),
    )
    menus.install(application)
    application.add_error_handler(common.on_error)
    return application


def _feature_handlers() -> list[list[BaseHandler[Any, QuizContext, Any]]]:
    """Each feature's handlers, in the order of `FEATURES`, and what a feature lends another:
    the learner's `open_attempt` asks the private attempts that reports (a review of what a
    member missed) and homework start, and its `open_homework_exam` a member's exam of an exam
    homework."""
    handlers_of = {
        admin: admin.handlers(),
        group: group.handlers(),
        homework: homework.handlers(
            open_attempt=learner.open_attempt, open_exam=learner.open_homework_exam
        ),
        reports: reports.handlers(open_attempt=learner.open_attempt),
        chats: chats.handlers(),
        dashboard: dashboard.handlers(),
        learner: learner.handlers(),
    }
    return [handlers_of[feature] for feature in FEATURES]


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
