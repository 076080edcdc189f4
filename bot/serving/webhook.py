"""The webhook: Telegram POSTs each update to the path of `QUIZ_WEBHOOK_URL`.

Checked in order, each before anything costs more: the path (404) and the method (405); the
secret token header against `QUIZ_WEBHOOK_SECRET`, in constant time, before any byte of the
body is read (403); the announced length (413); then the body is read under the cap (413)
and the deadline (408); it must be a JSON object with an integer `update_id` (400). A good
update is answered 200 at once and handled behind the answer: PTB's parsing of it
(`Update.de_json`, a quarter of the bot's time per update) is done by the `Intake`, which
hands the updates to the application in the order they came, with the time each came.
While `Limits.pending_updates` updates are accepted and not yet handled, a POST waits for
room (and Telegram's connection with it), at most `Limits.room_seconds`, then is answered 503
with `Retry-After` (Telegram sends it again later): the memory a burst takes is bounded.
`GET /healthz` is served here too. Limits: `bot.serving.http.Limits`.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections import deque
from functools import partial
from typing import Any

from aiohttp import web
from aiohttp.web import RequestPayloadError
from telegram import Update
from telegram.ext import Application

from bot.config import HEALTH_PATH, Settings, webhook_path
from bot.core.transport import QuizBot, trim_updates
from bot.core.update_processor import PerChatUpdateProcessor, UpdateQueue
from bot.serving import health
from bot.serving.dashboard import Dashboard
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
PARSE_STEP = 256  # updates the intake parses before it lets the event loop run others
RETRY_AFTER_SECONDS = 1

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


class WebhookEndpoint:
    """The request handler of the webhook server."""

    def __init__(
        self,
        application: AnyApplication,
        path: str,
        secret: str,
        limits: Limits,
        check: health.HealthCheck,
        dashboard: Dashboard | None = None,
    ) -> None:
        self._application = application
        self._dashboard = dashboard
        self._path = path
        self._secret = secret.encode()
        self._limits = limits
        self._check = check
        self.refusals = RefusalLog(log, "webhook", limits.log_interval)
        self.intake = Intake(application, limits.pending_updates, self.refusals)

    async def __call__(self, request: web.BaseRequest) -> web.StreamResponse:
        refuse = self.refusals.refuse
        sender = f"from {request.remote}"
        if request.path == HEALTH_PATH:
            return health.answer(request, self._check, self.refusals)
        if self._dashboard is not None and Dashboard.serves(request.path):
            return await self._dashboard(request)
        if request.path != self._path:
            return refuse("path", 404, f"a request for an unknown path {sender}")
        if request.method != "POST":
            return refuse(
                "method",
                405,
                f"a {request.method} request {sender}",
                {"Allow": "POST"},
            )
        if not self._secret_matches(request.headers.get(SECRET_HEADER)):
            return refuse(
                "secret",
                403,
                f"a request with a wrong or missing secret token {sender}",
            )
        declared = request.content_length
        if declared is not None and declared > self._limits.body_bytes:
            return refuse("size", 413, f"a body of {declared} bytes {sender}, over the cap")
        if request.headers.get("Expect", "").lower() == "100-continue":
            await request.writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        body = await self._read_body(request, sender)
        if isinstance(body, web.Response):
            return body
        try:
            update = _update_object(body)
        except (ValueError, TypeError, RecursionError) as error:  # not JSON, not an update
            return refuse(
                "malformed",
                400,
                f"a body that is not a JSON update {sender}, {type(error).__name__}",
            )
        came = self.intake.now()  # its arrival, whether or not it waits for room
        if not await self.intake.room(self._limits.room_seconds):
            # the connection stays open: the body was read, and Telegram sends it again
            self.refusals.note(
                "busy",
                f"refused an update {sender}: {self._limits.pending_updates} are not handled "
                "yet (503)",
            )
            return web.Response(
                status=503,
                text="Service Unavailable",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
        self.intake.put(update, came)
        return web.Response()

    def _secret_matches(self, given: str | None) -> bool:
        if given is None:
            return False
        return hmac.compare_digest(given.encode("utf-8", "replace"), self._secret)

    async def _read_body(self, request: web.BaseRequest, sender: str) -> bytes | web.Response:
        """The body, or the refusal: over the cap (counted as read, for a chunked body), not
        all there within `body_seconds`, or broken. A body that came whole with its head (as
        Telegram's updates do) is taken as it is, without a timer."""
        parts: list[bytes] = []
        size = 0
        try:
            if request.content.is_eof():
                body = request.content.read_nowait()
                if len(body) > self._limits.body_bytes:
                    return self.refusals.refuse("size", 413, f"a body {sender} over the cap")
                return body
            async with asyncio.timeout(self._limits.body_seconds):
                async for chunk in request.content.iter_any():
                    size += len(chunk)
                    if size > self._limits.body_bytes:
                        return self.refusals.refuse("size", 413, f"a body {sender} over the cap")
                    parts.append(chunk)
        except TimeoutError:
            return self.refusals.refuse(
                "slow body",
                408,
                f"a body {sender} not received within {self._limits.body_seconds:g} s",
            )
        except (RequestPayloadError, ConnectionError) as error:
            return self.refusals.refuse(
                "malformed", 400, f"a broken body {sender}, {type(error).__name__}"
            )
        return b"".join(parts)


def _update_object(body: bytes) -> dict[str, Any]:
    """The JSON object of an update; ValueError, TypeError or RecursionError (nested too
    deep) if the body is not one."""
    data = json.loads(body)
    if not isinstance(data, dict):
        raise TypeError("not a JSON object")
    update_id = data.get("update_id")
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        raise TypeError("no integer update_id")
    trim_updates([data])
    return data


class Intake:
    """The updates the webhook answered, parsed behind the answers and put on the application's
    queue in the order they came, each with the time it came (the processor's clock).

    There is room (`room`) while fewer than `bound` updates are accepted and not yet handled
    (waiting here, or on the application's queue until their handlers have run). An update PTB
    cannot parse is dropped with a line, and its room given to the first POST waiting for one
    (its POST was answered 200 already: it has the shape of an update, and no sender but the
    holder of the secret gets this far)."""

    def __init__(self, application: AnyApplication, bound: int, refusals: RefusalLog) -> None:
        self._application = application
        self._bound = bound
        self._refusals = refusals
        processor = application.update_processor
        self._processor = processor if isinstance(processor, PerChatUpdateProcessor) else None
        self._waiting: deque[tuple[dict[str, Any], float]] = deque()
        self._came = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._waiting_for_room: deque[asyncio.Future[None]] = deque()
        self._given = 0  # rooms given to POSTs that waited, not yet taken by their update
        if isinstance(application.update_queue, UpdateQueue):
            application.update_queue.on_finished = self._room_freed

    def pending(self) -> int:
        """Updates accepted and not yet handled."""
        queue = self._application.update_queue
        unhandled = queue.unfinished if isinstance(queue, UpdateQueue) else queue.qsize()
        return len(self._waiting) + unhandled

    @property
    def waiting_for_room(self) -> int:
        """POSTs waiting for room."""
        return len(self._waiting_for_room)

    def has_room(self) -> bool:
        return self.pending() + self._given < self._bound

    async def room(self, within: float) -> bool:
        """Whether there is room for one more update, waiting up to `within` seconds for it
        (first come, first served: a room given to a POST that waited is its own until it
        runs again, not a newcomer's)."""
        if self.has_room() and not self._waiting_for_room:
            return True
        turn = asyncio.get_running_loop().create_future()
        self._waiting_for_room.append(turn)
        try:
            async with asyncio.timeout(within):
                await turn
            return True
        except TimeoutError:
            return self.has_room()
        finally:
            if turn in self._waiting_for_room:
                self._waiting_for_room.remove(turn)
            elif turn.done() and not turn.cancelled():
                self._given -= 1  # taken now: the caller puts its update at once

    def _room_freed(self) -> None:
        """An update was handled: the first POST still waiting for room may go on."""
        while self._waiting_for_room:
            turn = self._waiting_for_room.popleft()
            if not turn.done():
                turn.set_result(None)
                self._given += 1
                return

    def now(self) -> float:
        """The clock of arrivals: the update processor's."""
        return self._processor.now() if self._processor is not None else time.time()

    def put(self, data: dict[str, Any], came: float) -> None:
        """Take an update that came at `came` (`now()`)."""
        self._waiting.append((data, came))
        self._came.set()
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._parse_as_they_come())

    async def _parse_as_they_come(self) -> None:
        while True:
            await self._came.wait()
            self._came.clear()
            while self._waiting:
                self._parse(PARSE_STEP)
                await asyncio.sleep(0)  # the POSTs and the handlers run between the steps

    def _parse(self, most: int) -> None:
        bot = self._application.bot
        parse = bot.updates.parse if isinstance(bot, QuizBot) else partial(Update.de_json, bot=bot)
        queue = self._application.update_queue
        for _ in range(min(most, len(self._waiting))):
            data, came = self._waiting.popleft()
            try:
                update = parse(data)
            except Exception as error:  # whatever PTB's parsing raises on a strange update
                self._refusals.note(
                    "unreadable",
                    f"dropped an update python-telegram-bot cannot read, {type(error).__name__}",
                )
                self._room_freed()  # as if handled: a POST waiting for room may go on
                continue
            if self._processor is not None:
                self._processor.arrived(update, came)
            queue.put_nowait(update)

    async def close(self) -> None:
        """Stop parsing in the background; what is waiting goes on the application's queue now,
        to be handled before the application stops."""
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
        self._parse(len(self._waiting))


class WebhookListener(Listener):
    """The webhook's listener: closing it also hands what its intake holds to the application."""

    def __init__(self, endpoint: WebhookEndpoint, limits: Limits) -> None:
        super().__init__(endpoint, limits, endpoint.refusals)
        self.intake = endpoint.intake

    async def close(self) -> None:
        await super().close()
        await self.intake.close()


async def start_webhook(
    application: AnyApplication,
    settings: Settings,
    check: health.HealthCheck,
    limits: Limits = DEFAULT_LIMITS,
) -> WebhookListener:
    """Serve the webhook on `QUIZ_WEBHOOK_LISTEN`:`QUIZ_WEBHOOK_PORT`; OSError if it cannot."""
    assert settings.webhook_url and settings.webhook_secret
    path = webhook_path(settings.webhook_url)
    dashboard = Dashboard(application) if settings.app_url else None
    endpoint = WebhookEndpoint(application, path, settings.webhook_secret, limits, check, dashboard)
    listener = WebhookListener(endpoint, limits)
    await listener.start(settings.webhook_listen, settings.webhook_port)
    return listener
