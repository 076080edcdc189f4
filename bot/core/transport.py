"""PTB's requests over aiohttp instead of httpx, and the one place where a failed request is
tried again.

PTB talks to the Bot API through a `BaseRequest`; its default (httpx, form-encoded bodies) costs
about twice the CPU per call of aiohttp with JSON bodies, and a quiz answer takes three calls
(see bench/ and the README's "Performance"). python-telegram-bot's own contrib repository has an
aiohttp request class too, but it is not published on PyPI, so this small one lives here.

The request tells apart what `bot.core.faults.classify` needs: a connection that could not be made
(`NotSent`), a 5xx with its status (`ServerError`), and a timeout after the request was sent
(`TimedOut`). `QuizBot._do_post` then retries what certainly did not reach Telegram.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as dt
import functools
import json
import logging
import random
import re
import urllib.request
import warnings
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import urlsplit

import aiohttp
from telegram import InlineKeyboardMarkup, Update
from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput, TimePeriod
from telegram.error import ChatMigrated, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import AIORateLimiter, BaseRateLimiter, Defaults, ExtBot
from telegram.request import BaseRequest, RequestData
from telegram.warnings import PTBDeprecationWarning

from bot.core import faults
from bot.core.updates import UpdateParser

log = logging.getLogger(__name__)

ChatMoved = Callable[[int, int], Awaitable[None]]
"""Called with (old id, new id) when Telegram says a group became a supergroup."""


class QuizBot(ExtBot[Any]):
    """PTB's bot, which also
    * closes its connections when `initialize` fails (a rejected token): PTB shuts down only
      what initialized, and an open aiohttp session would print warnings after the bot's last
      line;
    * tries a request again when it certainly did not reach Telegram (`faults.retry_delay`),
      the one place for it (a 429 is waited out by PTB's rate limiter, inside this);
    * notes on an error which call and chat it came from (`faults.call_of`), so that only the
      chat that refused is marked, never the person whose update led to the call;
    * takes Telegram's "query is too old" for a late callback answer as the end of that
      answer, in one log line: the tap itself is still handled by its caller;
    * follows a group that became a supergroup (`ChatMigrated`): the chat is moved
      (`follow_chat_moves`) and a call that sends is made once more in the new chat. A call
      that names a message of the old chat (an edit, a deletion) is not: the old chat's
      messages are out of reach, and a message of the same number in the new chat is
      another one.
    """

    def __init__(
        self,
        token: str,
        *,
        base_url: str,
        request: BaseRequest,
        get_updates_request: BaseRequest,
        rate_limiter: BaseRateLimiter[Any],
        base_file_url: str = "https://api.telegram.org/file/bot",
        defaults: Defaults | None = None,
    ) -> None:
        super().__init__(
            token,
            base_url=base_url,
            base_file_url=base_file_url,
            request=request,
            get_updates_request=get_updates_request,
            defaults=defaults,
            rate_limiter=rate_limiter,
        )
        self._polling_request = get_updates_request
        self._updates = UpdateParser(self)
        self._on_chat_moved: ChatMoved | None = None

    def follow_chat_moves(self, moved: ChatMoved | None) -> None:
        """Call `moved(old, new)` when a call is refused because its group became a
        supergroup, before the call is made again in the new chat (None: stop)."""
        self._on_chat_moved = moved

    @property
    def updates(self) -> UpdateParser:
        return self._updates

    async def get_updates(
        self,
        offset: int | None = None,
        limit: int | None = None,
        timeout: TimePeriod | None = None,  # noqa: ASYNC109 (PTB's signature)
        allowed_updates: Sequence[str] | None = None,
        *,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
        api_kwargs: JSONDict | None = None,
    ) -> tuple[Update, ...]:
        """PTB's long polling, its updates parsed by `UpdateParser` (a tap's message once for
        all its taps). The wait for an answer is the long poll's plus the request's own."""
        waited = timeout.total_seconds() if isinstance(timeout, dt.timedelta) else timeout or 0
        result = await super()._post(
            "getUpdates",
            {
                "timeout": timeout,
                "offset": offset,
                "limit": limit,
                "allowed_updates": allowed_updates,
            },
            read_timeout=(_given(read_timeout, self._polling_request.read_timeout) or 0) + waited,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
            api_kwargs=api_kwargs,
        )
        return self.updates.parse_all(cast(list[JSONDict], result))

    # A private answer's reveal and next question, without PTB's `Message` of Telegram's reply,
    # which nobody reads but its id: building the two was a tenth of the bot's CPU per answer
    # (docs/performance.md). Each is sent as `send_message` and `edit_message_text` send it,
    # with the same defaults, rate limiter and retries.

    async def send_text(
        self, chat_id: int, text: str, reply_markup: InlineKeyboardMarkup | None = None
    ) -> int:
        """Send a text message; returns its id."""
        data = {**_TEXT_DEFAULTS, "chat_id": chat_id, "text": text, "reply_markup": reply_markup}
        sent = await super()._post("sendMessage", data)
        return int(cast(JSONDict, sent)["message_id"])

    async def edit_text(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        reply_markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """Edit a message's text (and buttons)."""
        data = {**_EDIT_DEFAULTS, "chat_id": chat_id, "message_id": message_id, "text": text}
        await super()._post("editMessageText", {**data, "reply_markup": reply_markup})

    async def initialize(self) -> None:
        try:
            await super().initialize()
        except BaseException:
            await self.shutdown()
            raise

    async def _do_post(
        self,
        endpoint: str,
        data: JSONDict,
        *,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
    ) -> bool | JSONDict | list[JSONDict]:
        tries, moved = 0, False
        while True:
            tries += 1
            try:
                return await super()._do_post(
                    endpoint,
                    data,
                    read_timeout=read_timeout,
                    write_timeout=write_timeout,
                    connect_timeout=connect_timeout,
                    pool_timeout=pool_timeout,
                )
            except TelegramError as error:
                faults.remember_call(error, faults.Call(endpoint, data.get("chat_id"), tries))
                if endpoint == "answerCallbackQuery" and faults.is_stale_query(error):
                    log.info(
                        "callback query %s answered too late, Telegram no longer takes it: %s",
                        data.get("callback_query_id"),
                        error.message,
                    )
                    return False
                if isinstance(error, ChatMigrated) and not moved:
                    moved = True
                    if await self._chat_moved(data, error.new_chat_id):
                        data = {**_elsewhere(data), "chat_id": error.new_chat_id}
                        continue
                delay = None if endpoint in OWN_RETRIES else faults.retry_delay(tries, error)
                if delay is None:
                    raise
                delay *= random.uniform(0.8, 1.2)  # spread, so many chats do not retry at once
                log.info(
                    "%s: %s; try %d in %.1f s", faults.where(error), error.message, tries + 1, delay
                )
                await asyncio.sleep(delay)

    async def _chat_moved(self, data: JSONDict, new_chat_id: int) -> bool:
        """The chat of the call moved to `new_chat_id`: follow it; whether to make the call
        again there (a call naming none of the old chat's messages)."""
        old = data.get("chat_id")
        if self._on_chat_moved is None or not isinstance(old, int | str):
            return False
        try:
            await self._on_chat_moved(int(old), new_chat_id)
        except Exception:  # the call fails as Telegram refused it; the next one tries again
            log.exception("chat %s became %s, and could not be moved", old, new_chat_id)
            return False
        log.info("chat %s became %s: the call is made there", old, new_chat_id)
        return "message_id" not in data and "message_ids" not in data


