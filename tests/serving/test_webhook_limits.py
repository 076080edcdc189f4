"""The webhook server's limits, with the real application behind it and limits small enough
to reach in a test: slow heads and bodies cut off, the connection cap, keep-alive, the
health hook, and the rate limit of refusal lines."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.core.context import SERVICES_KEY
from bot.sandbox import FakeBotApi, FakeUser
from bot.serving import health
from bot.serving.http import DEFAULT_LIMITS, Limits, Listener, RefusalLog
from bot.serving.webhook import start_webhook
from tests.serving.test_webhook import (
    PATH,
    SECRET,
    exchange,
    head,
    post,
    read_response,
    served,
    update_for,
)
from tests.support.harness import make_settings, running_bot

LIMITS = Limits(head_seconds=0.5, body_seconds=0.5, connections=3, body_bytes=4096)


@asynccontextmanager
async def webhook(
    api: FakeBotApi, db_path: Path, limits: Limits = LIMITS
) -> AsyncIterator[tuple[QuizApplication, Listener]]:
    settings = make_settings(
        api,
        db_path,
        webhook_url=f"http://127.0.0.1{PATH}",
        webhook_secret=SECRET,
        webhook_port=0,
    )
    async with running_bot(settings) as application:
        check = health.application_health(application)
        listener = await start_webhook(application, settings, check, limits)
        try:
            yield application, listener
        finally:
            await listener.close()


async def closed_by_server(reader: asyncio.StreamReader, within: float) -> bytes:
    """What the server sent before it closed the connection; fails if it stays open."""
    received = b""

    async def until_closed() -> None:
        nonlocal received
        while chunk := await reader.read(65536):
            received += chunk

    with suppress(ConnectionError):
        await asyncio.wait_for(until_closed(), within)
    return received


async def trickle(writer: asyncio.StreamWriter, data: bytes, every: float) -> None:
    """A slow client: one byte at a time, until the server closes the connection."""
    for byte in data:
        if writer.is_closing():
            return
        writer.write(bytes([byte]))
        try:
            await writer.drain()
        except ConnectionError:
            return
        await asyncio.sleep(every)  # the client's pace, not a test waiting


async def test_a_trickled_head_is_cut_off(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with webhook(api, db_path) as (_, listener):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        slow = asyncio.create_task(trickle(writer, head("POST", secret=SECRET, length=2), 0.05))
        started = time.monotonic()
        assert await closed_by_server(reader, within=5) == b""
        assert time.monotonic() - started < 2
        assert not slow.done()  # the client was still sending
        slow.cancel()
        writer.close()
        # a connection that sends nothing at all is closed too
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        assert await closed_by_server(reader, within=5) == b""
        writer.close()
    lines = [r.getMessage() for r in caplog.records if "request head" in r.getMessage()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("webhook: closed a connection")


async def test_a_trickled_body_is_408(api: FakeBotApi, db_path: Path) -> None:
    async with webhook(api, db_path) as (_, listener):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        body = json.dumps({"update_id": 1}).encode()
        writer.write(head("POST", secret=SECRET, length=len(body)))
        slow = asyncio.create_task(trickle(writer, body, 0.1))
        status, _ = await read_response(reader, timeout=5)
        assert status == 408
        assert not slow.done()
        slow.cancel()
        writer.close()


async def test_connections_over_the_cap_are_closed_at_once(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    limits = Limits(head_seconds=30, connections=3)
    user = FakeUser(2301, "Gbenga", "en")
    async with webhook(api, db_path, limits) as (_, listener):
        held = [await asyncio.open_connection("127.0.0.1", listener.port) for _ in range(3)]
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        assert await closed_by_server(reader, within=5) == b""
        writer.close()
        # the held ones are served, and keep-alive works on them
        reader, writer = held[0]
        for update_id in (1, 2):
            update = json.dumps(update_for(api, user, "/help", update_id)).encode()
            writer.write(post(update))
            assert (await read_response(reader))[0] == 200
        await api.wait_for(lambda: len(api.bot_messages(user.id)) == 2)
        # a closed one frees its place
        for _, held_writer in held:
            held_writer.close()
        await api.wait_for(lambda: not listener._open)
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(head("GET", "/healthz"))
        assert await read_response(reader) == (200, b"ok")
        writer.close()
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("bot.serving") and "connection" in r.getMessage()
    ]
    assert lines == ["webhook: refused a connection: 3 are open already"]


async def test_health_asks_the_services(
    api: FakeBotApi, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with webhook(api, db_path) as (application, listener):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(head("GET", "/healthz"))
        assert await read_response(reader) == (200, b"ok")
        services = application.bot_data[SERVICES_KEY]
        monkeypatch.setattr(type(services), "health", lambda _: "the database file is gone")
        writer.write(head("GET", "/healthz"))
        assert await read_response(reader) == (503, b"unavailable")
        writer.close()
    assert health.application_health(application)() == "not running"


async def test_a_body_over_the_cap_without_a_length_is_413(api: FakeBotApi, db_path: Path) -> None:
    async with webhook(api, db_path) as (_, listener):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(head("POST", secret=SECRET, chunked=True) + b"1001\r\n" + b"x" * 4097)
        assert (await read_response(reader))[0] == 413
        writer.close()
        # Expect: 100-continue is answered only once the secret and length are right
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(
            head("POST", secret="wrong", length=100).replace(
                b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"
            )
        )
        assert (await read_response(reader))[0] == 403
        writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        body = b"{}"
        writer.write(
            head("POST", secret=SECRET, length=2).replace(
                b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"
            )
        )
        assert await reader.readline() == b"HTTP/1.1 100 Continue\r\n"
        assert await reader.readline() == b"\r\n"
        writer.write(body)
        assert (await read_response(reader))[0] == 400  # not an update
        writer.close()


def test_refusal_lines_are_rate_limited_per_kind(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = RefusalLog(logging.getLogger("test.refusals"), "webhook", 60, lambda: now[0])
    with caplog.at_level(logging.WARNING, "test.refusals"):
        for _ in range(5):
            refusals.note("secret", "refused a wrong secret (403)")
        refusals.note("size", "refused a big body (413)")
        now[0] = 59.0
        refusals.note("secret", "refused a wrong secret (403)")
        now[0] = 60.0
        refusals.note("secret", "refused a wrong secret (403)")
        refusals.note("secret", "refused a wrong secret (403)")
    assert [r.getMessage() for r in caplog.records] == [
        "webhook: refused a wrong secret (403)",
        "webhook: refused a big body (413)",
        "webhook: refused a wrong secret (403); 5 more like it since the last such line",
    ]
    assert not any(r.exc_info for r in caplog.records)


async def test_a_request_that_is_not_valid_http_is_one_line(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with webhook(api, db_path) as (_, listener):
        for _ in range(3):
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            too_long = b"X-Padding: " + b"a" * 5000 + b"\r\n"
            writer.write(
                head("POST", secret=SECRET, length=0).replace(
                    b"\r\n\r\n", b"\r\n" + too_long + b"\r\n"
                )
            )
            assert (await read_response(reader))[0] == 400
            writer.close()
    lines = [r for r in caplog.records if "not valid HTTP" in r.getMessage()]
    assert [r.getMessage() for r in lines] == [
        "webhook: refused a request that is not valid HTTP, LineTooLong (400)"
    ]
    assert not any(r.exc_info for r in caplog.records)


def _chunked(body: bytes, size: int = 65536) -> bytes:
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


async def test_header_tricks_and_a_body_at_the_real_cap(api: FakeBotApi, db_path: Path) -> None:
    """Attacks on the framing and the secret header, with the real limits: a body of exactly
    1 MiB is served (with a length or chunked) and one byte more is 413; two secret headers,
    a secret in another case, Content-Length with Transfer-Encoding, two lengths, a negative
    or huge one are refused; pipelined requests are answered in order, the refused one last."""
    user = FakeUser(2302, "Ayo", "en")
    update = update_for(api, user, "/help", 1)
    update["padding"] = ""
    update["padding"] = "x" * (DEFAULT_LIMITS.body_bytes - len(json.dumps(update)))
    at_cap = json.dumps(update).encode()
    assert len(at_cap) == DEFAULT_LIMITS.body_bytes

    def raw(secret_lines: str, framing: str, body: bytes = b"") -> bytes:
        return f"POST {PATH} HTTP/1.1\r\nHost: x\r\n{secret_lines}{framing}\r\n".encode() + body

    good = f"X-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n"
    small = json.dumps(update_for(api, user, "/help", 2)).encode()
    cases = [
        (post(at_cap), 200),
        (head("POST", secret=SECRET, chunked=True) + _chunked(at_cap), 200),
        (post(at_cap + b" "), 413),
        (head("POST", secret=SECRET, chunked=True) + _chunked(at_cap + b" "), 413),
        (
            raw(f"X-Telegram-Bot-Api-Secret-Token: no\r\n{good}", "Content-Length: 2\r\n", b"{}"),
            403,
        ),
        (raw(good.replace(SECRET, SECRET.upper()), "Content-Length: 2\r\n", b"{}"), 403),
        (raw(good, "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"), 400),
        (raw(good, "Content-Length: 2\r\nContent-Length: 3\r\n", b"{}"), 400),
        (raw(good, "Content-Length: -2\r\n", b"{}"), 400),
        (raw(good, f"Content-Length: {10**30}\r\n"), 400),
    ]
    async with webhook(api, db_path, DEFAULT_LIMITS) as (_, listener):
        for request, status in cases:
            assert (await exchange(listener.port, request))[0] == status, request[:200]
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
        writer.write(post(small) + post(small.replace(b'"update_id": 2', b'"update_id": 3')))
        writer.write(post(b"{}", secret="wrong"))
        statuses = [(await read_response(reader))[0] for _ in range(3)]
        writer.close()
        assert statuses == [200, 200, 403]
        await api.wait_for(lambda: len(api.bot_messages(user.id)) == 4)  # 1+1 at the cap, 2


async def test_a_body_over_the_cap_sent_whole_with_its_head_is_413(
    api: FakeBotApi, db_path: Path
) -> None:
    """A body that came whole with its head is taken without waiting: the cap still holds."""
    user = FakeUser(2311, "Dayo", "en")
    async with webhook(api, db_path) as (_, listener):
        body = b"x" * (LIMITS.body_bytes + 1)
        one_chunk = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        whole = head("POST", secret=SECRET, chunked=True) + one_chunk
        assert (await exchange(listener.port, whole))[0] == 413
        # and one just under it, whole with its head, is read and refused as no update
        padded = b'{"pad": "' + b"y" * (LIMITS.body_bytes - 20) + b'"}'
        assert (await exchange(listener.port, post(padded)))[0] == 400
        await served(api, listener.port, user, 2)
