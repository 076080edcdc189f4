"""The run loop of `python -m bot`, one for both modes.

In order: the health listener if `QUIZ_HEALTH_PORT` is set; the first Bot API call (`getMe`),
retried while the Bot API cannot be reached; `post_init` (database, banks, menus: "ready");
the application; updates, by long polling ("polling for updates") or by the webhook server
and `setWebhook` ("webhook: listening on ..."), the last line of a start. Then it
runs until SIGINT/SIGTERM or `application.stop_running()`, and stops in the reverse order:
the webhook stops taking updates, the application handles what it took (answers are
committed), `post_shutdown` flushes the database and logs "Quiz Tutor stopped".

It follows PTB's own `Application.run_polling` (`loop.run_forever`, so `stop_running` works
here too), which it replaces: that cannot serve our webhook or the health listener on its
loop, and its start-up retry prints a traceback and has no bound in time.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import NoReturn, TypeVar
from urllib.parse import urlsplit

from telegram import Update
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from bot.app import QuizApplication
from bot.config import HEALTH_PATH, Settings, webhook_path
from bot.serving import health
from bot.serving.dashboard import start_dashboard
from bot.serving.http import Listener
from bot.serving.webhook import start_webhook

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 30.0
# Telegram's maximum (its default is 40): it sends one update per request and waits for the
# answer, so the connections bound how many updates a second arrive; the server's cap
# (`Limits.connections`) leaves room above it for health probes and a reverse proxy
WEBHOOK_MAX_CONNECTIONS = 100


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator (exit code 2)."""


def run(application: QuizApplication, settings: Settings) -> None:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop_signal, _stop)
    check = health.application_health(application)
    listeners = _Listeners()
    try:
        if settings.health_port is not None:
            listeners.health = loop.run_until_complete(
                _listen(
                    health.start_listener(check, settings.health_port),
                    f"127.0.0.1:{settings.health_port}",
                )
            )
        deadline = loop.time() + settings.startup_timeout
        loop.run_until_complete(_until_reached(application.initialize, "getMe", settings, deadline))
        if application.post_init is not None:
            loop.run_until_complete(application.post_init(application))
        loop.run_until_complete(application.start())
        if settings.webhook_url:
            listeners.webhook = loop.run_until_complete(
                _start_webhook(application, settings, check)
            )
        else:
            if settings.app_url and settings.app_port is not None:
                listeners.app = loop.run_until_complete(
                    _listen(
                        start_dashboard(application, settings.app_port),
                        f"127.0.0.1:{settings.app_port}",
                    )
                )
            loop.run_until_complete(_start_polling(application, settings))
        loop.run_forever()
    except (KeyboardInterrupt, SystemExit):
        log.debug("stop signal received")
    finally:
        for stop_signal in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(stop_signal, _already_stopping)
        try:
            run_to_end(loop, shut_down(application, listeners))
        finally:
            _cancel_leftovers(loop)
            loop.close()


def run_to_end(loop: asyncio.AbstractEventLoop, coroutine: Awaitable[T]) -> T:
    """Run `coroutine` on `loop` to its end. A start step that the stop signal interrupted
    (`SystemExit` out of its `run_until_complete`) is still running, with the callback that
    stops the loop when it is done: ending meanwhile, it stops this run too, which is then
    taken up again."""
    task = asyncio.ensure_future(coroutine, loop=loop)
    while True:
        try:
            return loop.run_until_complete(task)
        except RuntimeError:
            if task.done():
                raise
            log.debug("a start step ended during the shutdown; the shutdown goes on")


def _stop() -> NoReturn:
    raise SystemExit


def _already_stopping() -> None:
    log.info("already stopping: pending writes are being flushed")


async def _listen(start: Awaitable[Listener], where: str) -> Listener:
    try:
        return await start
    except OSError as error:
        raise StartupError(f"cannot listen on {where}: {error.strerror or error}") from None


