"""The dashboard over HTTP: the page and its JSON API under `/app/`.

Served on the webhook's listener in webhook mode, else by a listener of its own on
127.0.0.1:`QUIZ_APP_PORT` (`start_dashboard`), for a reverse proxy on the same host to publish
at `QUIZ_APP_URL`; `/healthz` answers there too. The page is static (bot/dashboard/web/): no inline script, nothing loaded from
elsewhere but Telegram's own `telegram-web-app.js`. Every API request carries
`Authorization: tma <initData>`, checked before anything else is read (401); the person is
taken from it alone; a chat they do not administer now is 403 (bot/dashboard/access.py);
each person has a bounded rate of requests (429). Answers are JSON, never cached.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import OrderedDict
from importlib import resources
from typing import Any

from aiohttp import web
from telegram.ext import Application

from bot.config import HEALTH_PATH
from bot.core.context import SERVICES_KEY, Services
from bot.core.i18n import STRINGS, Locale, language_name, ui_languages
from bot.dashboard import views
from bot.dashboard.access import ClassAccess
from bot.dashboard.init_data import InitDataError, WebAppUser, verify_init_data
from bot.serving import health
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog

log = logging.getLogger(__name__)

PREFIX = "/app"
STATIC = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css"}
WEB = resources.files("bot.dashboard") / "web"
TELEGRAM_CLIENTS = "https://web.telegram.org https://*.telegram.org"  # who may frame the page


def security_headers(frame_ancestors: str) -> dict[str, str]:
    return {
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors {frame_ancestors}"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


SECURITY_HEADERS = security_headers(TELEGRAM_CLIENTS)
RATE_PER_SECOND = 5.0  # each person's requests, on average
RATE_BURST = 30.0
RATE_PEOPLE = 10_000  # people whose buckets are kept
_CHAT_PATH = re.compile(r"/api/chats/(-?[0-9]{1,20})(/grid)?")

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


class Dashboard:
    """The request handler for every path under `/app/`."""

    def __init__(
        self, application: AnyApplication, frame_ancestors: str = TELEGRAM_CLIENTS
    ) -> None:
        """`frame_ancestors`: who may show the page in a frame (Telegram's web clients; the
        sandbox's page, `'self'`)."""
        self._application = application
        self._headers = security_headers(frame_ancestors)
        self.refusals = RefusalLog(log, "dashboard")
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()
        self._access: ClassAccess | None = None

    @staticmethod
    def serves(path: str) -> bool:
        return path == PREFIX or path.startswith(PREFIX + "/")

    async def __call__(self, request: web.BaseRequest) -> web.StreamResponse:
        path = request.path[len(PREFIX) :]
        if request.method not in ("GET", "HEAD"):
            return self._refuse("method", 405, f"a {request.method} request", {"Allow": "GET"})
        if path in ("", "/"):
            return self._static("index.html")
        if path.startswith("/static/"):
            return self._static(path.removeprefix("/static/"))
        if not path.startswith("/api/"):
            return self._refuse("path", 404, "a request for an unknown path")
        services: Services | None = self._application.bot_data.get(SERVICES_KEY)
        if services is None or not self._application.running:
            return _json({"error": "starting"}, 503)
        user = self._user(request, services)
        if user is None:
            return _json({"error": "unauthorized"}, 401)
        if not self._take(user.id, services.clock()):
            return self._refuse("rate", 429, "requests too fast", {"Retry-After": "1"})
        if path == "/api/me":
            return await self._me(request, user, services)
        if path == "/api/chats":
            return await self._chats(user, services)
        if (found := _CHAT_PATH.fullmatch(path)) is not None:
            chat_id = int(found.group(1))
            if not await self._access_of(services).may_open(user.id, chat_id):
                return _json({"error": "forbidden"}, 403)
            locale = await _locale(request, user, services)
            if found.group(2):
                return await self._grid(request, chat_id, services, locale)
            return _json(await views.class_overview(services, chat_id, locale))
        return self._refuse("path", 404, "a request for an unknown API path")

    # pieces

    def _static(self, name: str) -> web.StreamResponse:
        kind = STATIC.get(name)
        if kind is None:
            return self._refuse("path", 404, "a request for an unknown file")
        body = (WEB / name).read_bytes()
        headers = {**self._headers, "Cache-Control": "no-cache"}
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)

    def _refuse(
        self, kind: str, status: int, what: str, headers: dict[str, str] | None = None
    ) -> web.Response:
        return self.refusals.refuse(kind, status, what, headers)

    def _user(self, request: web.BaseRequest, services: Services) -> WebAppUser | None:
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        if scheme != "tma":
            self.refusals.note("auth", "refused an API request without initData (401)")
            return None
        try:
            return verify_init_data(init_data, services.settings.token, services.clock())
        except InitDataError as error:
            self.refusals.note("auth", f"refused an API request: initData {error} (401)")
            return None

    def _take(self, user_id: int, now: float) -> bool:
        """One request from this person's bucket, if it has one left."""
        level, then = self._buckets.pop(user_id, (RATE_BURST, now))
        level = min(RATE_BURST, level + (now - then) * RATE_PER_SECOND)
        allowed = level >= 1
        self._buckets[user_id] = (level - 1 if allowed else level, now)
        while len(self._buckets) > RATE_PEOPLE:
            self._buckets.popitem(last=False)
        return allowed

    def _access_of(self, services: Services) -> ClassAccess:
        if self._access is None:
            settings = services.settings
            self._access = ClassAccess(
                self._application.bot, services.storage, settings.admin_ids, services.clock
            )
        return self._access

    # routes

    async def _me(
        self, request: web.BaseRequest, user: WebAppUser, services: Services
    ) -> web.Response:
        language = (await _locale(request, user, services)).language
        return _json(
            {
                "user": {"id": user.id, "name": user.first_name},
                "language": language,
                "languages": [
                    {"code": code, "name": language_name(code)} for code in sorted(STRINGS)
                ],
                "strings": views.strings(language),
            }
        )

    async def _chats(self, user: WebAppUser, services: Services) -> web.Response:
        classes = await self._access_of(services).classes(user.id)
        return _json([{"id": c.chat_id, "title": c.title, "type": c.type} for c in classes])

    async def _grid(
        self, request: web.BaseRequest, chat_id: int, services: Services, locale: Locale
    ) -> web.Response:
        quiz_id = request.query.get("quiz")
        if not quiz_id:
            return _json({"error": "say ?quiz=<quiz id>"}, 400)
        grid = await views.quiz_grid(services, chat_id, quiz_id, locale)
        if grid is None:
            return _json({"error": "not found"}, 404)
        return _json(grid)


