"""Who may call the webhook, and who a request is from: `QUIZ_WEBHOOK_ALLOW=telegram` answers
the webhook's path only to Telegram's networks (other routes on the listener stay open); behind
a reverse proxy the client is the right-most address of `X-Forwarded-For` that is not a
trusted proxy, believed only from a trusted proxy; and a full listener closes its slowest
connection, not the newcomer, so slow clients cannot hold Telegram out."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from ipaddress import ip_address, ip_network
from pathlib import Path

import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import QuizApplication
from bot.sandbox import FakeBotApi, FakeUser
from bot.serving import health
from bot.serving.addresses import TELEGRAM_NETWORKS, client_address, parse_address
from bot.serving.http import Limits
from bot.serving.webhook import WebhookEndpoint, WebhookListener, start_webhook
from tests.serving.test_webhook import (
    PATH,
    SECRET,
    head,
    post,
    read_response,
    served,
    until,
    update_for,
)
from tests.serving.test_webhook_limits import closed_by_server, trickle, webhook
from tests.support.harness import make_settings, running_bot

TELEGRAM = "149.154.167.99"
PROXY = ip_network("127.0.0.1/32")


@asynccontextmanager
async def guarded(
    api: FakeBotApi, db_path: Path, **overrides: object
) -> AsyncIterator[tuple[QuizApplication, WebhookListener]]:
    settings = make_settings(
        api, db_path, webhook_url=f"http://127.0.0.1{PATH}", webhook_secret=SECRET,
        webhook_port=0, webhook_allow="telegram", **overrides,
    )  # fmt: skip
    async with running_bot(settings) as application:
        listener = await start_webhook(
            application, settings, health.application_health(application)
        )
        assert isinstance(listener, WebhookListener)
        try:
            yield application, listener
        finally:
            await listener.close()


def forwarded(request: bytes, *hops: str) -> bytes:
    extra = "".join(f"X-Forwarded-For: {hop}\r\n" for hop in hops)
    return request.replace(b"\r\n\r\n", f"\r\n{extra}\r\n".encode(), 1)


async def status_of(port: int, request: bytes) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        return (await read_response(reader))[0]
    finally:
        writer.close()


async def test_outside_telegrams_networks_the_webhook_is_refused(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    user = FakeUser(3001, "Ada", "en")
    async with guarded(api, db_path) as (_, listener):
        good = post(json.dumps(update_for(api, user, "/help", 1)).encode())
        assert await status_of(listener.port, good) == 403  # 127.0.0.1, and no proxy trusted
        # from an untrusted peer, X-Forwarded-For is the client's own writing
        assert await status_of(listener.port, forwarded(good, TELEGRAM)) == 403
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(head("GET", "/healthz"))
        assert await read_response(reader) == (200, b"ok")  # not the webhook's path
        writer.close()
    assert not api.bot_messages(user.id)
    lines = [r.getMessage() for r in caplog.records if "outside Telegram" in r.getMessage()]
    assert lines == ["webhook: refused a request from 127.0.0.1, outside Telegram's networks (403)"]


async def test_behind_a_trusted_proxy_the_forwarded_client_is_checked(
    api: FakeBotApi, db_path: Path
) -> None:
    user = FakeUser(3002, "Bola", "en")
    async with guarded(api, db_path, trusted_proxies=(PROXY,)) as (_, listener):

        def update(n: int) -> bytes:
            return post(json.dumps(update_for(api, user, "/help", n)).encode())

        assert await status_of(listener.port, forwarded(update(1), TELEGRAM)) == 200
        await api.wait_for_bot_message(user.id, "/progress")
        # the client wrote Telegram's address first; the proxy appended the real one
        assert (
            await status_of(listener.port, forwarded(update(2), f"{TELEGRAM}, 203.0.113.9")) == 403
        )
        # a chain of trusted proxies is walked through
        assert await status_of(listener.port, forwarded(update(3), TELEGRAM, "127.0.0.1")) == 200
        # no header: the proxy itself is the client
        assert await status_of(listener.port, update(4)) == 403
        # something that is not an address: nobody known, refused
        assert await status_of(listener.port, forwarded(update(5), "unknown")) == 403
        await api.wait_for(lambda: len(api.bot_messages(user.id)) == 2)
    assert len(api.bot_messages(user.id)) == 2


async def test_the_allowlist_is_the_webhook_paths_only(api: FakeBotApi, db_path: Path) -> None:
    """A route of another feature (the Mini App's `/app/`) answers browsers from anywhere."""
    async with guarded(api, db_path) as (_, listener):

        async def page(request: web.BaseRequest) -> web.StreamResponse:
            return web.Response(text="app")

        listener.endpoint.routes["/app/"] = page
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(head("GET", "/app/index.html"))
        assert await read_response(reader) == (200, b"app")
        writer.close()


# the client's address


ADDRESS = st.one_of(
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(str),
)
PROXIES = [ip_network("10.0.0.0/8"), ip_network("fd00::/8"), PROXY]
TRUSTED = st.one_of(
    st.integers(0, 2**24 - 1).map(lambda n: str(ip_address(0x0A000000 + n))),
    st.just("127.0.0.1"),
)
WRITTEN = st.lists(st.one_of(ADDRESS, st.text(max_size=12)), max_size=4)


def _untrusted(text: str) -> bool:
    address = parse_address(text)
    return address is not None and not any(address in network for network in PROXIES)


@settings(deadline=None)
@given(ADDRESS.filter(_untrusted), WRITTEN)
def test_an_untrusted_peer_is_the_client_whatever_it_writes(peer: str, written: list[str]) -> None:
    assert client_address(peer, [", ".join(written)], PROXIES) == parse_address(peer)


@settings(deadline=None)
@given(WRITTEN, ADDRESS.filter(_untrusted), st.lists(TRUSTED, max_size=3), TRUSTED, st.booleans())
def test_behind_trusted_proxies_the_client_is_who_the_first_proxy_saw(
    written: list[str], client: str, chain: list[str], peer: str, one_header: bool
) -> None:
    """Whatever the client writes before its own address, and however the proxies split the
    header, the client is the address the first trusted proxy saw."""
    hops = [*written, client, *chain]
    headers = [", ".join(hops)] if one_header else hops
    assert client_address(peer, headers, PROXIES) == parse_address(client)


@settings(deadline=None)
@given(st.lists(st.one_of(ADDRESS, TRUSTED, st.text(max_size=12)), max_size=5), TRUSTED)
def test_a_client_is_a_trusted_proxy_only_if_every_hop_is_one(hops: list[str], peer: str) -> None:
    found = client_address(peer, [", ".join(hops)], PROXIES)
    if found is not None and any(found in network for network in PROXIES):
        assert all(not _untrusted(hop) and parse_address(hop) is not None for hop in hops)


def test_addresses_as_sockets_and_proxies_write_them() -> None:
    assert client_address("::ffff:149.154.160.1", [], ()) == ip_address("149.154.160.1")
    assert client_address(None, [TELEGRAM], [PROXY]) is None
    assert client_address("127.0.0.1", ["  149.154.160.1 "], [PROXY]) == ip_address("149.154.160.1")
    assert client_address("127.0.0.1", ["1.2.3.4,,5.6.7.8"], [PROXY]) == ip_address("5.6.7.8")
    assert client_address("127.0.0.1", ["1.2.3.4, , 127.0.0.1"], [PROXY]) is None
    assert [str(n) for n in TELEGRAM_NETWORKS] == ["149.154.160.0/20", "91.108.4.0/22"]


# a full listener


async def test_a_full_listener_closes_its_slowest_connection_not_telegrams(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Slow clients fill every connection, trickling their heads; a new connection (Telegram's)
    closes the one that waited longest and is served."""
    user = FakeUser(3003, "Chike", "en")
    limits = Limits(head_seconds=30, connections=4)
    async with webhook(api, db_path, limits) as (_, listener):
        slow = []
        for _ in range(limits.connections):
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            slow.append((reader, writer, asyncio.create_task(trickle(writer, head("POST"), 0.2))))
            await until(lambda: len(listener._open) == len(slow))  # the first is the slowest
        update = json.dumps(update_for(api, user, "/help", 1)).encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(post(update))
        assert (await read_response(reader))[0] == 200
        await api.wait_for_bot_message(user.id, "/progress")
        assert await closed_by_server(slow[0][0], within=5) == b""  # the first was closed
        for _, _, task in slow[1:]:
            assert not task.done()  # the others still trickle
        # every newcomer after it closes the next slowest, and is served
        await served(api, listener.port, user, 2)
        assert await closed_by_server(slow[1][0], within=5) == b""
        for _, slow_writer, task in slow:
            task.cancel()
            slow_writer.close()
        writer.close()
    lines = [r.getMessage() for r in caplog.records if "waited longest" in r.getMessage()]
    assert lines == [
        "webhook: closed the connection that waited longest for its request head: 4 are open "
        "already"
    ]


async def test_a_listener_whose_connections_are_all_in_a_request_refuses_a_newcomer(
    api: FakeBotApi, db_path: Path
) -> None:
    limits = Limits(head_seconds=30, body_seconds=30, connections=2)
    async with webhook(api, db_path, limits) as (_, listener):
        busy = []
        for _ in range(limits.connections):  # each sent its head and is reading its body
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            writer.write(head("POST", secret=SECRET, length=10) + b"{")
            busy.append((reader, writer))
        await until(lambda: not listener._awaiting_head and len(listener._open) == 2)
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        assert await closed_by_server(reader, within=5) == b""  # the newcomer, at once
        writer.close()
        for busy_reader, busy_writer in busy:  # the busy ones were left alone
            busy_writer.write(b'"update_id": 1}'[:9])
            assert (await read_response(busy_reader))[0] == 400
            busy_writer.close()


async def test_a_pool_of_its_own_keeps_other_routes_off_the_main_cap(
    api: FakeBotApi, db_path: Path
) -> None:
    """A route's pool (the Mini App's, later) takes its connections out of the main count,
    and is capped on its own."""
    limits = Limits(head_seconds=30, connections=2)
    settings = make_settings(api, db_path)
    async with running_bot(settings) as application:
        check = health.application_health(application)
        endpoint = WebhookEndpoint(application, PATH, SECRET, limits, check)

        async def page(request: web.BaseRequest) -> web.StreamResponse:
            return web.Response(text="app")

        endpoint.routes["/app/"] = page
        pooled = WebhookListener(endpoint, limits, pools={"/app/": 1})
        await pooled.start("127.0.0.1", 0)
        try:
            app_reader, app_writer = await asyncio.open_connection("127.0.0.1", pooled.port)
            app_writer.write(head("GET", "/app/"))
            assert await read_response(app_reader) == (200, b"app")
            second_reader, second_writer = await asyncio.open_connection("127.0.0.1", pooled.port)
            second_writer.write(head("GET", "/app/"))
            assert (await read_response(second_reader))[0] == 503  # the pool is full
            second_writer.close()
            # the browser's connection, kept alive, holds none of the main cap's two
            user = FakeUser(3004, "Dayo", "en")
            await served(api, pooled.port, user, 1)
            await served(api, pooled.port, user, 2)
            app_writer.close()
        finally:
            await pooled.close()
