"""`GET /healthz`: 200 "ok" while the bot serves, 503 "unavailable" when it does not; no secret
and nothing else in the answer.

It is served on the webhook server in webhook mode, and on 127.0.0.1:`QUIZ_HEALTH_PORT` by a
small listener of its own when that is set (in either mode). Both ask one `HealthCheck`:
`application_health`, which says "unavailable" until the application runs and after it stops,
and in between whatever `Services.health()` says (bot/context.py) — the hook where a check
such as "the database file is gone" makes the answer 503.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web
from telegram.ext import Application

from bot.config import HEALTH_PATH
from bot.core.context import SERVICES_KEY, Services
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog

log = logging.getLogger(__name__)

HealthCheck = Callable[[], str | None]  # None: healthy; else why not (for the log, not the answer)


def application_health(application: Application[Any, Any, Any, Any, Any, Any]) -> HealthCheck:
    def check() -> str | None:
        if not application.running:
            return "not running"
        services: Services | None = application.bot_data.get(SERVICES_KEY)
        if services is None:
            return "starting"
        return services.health()

    return check


def answer(request: web.BaseRequest, check: HealthCheck, refusals: RefusalLog) -> web.Response:
    """The answer to a request for HEALTH_PATH."""
    if request.method not in ("GET", "HEAD"):
        return refusals.refuse(
            "method", 405, f"a {request.method} request for {HEALTH_PATH}", {"Allow": "GET, HEAD"}
        )
    if check() is None:
        return web.Response(text="ok")
    return web.Response(status=503, text="unavailable")


async def start_listener(
    check: HealthCheck, port: int, limits: Limits = DEFAULT_LIMITS
) -> Listener:
    """The health check alone on 127.0.0.1:`port`; OSError if it cannot listen there."""
    refusals = RefusalLog(log, "health", limits.log_interval)

    async def handle(request: web.BaseRequest) -> web.StreamResponse:
        if request.path == HEALTH_PATH:
            return answer(request, check, refusals)
        return refusals.refuse("path", 404, "a request for an unknown path")

    listener = Listener(handle, limits, refusals)
    await listener.start("127.0.0.1", port)
    log.info("health: GET %s on 127.0.0.1:%d", HEALTH_PATH, listener.port)
    return listener
