"""PTB's requests over aiohttp instead of httpx.

PTB talks to the Bot API through a `BaseRequest`; its default (httpx, form-encoded bodies) costs
about twice the CPU per call of aiohttp with JSON bodies, and a quiz answer takes three calls
(see bench/ and the README's "Performance"). python-telegram-bot's own contrib repository has an
aiohttp request class too, but it is not published on PyPI, so this small one lives here.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.ext import ExtBot
from telegram.request import BaseRequest, RequestData


class QuizBot(ExtBot[Any]):
    """PTB's bot, which also closes its connections when `initialize` fails (a rejected
    token): PTB shuts down only what initialized, and an open aiohttp session would print
    warnings after the bot's last line."""

    async def initialize(self) -> None:
        try:
            await super().initialize()
        except BaseException:
            await self.shutdown()
            raise


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
        timeout = aiohttp.ClientTimeout(
            total=None, connect=pool, sock_connect=connect, sock_read=read
        )
        json_body, form = _body(request_data)
        try:
            async with self._session.request(
                method, url, timeout=timeout, proxy=self._proxy_for(url), json=json_body, data=form
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            # some aiohttp errors quote the URL, and the URL carries the token
            message = _TOKEN_IN_URL.sub(r"\1<token>/", str(error))
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {message}") from None


_TOKEN_IN_URL = re.compile(r"(/(?:file/)?bot)[^/\s'\"]+/")


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