async def _start_webhook(
    application: QuizApplication, settings: Settings, check: health.HealthCheck
) -> Listener:
    listener = await _listen(
        start_webhook(application, settings, check),
        f"{settings.webhook_listen}:{settings.webhook_port}",
    )
    assert settings.webhook_url is not None

    async def set_webhook() -> None:
        await application.bot.set_webhook(
            url=settings.webhook_url,
            secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
            max_connections=WEBHOOK_MAX_CONNECTIONS,
        )

    deadline = asyncio.get_running_loop().time() + settings.startup_timeout
    try:
        await _until_reached(set_webhook, "setWebhook", settings, deadline)
    except TelegramError as error:  # e.g. Telegram takes only HTTPS URLs on a few ports
        await listener.close()
        raise StartupError(
            f"Telegram refused the webhook {settings.webhook_url}: {error}"
        ) from None
    except BaseException:
        await listener.close()
        raise
    log.info(
        "webhook: listening on %s:%d, path %s (and %s), registered with setWebhook",
        settings.webhook_listen,
        listener.port,
        webhook_path(settings.webhook_url),
        HEALTH_PATH,
    )
    return listener


async def _start_polling(application: QuizApplication, settings: Settings) -> None:
    def on_error(error: TelegramError) -> None:  # a fault while fetching updates
        application.create_task(application.process_error(error=error, update=None))

    assert application.updater is not None
    await application.updater.start_polling(
        poll_interval=0,
        timeout=settings.poll_timeout,
        allowed_updates=Update.ALL_TYPES,
        error_callback=on_error,
    )
    log.info("polling for updates")


async def _until_reached(
    call: Callable[[], Awaitable[object]], name: str, settings: Settings, deadline: float
) -> None:
    """`call()`, again while the Bot API cannot be reached (a network fault, 5xx, 429): one
    WARNING line, then retries 1 s apart doubling to 30 s, until `deadline`; then StartupError.
    A rejected token (InvalidToken) or any other refusal (400...) is raised at once."""
    loop = asyncio.get_running_loop()
    parts = urlsplit(settings.api_base_url)
    where = f"{parts.scheme}://{parts.netloc}"  # never the path: it may hold the token
    started = loop.time()
    delay = FIRST_RETRY_SECONDS
    tries = 0
    while True:
        try:
            await call()
        except BadRequest:  # a NetworkError in PTB, but a refusal that a retry cannot change
            raise
        except (NetworkError, RetryAfter) as error:
            tries += 1
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StartupError(
                    f"the Bot API at {where} could not be reached for "
                    f"{settings.startup_timeout:g} s ({name}: {error}); giving up "
                    "(QUIZ_STARTUP_TIMEOUT)"
                ) from None
            if tries == 1:
                log.warning(
                    "cannot reach the Bot API at %s (%s: %s); retrying for up to %g s",
                    where,
                    name,
                    error,
                    settings.startup_timeout,
                )
            else:
                log.debug("%s: try %d failed: %s", name, tries, error)
            await asyncio.sleep(min(delay, remaining))
            delay = min(delay * 2, MAX_RETRY_SECONDS)
        else:
            if tries:
                log.info("reached the Bot API at %s after %.0f s", where, loop.time() - started)
            return


@dataclass
class _Listeners:
    webhook: Listener | None = None
    health: Listener | None = None
    app: Listener | None = None  # the dashboard's, in polling mode


async def shut_down(application: QuizApplication, listeners: _Listeners | None = None) -> None:
    """PTB's order (updates stop, the application handles what it has, then shuts down),
    with our listeners: the webhook closes first, the health listener last. No job starts
    once the shutdown has begun: PTB waits for those running, and the scheduler would cancel
    one started meanwhile in its middle (what a job was to do is stored, and re-armed at the
    next start)."""
    if application.job_queue is not None and application.job_queue.scheduler.running:
        application.job_queue.scheduler.pause()
    listeners = listeners or _Listeners()
    if listeners.webhook is not None:
        await listeners.webhook.close()
    if listeners.app is not None:
        await listeners.app.close()
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)
    if listeners.health is not None:
        await listeners.health.close()


def _cancel_leftovers(loop: asyncio.AbstractEventLoop) -> None:
    leftovers = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in leftovers:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*leftovers, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