def _elsewhere(data: JSONDict) -> JSONDict:
    """A call made again in another chat: without its reply to a message of the first."""
    return {name: value for name, value in data.items() if name not in _REPLIES}


_REPLIES = frozenset({"reply_parameters", "reply_to_message_id"})


# what `edit_message_text` and `send_message` leave to the bot's `Defaults`
_EDIT_DEFAULTS: dict[str, object] = {
    "parse_mode": DEFAULT_NONE,
    "link_preview_options": DEFAULT_NONE,
}
_TEXT_DEFAULTS = {
    **_EDIT_DEFAULTS,
    "disable_notification": DEFAULT_NONE,
    "protect_content": DEFAULT_NONE,
}


class RateLimiter(AIORateLimiter):
    """PTB's rate limiter, which lets callback answers (toasts) past: Telegram counts
    messages, not answers to taps, and a toast waited for past a few seconds is refused as too
    old anyway. Its queues and contexts were about a twentieth of the bot's time per tap in a
    large group."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        if endpoint == "answerCallbackQuery":
            return await _toast(callback, args, kwargs, data)
        return await super().process_request(
            callback, args, kwargs, endpoint, data, rate_limit_args
        )


# How long a toast refused with a 429 is waited for: past it, the tap is too old to answer.
TOAST_PATIENCE = 5.0


async def _toast(
    callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
    args: Any,
    kwargs: dict[str, Any],
    data: dict[str, Any],
) -> bool | JSONDict | list[JSONDict]:
    """A callback answer, tried once more after a short 429 (as the rate limiter does for
    other calls); a toast still refused is lost in one log line, and its handler goes on."""
    try:
        return await callback(*args, **kwargs)
    except RetryAfter as error:
        wait = _wait_asked(error)
        if wait > TOAST_PATIENCE:
            return _toast_lost(data, wait)
    await asyncio.sleep(wait + 0.1)
    try:
        return await callback(*args, **kwargs)
    except RetryAfter as error:
        return _toast_lost(data, _wait_asked(error))


def _wait_asked(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB warns that the type becomes a timedelta
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = error.retry_after
    return wait.total_seconds() if isinstance(wait, dt.timedelta) else float(wait)


def _toast_lost(data: dict[str, Any], wait: float) -> bool:
    log.info(
        "callback query %s not answered: Telegram asks to wait %.0f s",
        data.get("callback_query_id"),
        wait,
    )
    return False


# Methods whose callers retry them already: PTB's updater polls again at once, and the
# start-up loop (bot/serving/lifecycle.py) retries getMe and the webhook calls with its own
# bound and its one log line.
OWN_RETRIES = frozenset({"getUpdates", "getMe", "setWebhook", "deleteWebhook"})


class BodyTooLarge(NetworkError):
    """An answer longer than the `body_limit` in force: read no further than the limit."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__(f"the answer has more than {limit} bytes")
        self.limit = limit

    def __reduce__(self) -> tuple[type, tuple[int]]:  # type: ignore[override]
        return self.__class__, (self.limit,)


