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
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web
from telegram.error import BadRequest, Forbidden
from telegram.ext import Application

from bot.config import HEALTH_PATH
from bot.core.context import SERVICES_KEY, Services
from bot.core.i18n import STRINGS, Locale, language_name, ui_languages
from bot.dashboard import exports, views
from bot.dashboard.access import ClassAccess
from bot.dashboard.exports import Downloads
from bot.dashboard.init_data import InitDataError, WebAppUser, verify_init_data
from bot.serving import health
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog
from content.formats.base import ConversionError

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
_CHAT_PATH = re.compile(
    r"/api/chats/(-?[0-9]{1,20})(?:/(grid|weeks|questions)|/sessions/([0-9]{1,18})/(send|link))?"
)
_BANK_PATH = re.compile(r"/api/banks/(send|link)")
_NUMBER = re.compile(r"[0-9]{1,18}")
_DOWNLOAD_PATH = re.compile(r"/download/([A-Za-z0-9_-]{1,64})")

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
        self._downloads: Downloads | None = None

    @staticmethod
    def serves(path: str) -> bool:
        return path == PREFIX or path.startswith(PREFIX + "/")

    async def __call__(self, request: web.BaseRequest) -> web.StreamResponse:
        path = request.path[len(PREFIX) :]
        found = _CHAT_PATH.fullmatch(path)
        bank = _BANK_PATH.fullmatch(path)
        action = found.group(4) if found is not None else bank.group(1) if bank else None
        posted = request.method == "POST"
        # a POST asks the bot to do something (send a file, make a link); the rest are GETs
        if request.method not in ("GET", "HEAD", "POST") or posted != (action is not None):
            allowed = "POST" if action is not None else "GET"
            return self._refuse("method", 405, f"a {request.method} request", {"Allow": allowed})
        if path in ("", "/"):
            return self._static("index.html")
        if path.startswith("/static/"):
            return self._static(path.removeprefix("/static/"))
        download = _DOWNLOAD_PATH.fullmatch(path)
        if not path.startswith("/api/") and download is None:
            return self._refuse("path", 404, "a request for an unknown path")
        services: Services | None = self._application.bot_data.get(SERVICES_KEY)
        if services is None or not self._application.running:
            return _json({"error": "starting"}, 503)
        if download is not None:
            if request.method != "GET":  # a HEAD would use the link up
                return self._refuse("method", 405, "a HEAD of a download", {"Allow": "GET"})
            return await self._download(download.group(1), services)
        user = self._user(request, services)
        if user is None:
            return _json({"error": "unauthorized"}, 401)
        if not self._take(user.id, services.clock()):
            return self._refuse("rate", 429, "requests too fast", {"Retry-After": "1"})
        if path == "/api/me":
            return await self._me(request, user, services)
        if path == "/api/chats":
            return await self._chats(user, services)
        if bank is not None:
            return await self._bank(request, bank.group(1), user, services)
        if found is None:
            return self._refuse("path", 404, "a request for an unknown API path")
        chat_id = int(found.group(1))
        if not await self._access_of(services).may_open(user.id, chat_id):
            return _json({"error": "forbidden"}, 403)
        locale = await _locale(request, user, services)
        if found.group(2) in ("grid", "questions"):
            return await self._quiz(request, found.group(2), chat_id, services, locale)
        if found.group(2) == "weeks":
            return _json(await views.weekly(services, chat_id, services.clock(), locale))
        if action is not None:
            return await self._export(request, action, user, chat_id, int(found.group(3)), locale)
        return _json(await views.class_overview(services, chat_id, locale))

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

    def _downloads_of(self, services: Services) -> Downloads:
        if self._downloads is None:
            self._downloads = Downloads(services.settings.token)
        return self._downloads

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
                # the bank's files are the bot's admins' (/export): offered to them alone
                "bank_formats": list(exports.BANK_FORMS)
                if user.id in services.settings.admin_ids
                else [],
            }
        )

    async def _chats(self, user: WebAppUser, services: Services) -> web.Response:
        classes = await self._access_of(services).classes(user.id)
        return _json([{"id": c.chat_id, "title": c.title, "type": c.type} for c in classes])

    async def _quiz(
        self,
        request: web.BaseRequest,
        what: str,
        chat_id: int,
        services: Services,
        locale: Locale,
    ) -> web.Response:
        """A group quiz's (`?quiz=<quiz id>`: its latest, or `?session=<number>`) or a
        homework's (`?homework=<number>`) grid, or how its questions fared (`questions`)."""
        query = request.query
        homework, session_id = query.get("homework"), query.get("session")
        for number in (homework, session_id):
            if number is not None and not _NUMBER.fullmatch(number):
                return _json({"error": "a number, please"}, 400)
        if homework is not None:
            assignment = await views.chat_assignment(services, chat_id, int(homework))
            if assignment is None:
                return _json({"error": "not found"}, 404)  # another chat's: not named
            if what == "grid":
                return _json(await views.homework_grid(services, assignment, locale))
            fared = await views.homework_questions(services, assignment, locale)
            if fared is None:  # an exam before its deadline
                return _json({"error": "hidden"}, 403)
            return _json(fared)
        quiz_id = query.get("quiz")
        if not quiz_id and session_id is None:
            return _json({"error": "say ?quiz=<quiz id>, ?session= or ?homework=<number>"}, 400)
        session = await views.chat_session(
            services, chat_id, quiz_id, int(session_id) if session_id is not None else None
        )
        if session is None:
            return _json({"error": "not found"}, 404)
        if what == "grid":
            return _json(await views.session_grid(services, session, locale))
        return _json(await views.session_questions(services, session, locale))

    async def _export(
        self,
        request: web.BaseRequest,
        action: str,
        user: WebAppUser,
        chat_id: int,
        session_id: int,
        locale: Locale,
    ) -> web.Response:
        """`send`: the bot sends the report into the person's private chat; `link`: a
        single-use download link for it, signed for this person."""
        services: Services = self._application.bot_data[SERVICES_KEY]
        form = request.query.get("format", "csv")
        reports = exports.lent(self._application.bot_data)
        session = await services.storage.groups.get_session(session_id)
        if form not in exports.FORMS:
            return _json({"error": f"format: one of {', '.join(exports.FORMS)}"}, 400)
        if session is None or session.chat_id != chat_id:
            return _json({"error": "not found"}, 404)  # another chat's quiz: not named
        if reports is None:
            return _json({"error": "starting"}, 503)
        now = services.clock()
        return await _deliver(
            action,
            now,
            lambda: self._downloads_of(services).link(user.id, session.id, form, now),
            lambda: reports.send(self._application.bot, services, user.id, session, locale, form),
        )

    async def _bank(
        self, request: web.BaseRequest, action: str, user: WebAppUser, services: Services
    ) -> web.Response:
        """A bank's file as `/export` makes it (`?quiz=<id>&format=<one of /export's>`), for
        the bot's admins only, as `/export` is: `send` into the person's private chat, or
        `link` for a single-use download link signed for them."""
        if user.id not in services.settings.admin_ids:
            self.refusals.note("auth", "refused a bank's file to someone not a bot admin (403)")
            return _json({"error": "forbidden"}, 403)
        form = request.query.get("format", "yaml")
        if form not in exports.BANK_FORMS:
            return _json({"error": f"format: one of {', '.join(exports.BANK_FORMS)}"}, 400)
        quiz = services.catalog.get(request.query.get("quiz", ""))
        banks = exports.lent_banks(self._application.bot_data)
        if quiz is None:
            return _json({"error": "not found"}, 404)
        if banks is None:
            return _json({"error": "starting"}, 503)
        now = services.clock()
        locale = await _locale(request, user, services)
        return await _deliver(
            action,
            now,
            lambda: self._downloads_of(services).bank_link(user.id, quiz.id, form, now),
            lambda: banks.send(self._application.bot, services, user.id, quiz, form, locale),
        )

    async def _download(self, payload: str, services: Services) -> web.Response:
        """A download link, taken once: the report, if its person still administers the
        chat; a bank's file, if they are still a bot admin."""
        now = services.clock()
        taken = self._downloads_of(services).redeem(payload, now)
        if taken is exports.Refusal.FORGED:
            self.refusals.note("auth", "refused a download link: not ours, or altered (403)")
            return _json({"error": "forbidden"}, 403)
        if taken is exports.Refusal.GONE:
            return _json({"error": "gone"}, 410)
        if isinstance(taken, exports.TakenBank):
            return await self._bank_download(taken, services, now)
        assert isinstance(taken, exports.Download)
        if not self._take(taken.user_id, now):
            return self._refuse("rate", 429, "requests too fast", {"Retry-After": "1"})
        session = await services.storage.groups.get_session(taken.session_id)
        reports = exports.lent(self._application.bot_data)
        if session is None or reports is None:
            return _json({"error": "gone"}, 410)
        if not await self._access_of(services).may_open(taken.user_id, session.chat_id):
            return _json({"error": "forbidden"}, 403)
        stored = await services.storage.learners.get_user(taken.user_id)
        default = services.settings.default_language
        locale = services.locale_of(stored) if stored is not None else Locale(default, default)
        form = exports.FORMS[taken.form]
        name, data = await reports.file(services, session, locale, form)
        return _file(name, data, exports.MEDIA_TYPES[form])

    async def _bank_download(
        self, taken: exports.TakenBank, services: Services, now: float
    ) -> web.Response:
        if not self._take(taken.user_id, now):
            return self._refuse("rate", 429, "requests too fast", {"Retry-After": "1"})
        if taken.user_id not in services.settings.admin_ids:
            return _json({"error": "forbidden"}, 403)
        quiz = services.catalog.get(taken.quiz_id)
        banks = exports.lent_banks(self._application.bot_data)
        if quiz is None or banks is None:
            return _json({"error": "gone"}, 410)
        try:
            made = await banks.file(services, quiz, taken.form)
        except ConversionError:  # a picture of it cannot be read: /export says which
            return _json({"error": "cannot_export"}, 422)
        return _file(made.name, made.data, exports.bank_media_type(made.name))


async def _deliver(
    action: str, now: float, link: Callable[[], str], send: Callable[[], Awaitable[None]]
) -> web.Response:
    """`link`: a single-use download link (`link()` makes its payload); `send`: the file sent
    into the person's private chat by `send()`."""
    if action == "link":
        return _json({"url": f"download/{link()}", "expires": int(now) + exports.LIFETIME})
    try:
        await send()
    except (Forbidden, BadRequest) as error:  # never opened a private chat, or blocked it
        log.info("dashboard: a file could not be sent in private: %s", error)
        return _json({"error": "start_first"}, 409)
    return _json({"sent": True})


def _file(name: str, data: bytes, media_type: str) -> web.Response:
    headers = {
        **SECURITY_HEADERS,
        "Cache-Control": "no-store",
        "Content-Type": media_type,
        "Content-Disposition": f'attachment; filename="{_safe_file_name(name)}"',
    }
    return web.Response(body=data, headers=headers)


def _safe_file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:120] or "report"


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
