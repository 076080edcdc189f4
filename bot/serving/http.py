"""An HTTP/1.1 listener for the open internet, on aiohttp's low-level server.

aiohttp parses; in front of it, each connection has a guard that keeps the limits aiohttp has
no setting for: at most `Limits.connections` open at once, and a deadline for each request
head (request line and headers), from the moment the connection opens or its previous request
was handled. A connection that trickles bytes, or sits idle, is closed when its deadline
passes. When the cap is reached, a new connection closes the one that has waited longest for
a head not finished yet (the slowest, or the longest idle): so slow clients, 128 of them
trickling their heads, cannot keep Telegram out; only when every connection is in a request
is the new one closed instead. Bodies are the handler's to read, under its own limits.

`pools` gives paths of their own connection caps (the Mini App's `/app/`, for browsers): a
connection whose request is for one leaves the main count for its pool's (503 when the pool is
full), so browsers never hold the connections Telegram needs.

Refused requests are logged by `RefusalLog`: one line per kind of refusal, at most one a
minute per kind, with the count of the refusals left out since the last line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Limits:
    body_bytes: int = 1024 * 1024  # Telegram's updates are a few KiB; 1 MiB is generous
    head_seconds: float = 10.0  # request line and headers, from connect or the previous request
    body_seconds: float = 10.0  # the whole body, from the end of its head
    # Telegram opens at most 100 connections at once (the bot asks for its maximum with
    # setWebhook's max_connections), health probes and a reverse proxy a few more; each costs
    # at most ~256 KiB before its secret is checked (the head, bounded below, and the body
    # aiohttp buffers before it stops reading)
    connections: int = 128
    log_interval: float = 60.0  # at most one line per kind of refusal in this many seconds
    head_line_bytes: int = 4096  # request line, and each header
    head_fields: int = 32
    # updates the webhook accepted and the bot has not handled yet; past it a POST waits for
    # room (Telegram's connections wait with it) up to `room_seconds`, then is answered 503 and
    # Telegram sends it again later: a burst's memory stays bounded however many more come
    pending_updates: int = 2_000
    room_seconds: float = 5.0
    # of those, what one chat may hold (its next POST waits for room, then 503): the rest is
    # kept for the other chats, so that one flooding chat cannot get them all answered 503;
    # None: three quarters of `pending_updates`
    pending_per_chat: int | None = None

    @property
    def chat_share(self) -> int:
        """The pending updates one chat may hold."""
        if self.pending_per_chat is not None:
            return min(self.pending_per_chat, self.pending_updates)
        return max(1, self.pending_updates * 3 // 4)


DEFAULT_LIMITS = Limits()


class RefusalLog:
    """One WARNING line per kind of refused request, at most one per `interval` seconds per
    kind; the next line says how many were left out. Never a traceback, never a body."""

    def __init__(
        self,
        logger: logging.Logger,
        prefix: str,
        interval: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._prefix = prefix
        self._interval = interval
        self._clock = clock
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def note(self, kind: str, what: str) -> None:
        now = self._clock()
        last = self._last.get(kind)
        if last is not None and now - last < self._interval:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return
        left_out = self._left_out.pop(kind, 0)
        more = f"; {left_out} more like it since the last such line" if left_out else ""
        self._logger.warning("%s: %s%s", self._prefix, what, more)
        self._last[kind] = now

    def refuse(
        self, kind: str, status: int, what: str, headers: dict[str, str] | None = None
    ) -> web.Response:
        """Note the refusal; the short answer, closing the connection (a body left unread is
        never read)."""
        self.note(kind, f"refused {what} ({status})")
        response = web.Response(status=status, text=HTTPStatus(status).phrase, headers=headers)
        response.force_close()
        return response


class Listener:
    """Serves `handler` on one address, behind the connection guard; `pools`: path prefix ->
    the connection cap of the connections whose requests are for it."""

    def __init__(
        self,
        handler: Handler,
        limits: Limits,
        refusals: RefusalLog,
        pools: Mapping[str, int] | None = None,
    ) -> None:
        self.limits = limits
        self.refusals = refusals
        self._handler = handler
        self._open: set[_GuardedConnection] = set()  # under the main cap
        # waiting for a request head, the longest waiting first
        self._awaiting_head: dict[_GuardedConnection, None] = {}
        self._pools = dict(pools or {})
        self._pooled: dict[str, set[_GuardedConnection]] = {pool: set() for pool in self._pools}
        self._aiohttp: web.Server | None = None
        self._server: asyncio.Server | None = None

    @property
    def port(self) -> int:
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self, host: str, port: int) -> None:
        """Listen on host:port (0: a free port); OSError if that cannot be done."""
        self._aiohttp = web.Server(
            self._handle,
            access_log=None,
            logger=_AiohttpLog(self.refusals),
            keepalive_timeout=self.limits.head_seconds,
            lingering_time=0,  # never read (and drop) a refused body: close instead
            max_line_size=self.limits.head_line_bytes,
            max_field_size=self.limits.head_line_bytes,
            max_headers=self.limits.head_fields,
        )
        aiohttp_server = self._aiohttp
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _GuardedConnection(self, aiohttp_server()), host, port, reuse_address=True
        )

    async def close(self) -> None:
        """Stop accepting, let requests being handled finish (briefly), close every connection."""
        if self._server is None:
            return
        self._server.close()
        if self._aiohttp is not None:
            await self._aiohttp.shutdown(timeout=2.0)
        for connection in [*self._open, *(c for pool in self._pooled.values() for c in pool)]:
            connection.abort()
        await self._server.wait_closed()
        self._server = None

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        guard = request.transport.get_protocol() if request.transport is not None else None
        if isinstance(guard, _GuardedConnection):
            guard.head_received()
            pool = next((p for p in self._pools if request.path.startswith(p)), None)
            if pool is not None and not self._join(guard, pool):
                return self.refusals.refuse(
                    "pool", 503, f"refused a request for {pool}: {self._pools[pool]} are open"
                )
        try:
            return await self._handler(request)
        finally:
            if isinstance(guard, _GuardedConnection):
                guard.await_head()

    # the connections

    def _admit(self, connection: _GuardedConnection) -> bool:
        """Admit a new connection under the cap, closing the slowest still sending its head if
        the cap is reached; False if every connection is in a request."""
        if len(self._open) >= self.limits.connections:
            slowest = next(iter(self._awaiting_head), None)
            if slowest is None:
                self.refusals.note(
                    "connections",
                    f"refused a connection: {self.limits.connections} are open already, all "
                    "in a request",
                )
                return False
            self.refusals.note(
                "evicted",
                f"closed the connection that waited longest for its request head: "
                f"{self.limits.connections} are open already",
            )
            self._forget(slowest)
            slowest.abort()
        self._open.add(connection)
        return True

    def _join(self, connection: _GuardedConnection, pool: str) -> bool:
        """Move a connection into its request's pool; False if that pool is full."""
        if connection in self._pooled[pool]:
            return True
        if len(self._pooled[pool]) >= self._pools[pool]:
            return False
        self._forget(connection)
        self._pooled[pool].add(connection)
        return True

    def _forget(self, connection: _GuardedConnection) -> None:
        self._open.discard(connection)
        self._awaiting_head.pop(connection, None)
        for pooled in self._pooled.values():
            pooled.discard(connection)

    def _head_due(self, connection: _GuardedConnection, due: bool) -> None:
        self._awaiting_head.pop(connection, None)
        if due and connection in self._open:
            self._awaiting_head[connection] = None