_BODY_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("body_limit", default=None)


@contextlib.contextmanager
def body_limit(limit: int) -> Iterator[None]:
    """Within this block, an answer (a file download) of more than `limit` bytes raises
    `BodyTooLarge` once `limit` bytes came, whatever sizes were announced before."""
    token = _BODY_LIMIT.set(limit)
    try:
        yield
    finally:
        _BODY_LIMIT.reset(token)


async def _read_at_most(response: aiohttp.ClientResponse, limit: int | None) -> bytes:
    if limit is None:
        return await response.read()
    if response.content_length is not None and response.content_length > limit:
        raise BodyTooLarge(limit)
    parts, size = [], 0
    while chunk := await response.content.read(65536):
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        parts.append(chunk)
    return b"".join(parts)


class AiohttpRequest(BaseRequest):
    """One aiohttp session with a bounded connection pool; JSON bodies, multipart for files."""

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[str, str | None] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    @staticmethod
    def parse_json_payload(payload: bytes) -> JSONDict:
        """Telegram's answer, parsed as PTB parses it, with the keyboards of tapped messages
        left out (`trim_updates`)."""
        body = BaseRequest.parse_json_payload(payload)
        result = body.get("result") if isinstance(body, dict) else None
        if isinstance(result, list):
            trim_updates(result)
        return body

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
                json_serialize=json.dumps,
                # trust_env would read ~/.netrc and the proxy variables on every request
                trust_env=False,
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    def _proxy_for(self, url: str) -> str | None:
        """The proxy the environment names for this host (HTTPS_PROXY, NO_PROXY...), looked up
        once per host."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        if host not in self._proxies:
            proxies = urllib.request.getproxies()
            bypass = urllib.request.proxy_bypass(host) if proxies else True
            self._proxies[host] = None if bypass else proxies.get(parts.scheme)
        return self._proxies[host]

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = _given(read_timeout, self._read_timeout)
        connect = _given(connect_timeout, self._connect_timeout)
        pool = _given(pool_timeout, None)
        # aiohttp has no write timeout (write_timeout is not used); sock_read bounds each wait
        # for the server, as httpx's read timeout does, so a long download is not cut off
        timeout = _timeout(pool, connect, read)
        json_body, form = _body(request_data)
        try:
            async with self._session.request(
                method, url, timeout=timeout, proxy=self._proxy_for(url), json=json_body, data=form
            ) as response:
                status = response.status
                payload = await _read_at_most(response, _BODY_LIMIT.get())
        except aiohttp.ConnectionTimeoutError as error:  # connecting, or waiting for the pool
            raise faults.ConnectTimedOut(_safe(error)) from None
        except TimeoutError as error:  # sent, and no answer in time: it may have arrived
            raise TimedOut from error
        except aiohttp.ClientSSLError as error:  # a certificate problem: trying again won't help
            raise NetworkError(_safe(error)) from None
        except aiohttp.ClientConnectorError as error:  # refused, reset while connecting, DNS
            raise faults.NotSent(_safe(error)) from None
        except aiohttp.ClientHttpProxyError as error:
            if error.status >= HTTPStatus.INTERNAL_SERVER_ERROR:  # the proxy made no tunnel
                raise faults.NotSent(_safe(error)) from None
            raise NetworkError(_safe(error)) from None
        except aiohttp.ClientError as error:  # lost after sending (disconnected, bad answer)
            raise NetworkError(_safe(error)) from None
        if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
            raise faults.ServerError(status, _server_error_message(status, payload))
        return status, payload


@functools.lru_cache(maxsize=64)
def _timeout(
    pool: float | None, connect: float | None, read: float | None
) -> aiohttp.ClientTimeout:
    """aiohttp's timeout object (immutable, and costly to build on every request)."""
    return aiohttp.ClientTimeout(total=None, connect=pool, sock_connect=connect, sock_read=read)


