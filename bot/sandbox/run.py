"""`python -m bot sandbox`: the real bot, the Bot API stand-in and the chat page in one process,
with no token and no network. The one module of `bot/sandbox/` that knows the bot: the stand-in
(`server.py`) and the page (`web/`) import nothing of it.

In order: the stand-in on a free port of 127.0.0.1, strict as Telegram (flood limits on); the
page at `--port`; the bot, built as `python -m bot` builds it (same Application, handlers and
SQLite; `data/sandbox.sqlite3` unless `QUIZ_DB_PATH` says otherwise), with a fixed fake token
and the simulated bot admin in its admin ids, polling the stand-in; with `--content DIR`, a
watcher that reloads the banks of DIR when a file changes. SIGINT/SIGTERM stop it in the
reverse order.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import sqlite3
import sys
import webbrowser
from pathlib import Path

from telegram import Update

from bot.app import build_application
from bot.config import ConfigError, Settings
from bot.core.context import SERVICES_KEY, Services
from bot.sandbox.server import TELEGRAM, FakeBotApi
from bot.sandbox.web.cast import SANDBOX_TOKEN, Cast
from bot.sandbox.web.page import SandboxPage
from bot.serving.dashboard import Dashboard
from bot.serving.lifecycle import shut_down
from content.loader import bank_files, load_bank_file
from storage import StorageError, claim_database

log = logging.getLogger("bot.sandbox")

DEFAULT_PORT = 8080
DEFAULT_DATABASE = Path("data/sandbox.sqlite3")
WATCH_SECONDS = 1.0  # how often `--content` files are looked at


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help="port of the chat page (default 8080)"
    )
    parser.add_argument(
        "--content",
        type=Path,
        metavar="DIR",
        help="a folder of banks to show, reloaded when a file changes (default: the bundled banks)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def main(args: argparse.Namespace) -> int:
    if args.content is not None and not args.content.is_dir():
        print(f"quiz-tutor sandbox: {args.content} is not a folder", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    try:
        return asyncio.run(_serve(args))
    except ConfigError as error:
        print(f"quiz-tutor sandbox: {error}", file=sys.stderr)
        return 2


def sandbox_settings(api: FakeBotApi, cast: Cast, content: Path | None) -> Settings:
    """The bot's settings from the environment (and `.env`), pointed at the stand-in: its
    token, the simulated bot admin, the sandbox's database; no webhook, no health port."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TELEGRAM_")}
    environ.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=api.base_url,
        TELEGRAM_API_BASE_FILE_URL="",
        QUIZ_WEBHOOK_URL="",
        QUIZ_WEBHOOK_SECRET="",
        QUIZ_HEALTH_PORT="",
    )
    settings = Settings.from_env(environ)
    return dataclasses.replace(
        settings,
        admin_ids=settings.admin_ids | cast.bot_admin_ids,
        db_path=Path(os.environ.get("QUIZ_DB_PATH") or DEFAULT_DATABASE),
        content_dir=content if content is not None else settings.content_dir,
        poll_timeout=2,  # a stop waits for the long poll in progress to end
    )


async def _serve(args: argparse.Namespace) -> int:
    # Telegram's test environment: a Mini App may be served over http (on 127.0.0.1 here)
    api = FakeBotApi(
        token=SANDBOX_TOKEN, strictness=dataclasses.replace(TELEGRAM, http_web_apps=True)
    )
    await api.start()
    cast = Cast(api)
    page = SandboxPage(api, cast)
    try:
        await page.start(args.port)
    except OSError as error:
        await api.stop()
        print(
            f"quiz-tutor sandbox: cannot serve the page on 127.0.0.1:{args.port}: {error}",
            file=sys.stderr,
        )
        return 2
    try:
        settings = dataclasses.replace(
            sandbox_settings(api, cast, args.content), app_url=page.mini_app_url
        )
        return await _run_bot(api, page, settings, args)
    finally:
        await page.stop()
        await api.stop()


async def _run_bot(
    api: FakeBotApi, page: SandboxPage, settings: Settings, args: argparse.Namespace
) -> int:
    try:
        claimed = claim_database(settings.db_path)
    except (StorageError, OSError) as error:
        print(f"quiz-tutor sandbox: cannot use the database: {error}", file=sys.stderr)
        return 2
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop_signal, stopping.set)
    application = build_application(settings, database=claimed, on_database_lost=stopping.set)
    page.mount(Dashboard(application, frame_ancestors="'self'"))  # the page frames it
    try:
        await application.initialize()
        assert application.post_init is not None and application.updater is not None
        await application.post_init(application)
        await application.start()
        await application.updater.start_polling(
            poll_interval=0, timeout=settings.poll_timeout, allowed_updates=Update.ALL_TYPES
        )
    except (StorageError, sqlite3.Error, OSError) as error:
        print(
            f"quiz-tutor sandbox: cannot use the database {settings.db_path}: {error}",
            file=sys.stderr,
        )
        return 2
    watcher = None
    if args.content is not None:
        services: Services = application.bot_data[SERVICES_KEY]
        watcher = loop.create_task(watch_content(args.content, services, page))
    url = f"http://127.0.0.1:{page.port}/"
    log.info("sandbox ready: open %s (database %s)", url, settings.db_path)
    if not args.no_browser:
        await loop.run_in_executor(None, open_browser, url)
    try:
        await stopping.wait()
    finally:
        log.info("sandbox stopping")
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        await shut_down(application)
        for stop_signal in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(stop_signal)
    return 0


def open_browser(url: str) -> None:
    """Open the page where a graphical browser can be found; never fails. On Linux without a
    display nothing is tried (a text browser would take over the terminal)."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return
    try:
        webbrowser.open(url)
    except Exception as error:  # any browser trouble: the URL is in the log line above
        log.info("no browser opened (%s)", error)


async def watch_content(folder: Path, services: Services, page: SandboxPage) -> None:
    """Reload a bank of `folder` when its file changes; a bank that fails validation is shown
    with its errors on the page and in the log, and the others stay served. A bank whose file
    is removed stays served until the sandbox restarts."""
    seen: dict[Path, tuple[int, int]] = {}
    errors: dict[str, list[str]] = {}
    first = True
    while True:
        current = _modification_times(folder)
        changed = [path for path, mtime in sorted(current.items()) if seen.get(path) != mtime]
        gone = [path for path in seen if path not in current]
        for path in changed:
            language = services.settings.default_language
            result = await asyncio.to_thread(load_bank_file, path, language)
            if result.quiz is None:
                errors[path.name] = list(result.errors)
                if not first:  # at start the catalog has logged them
                    for problem in result.errors:
                        log.error("bank %s refused: %s", path.name, problem)
                continue
            errors.pop(path.name, None)
            services.catalog.put(result.quiz)
            if not first:
                log.info("bank %s reloaded: quiz %s", path.name, result.quiz.id)
        for path in gone:
            errors.pop(path.name, None)
        if changed or gone:
            page.show_content_errors(errors)
        seen, first = current, False
        await asyncio.sleep(WATCH_SECONDS)  # the polling interval of the watch


def _modification_times(folder: Path) -> dict[Path, tuple[int, int]]:
    """Each bank file of `folder`, when it last changed and its size (a file removed meanwhile:
    left out)."""
    found = {}
    try:
        paths = bank_files(folder)
    except OSError as error:
        log.warning("content folder %s: %s", folder, error)
        return {}
    for path in paths:
        with contextlib.suppress(OSError):
            status = path.stat()
            found[path] = (status.st_mtime_ns, status.st_size)
    return found
