"""The one place where the application is built and wired."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode
from telegram.ext import AIORateLimiter, Application, ContextTypes, Defaults

from bot import group_flow
from bot.config import Settings
from bot.context import SERVICES_KEY, QuizContext, Services
from bot.handlers import common, group, learner
from bot.i18n import STRINGS, translate
from content.catalog import Catalog
from content.group_rules import SendPace
from storage import Repository

log = logging.getLogger(__name__)

PRIVATE_COMMANDS = ("start", "quizzes", "quiz", "preview", "progress", "language", "help")
GROUP_COMMANDS = ("groupquiz", "stopquiz", "skip", "leaderboard", "help")

QuizApplication = Application[Any, QuizContext, Any, Any, Any, Any]


def build_application(
    settings: Settings, clock: Callable[[], float] = time.time
) -> QuizApplication:
    """The PTB application with every handler; resources open in `post_init`."""

    async def post_init(application: QuizApplication) -> None:
        repo = await Repository.open(settings.db_path)
        catalog = Catalog.from_folder(settings.content_dir, settings.default_language)
        pace = SendPace(interval=settings.group_count_interval)
        application.bot_data[SERVICES_KEY] = Services(settings, repo, catalog, clock, pace)
        await _set_commands(application)
        # running group quizzes continue: timers re-armed, unasked questions asked
        assert application.job_queue is not None
        application.job_queue.run_once(group_flow.resume_job, when=0, name="group-resume")
        log.info(
            "Quiz Tutor ready as @%s: %d quiz(zes), database %s",
            application.bot.username,
            len(catalog),
            settings.db_path,
        )

    async def post_shutdown(application: QuizApplication) -> None:
        services: Services | None = application.bot_data.pop(SERVICES_KEY, None)
        if services is not None:
            await services.repo.close()
        log.info("Quiz Tutor stopped")

    application: QuizApplication = (
        Application.builder()
        .token(settings.token)
        .base_url(settings.api_base_url)
        .base_file_url(settings.file_base_url)
        .defaults(
            Defaults(
                parse_mode=ParseMode.HTML,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
        )
        .context_types(ContextTypes(context=QuizContext))
        .rate_limiter(AIORateLimiter(max_retries=5))
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    for handler in group.handlers():  # before the learner's catch-all button handler
        application.add_handler(handler)
    for handler in learner.handlers():
        application.add_handler(handler)
    for handler in common.handlers():
        application.add_handler(handler)
    application.add_error_handler(common.on_error)
    return application


def _commands(names: tuple[str, ...], language: str) -> list[BotCommand]:
    return [BotCommand(name, translate(language, f"cmd_{name}")) for name in names]


async def _set_commands(application: QuizApplication) -> None:
    """The command menu per scope, in every interface language."""
    bot = application.bot
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