class _GuardedConnection(asyncio.Protocol):
    """aiohttp's protocol for one connection, admitted under the cap, with a head deadline."""

    def __init__(self, listener: Listener, inner: asyncio.Protocol) -> None:
        self._listener = listener
        self._inner = inner
        self._admitted = False
        self._transport: asyncio.Transport | None = None
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        if not self._listener._admit(self):
            transport.abort()
            return
        self._admitted = True
        self._inner.connection_made(transport)
        self.await_head()

    def await_head(self) -> None:
        """The next request head is due within `head_seconds` from now."""
        if self._deadline is not None:
            self._deadline.cancel()
        if self._admitted:
            loop = asyncio.get_running_loop()
            self._deadline = loop.call_later(self._listener.limits.head_seconds, self._too_slow)
            self._listener._head_due(self, True)

    def head_received(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._listener._head_due(self, False)

    def _too_slow(self) -> None:
        self._deadline = None
        self._listener.refusals.note(
            "slow head",
            "closed a connection that sent no complete request head within "
            f"{self._listener.limits.head_seconds:g} s",
        )
        self.abort()

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

    def data_received(self, data: bytes) -> None:
        if self._admitted:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._admitted else None

    def pause_writing(self) -> None:
        if self._admitted:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._admitted:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.head_received()  # no deadline left behind
        if self._admitted:
            self._admitted = False
            self._listener._forget(self)
            self._inner.connection_lost(exc)


class _AiohttpLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's own log: a request it cannot parse (a header too long, a broken chunk) is a
    refusal, one line without a traceback; anything else goes to the log as it is."""

    def __init__(self, refusals: RefusalLog) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self._refusals = refusals

    def exception(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if str(msg).startswith("Error handling request"):
            reason = type(kwargs.get("exc_info")).__name__  # its message may quote the request
            self._refusals.note(
                "bad http", f"refused a request that is not valid HTTP, {reason} (400)"
            )
            return
        super().exception(msg, *args, **kwargs)