async def _locale(request: web.BaseRequest, user: WebAppUser, services: Services) -> Locale:
    """The language asked for (`?lang=`), else the person's as the bot knows it, else their
    Telegram's."""
    default = services.settings.default_language
    wanted = request.query.get("lang", "")
    if wanted in ui_languages():
        return Locale(wanted, default)
    stored = await services.storage.learners.get_user(user.id)
    if stored is not None:
        return services.locale_of(stored)
    telegram = (user.language_code or "").split("-")[0]
    return Locale(telegram if telegram in ui_languages() else default, default)


def _json(value: Any, status: int = 200) -> web.Response:
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_number)
    headers = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
    return web.Response(text=body, status=status, content_type="application/json", headers=headers)


def _number(value: object) -> float:
    number = float(value)  # type: ignore[arg-type]  # Fraction, Decimal
    return round(number, 4) if math.isfinite(number) else 0.0


async def start_dashboard(
    application: Application[Any, Any, Any, Any, Any, Any],
    port: int,
    limits: Limits = DEFAULT_LIMITS,
) -> Listener:
    """Serve `/app/` on 127.0.0.1:`port` (0: a free one); OSError if it cannot."""
    dashboard = Dashboard(application)
    check = health.application_health(application)

    async def handle(request: web.BaseRequest) -> web.StreamResponse:
        if request.path == HEALTH_PATH:
            return health.answer(request, check, dashboard.refusals)
        if Dashboard.serves(request.path):
            return await dashboard(request)
        return dashboard.refusals.refuse("path", 404, "a request for an unknown path")

    listener = Listener(handle, limits, dashboard.refusals)
    await listener.start("127.0.0.1", port)
    log.info("dashboard: /app/ on 127.0.0.1:%d", listener.port)
    return listener
