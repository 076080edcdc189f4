"""The webhook: Telegram POSTs each update to the path of `QUIZ_WEBHOOK_URL`.

Checked in order, each before anything costs more: the path (404) and the method (405); the
secret token header against `QUIZ_WEBHOOK_SECRET`, in constant time, before any byte of the
body is read (403); the announced length (413); then the body is read under the cap (413)
and the deadline (408); it must be a JSON update (400). A good update is put on the
application's update queue and answered 200 at once: the handlers run behind the answer.
`GET /healthz` is served here too. Limits: `bot.serving.http.Limits`.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from typing import Any

from aiohttp import web
from aiohttp.web import RequestPayloadError
from telegram import Update
from telegram.ext import Application

from bot.config import HEALTH_PATH, Settings, webhook_path
from bot.serving import health
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"

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
    ) -> None:
        self._application = application
        self._path = path
        self._secret = secret.encode()
        self._limits = limits
        self._check = check
        self.refusals = RefusalLog(log, "webhook", limits.log_interval)

    async def __call__(self, request: web.BaseRequest) -> web.StreamResponse:
        refuse = self.refusals.refuse
        sender = f"from {request.remote}"
        if request.path == HEALTH_PATH:
            return health.answer(request, self._check, self.refusals)
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
            update = self._update(body)
        except Exception as error:  # whatever the JSON or PTB's parsing of it raises
            return refuse(
                "malformed",
                400,
                f"a body that is not a JSON update {sender}, {type(error).__name__}",
            )
        self._application.update_queue.put_nowait(update)
        return web.Response()

    def _secret_matches(self, given: str | None) -> bool:
        if given is None:
            return False
        return hmac.compare_digest(given.encode("utf-8", "replace"), self._secret)

    async def _read_body(self, request: web.BaseRequest, sender: str) -> bytes | web.Response:
        """The body, or the refusal: over the cap (counted as read, for a chunked body), not
        all there within `body_seconds`, or broken."""
        parts: list[bytes] = []
        size = 0
        try:
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

    def _update(self, body: bytes) -> Update:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        return Update.de_json(data, self._application.bot)


async def start_webhook(
    application: AnyApplication,
    settings: Settings,
    check: health.HealthCheck,
    limits: Limits = DEFAULT_LIMITS,
) -> Listener:
    """Serve the webhook on `QUIZ_WEBHOOK_LISTEN`:`QUIZ_WEBHOOK_PORT`; OSError if it cannot."""
    assert settings.webhook_url and settings.webhook_secret
    path = webhook_path(settings.webhook_url)
    endpoint = WebhookEndpoint(application, path, settings.webhook_secret, limits, check)
    listener = Listener(endpoint, limits, endpoint.refusals)
    await listener.start(settings.webhook_listen, settings.webhook_port)
    return listener