def trim_updates(updates: list[Any]) -> None:
    """Leave out the inline keyboard of the message each tap (callback query) came from:
    parsing its buttons into PTB objects was about a twentieth of the bot's time per tap in a
    large group, and no handler reads it (a handler that edits a keyboard sends a new one)."""
    for update in updates:
        if isinstance(update, dict):
            query = update.get("callback_query")
            if isinstance(query, dict):
                message = query.get("message")
                if isinstance(message, dict):
                    message.pop("reply_markup", None)


_TOKEN_IN_URL = re.compile(r"(/(?:file/)?bot)[^/\s'\"]+/")


def _safe(error: aiohttp.ClientError) -> str:
    """The error in one line, without the token: some aiohttp errors quote the URL."""
    message = _TOKEN_IN_URL.sub(r"\1<token>/", str(error))
    return f"aiohttp.{error.__class__.__name__}: {message}"


def _server_error_message(status: int, payload: bytes) -> str:
    """Telegram's description of a 5xx, or the status's name when the answer is not the Bot
    API's JSON (a proxy's page)."""
    description = None
    try:
        body = json.loads(payload)
        description = body.get("description") if isinstance(body, dict) else None
    except ValueError:
        pass
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Server error"
    return f"{description or phrase} ({status})"


def _given(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value


def _body(request_data: RequestData | None) -> tuple[object, aiohttp.FormData | None]:
    """(JSON body, multipart form): JSON unless a file goes along."""
    if request_data is None:
        return None, None
    if not request_data.contains_files:
        return request_data.parameters, None
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, upload in request_data.multipart_data.items():
        filename, content, mime_type = upload[0], upload[1], upload[2] if len(upload) > 2 else None
        form.add_field(name, content, filename=filename, content_type=mime_type)
    return None, form
