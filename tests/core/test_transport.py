"""bot/transport.py against a small aiohttp server of the test's own: bodies, errors, proxies."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp import web
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.core.faults import ConnectTimedOut, NotSent, ServerError
from bot.core.transport import AiohttpRequest


class Server:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.delay = 0.0
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def handle(self, request: web.Request) -> web.Response:
        seen: dict[str, Any] = {"content_type": request.content_type}
        if request.content_type == "application/json":
            seen["json"] = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            parts = {}
            async for part in reader:
                parts[part.name] = (part.filename, await part.read())  # type: ignore[union-attr]
            seen["parts"] = parts
        self.received.append(seen)
        if self.delay:
            await asyncio.sleep(self.delay)  # a slow server, not a test waiting
        return web.json_response({"ok": True, "result": True})


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    state = Server()
    app = web.Application()
    app.router.add_post("/{method}", state.handle)
    state.runner = web.AppRunner(app)
    await state.runner.setup()
    site = web.TCPSite(state.runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    state.url = f"http://127.0.0.1:{port}"
    yield state
    await state.runner.cleanup()


@pytest.fixture
async def request_() -> AsyncIterator[AiohttpRequest]:
    request = AiohttpRequest(read_timeout=2.0)
    await request.initialize()
    yield request
    await request.shutdown()


def _data(**values: Any) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in values.items()])


async def test_parameters_travel_as_a_json_body_with_nested_objects(
    server: Server, request_: AiohttpRequest
) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="1:a:1:0:0")]])
    status, body = await request_.do_request(
        f"{server.url}/sendMessage",
        "POST",
        _data(chat_id=7, text="<b>hi</b>", reply_markup=markup),
    )
    assert status == 200 and b'"ok": true' in body
    [seen] = server.received
    assert seen["content_type"] == "application/json"
    assert seen["json"]["chat_id"] == 7
    assert seen["json"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "1:a:1:0:0"


async def test_a_file_goes_as_multipart(server: Server, request_: AiohttpRequest) -> None:
    document = InputFile(b"id: bank\n", filename="bank.yaml")
    await request_.do_request(
        f"{server.url}/sendDocument", "POST", _data(chat_id=7, document=document)
    )
    [seen] = server.received
    assert seen["content_type"].startswith("multipart/")
    assert seen["parts"]["chat_id"] == (None, b"7")
    filename, content = next(v for k, v in seen["parts"].items() if k != "chat_id")
    assert (filename, content) == ("bank.yaml", b"id: bank\n")


async def test_a_slow_answer_is_timed_out(server: Server, request_: AiohttpRequest) -> None:
    server.delay = 1.0
    with pytest.raises(TimedOut):
        await request_.do_request(f"{server.url}/getMe", "POST", read_timeout=0.2)
    assert len(server.received) == 1


async def test_a_refused_connection_is_a_network_error(request_: AiohttpRequest) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the request: nothing listens
    with pytest.raises(NetworkError, match="aiohttp") as caught:
        await request_.do_request(f"http://127.0.0.1:{port}/getMe", "POST")
    assert isinstance(caught.value, NotSent)  # certainly not sent: safe to try again


async def test_a_slow_answer_is_not_taken_for_a_request_that_was_not_sent(
    server: Server, request_: AiohttpRequest
) -> None:
    server.delay = 1.0
    with pytest.raises(TimedOut) as caught:
        await request_.do_request(f"{server.url}/sendMessage", "POST", read_timeout=0.2)
    assert not isinstance(caught.value, NotSent)  # it arrived: it may take effect


async def test_no_free_connection_in_time_is_a_timeout_before_sending(server: Server) -> None:
    server.delay = 1.0
    request = AiohttpRequest(connection_pool_size=1, read_timeout=2.0)
    await request.initialize()
    try:
        busy = asyncio.create_task(request.do_request(f"{server.url}/getMe", "POST"))
        while not server.received:  # noqa: ASYNC110 - the server records no event to wait on
            await asyncio.sleep(0.01)
        with pytest.raises(ConnectTimedOut):
            await request.do_request(f"{server.url}/getMe", "POST", pool_timeout=0.2)
        await busy
    finally:
        await request.shutdown()
    assert len(server.received) == 1


@asynccontextmanager
async def answering(raw: bytes) -> AsyncIterator[int]:
    """A server on loopback that answers every request with the bytes `raw`; its port."""

    async def reply(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(raw)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(reply, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (502, b"<html>nginx</html>", "Bad Gateway (502)"),
        (503, b'{"ok":false,"error_code":503,"description":"Service Unavailable"}',
         "Service Unavailable (503)"),
        (500, b'{"ok":false,"error_code":500,"description":"Internal Server Error"}',
         "Internal Server Error (500)"),
        (599, b"", "Server error (599)"),
    ],
)  # fmt: skip
async def test_a_5xx_keeps_its_status(
    request_: AiohttpRequest, status: int, body: bytes, message: str
) -> None:
    head = f"HTTP/1.1 {status} X\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    async with answering(head.encode() + body) as port:
        with pytest.raises(ServerError) as caught:
            await request_.do_request(f"http://127.0.0.1:{port}/bot1:x/sendMessage", "POST")
    assert (caught.value.status, caught.value.message) == (status, message)


async def test_uninitialized_request_refuses() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest().do_request("http://127.0.0.1:1/getMe", "POST")


def test_the_environment_proxy_is_used_unless_the_host_is_excluded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    request = AiohttpRequest()
    assert request._proxy_for("https://api.telegram.org/bot1:x/getMe") == (
        "http://proxy.example:3128"
    )
    assert request._proxy_for("http://127.0.0.1:8081/bot1:x/getMe") is None
    monkeypatch.delenv("HTTPS_PROXY")
    assert AiohttpRequest()._proxy_for("https://api.telegram.org/bot1:x/getMe") is None


async def test_a_malformed_answer_is_a_network_error_without_the_token(
    request_: AiohttpRequest,
) -> None:
    async with answering(b"HTTP/1.1 200 OK\r\nContent-Length: nonsense\r\n\r\n{}") as port:
        with pytest.raises(NetworkError) as caught:
            await request_.do_request(f"http://127.0.0.1:{port}/bot123:SECRET/getMe", "POST")
    assert "aiohttp" in str(caught.value)
    assert "SECRET" not in str(caught.value)
    assert caught.value.__cause__ is None


async def test_a_text_sent_or_edited_without_its_message_travels_as_ptbs_own(
    server: Server,
) -> None:
    """QuizBot.send_text and edit_text send what send_message and edit_message_text send
    (the bot's defaults: HTML, no link preview), and send_text returns the new message's id."""
    from bot.app import _bot
    from bot.config import Settings

    message = {"message_id": 77, "date": 0, "chat": {"id": 5, "type": "private"}, "text": "x"}
    me = {"id": 1, "is_bot": True, "first_name": "Quiz", "username": "quiz_bot"}

    async def handle(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if method != "getMe":
            server.received.append({"method": method, "json": await request.json()})
        result = me if method == "getMe" else message
        return web.json_response({"ok": True, "result": result})

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    settings = Settings(token="1:t", api_base_url=f"http://127.0.0.1:{port}/bot")
    bot = _bot(settings)
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("<b>1</b>", callback_data="a:1")]])
    try:
        await bot.initialize()
        await bot.send_message(5, "<b>Q</b> &amp; http://x.example", reply_markup=markup)
        assert await bot.send_text(5, "<b>Q</b> &amp; http://x.example", markup) == 77
        await bot.edit_message_text("<i>R</i>", 5, 77, reply_markup=markup)
        await bot.edit_text(5, 77, "<i>R</i>", markup)
        await bot.send_message(5, "plain")
        assert await bot.send_text(5, "plain") == 77
    finally:
        await bot.shutdown()
        await runner.cleanup()
    sent = server.received
    assert [s["method"] for s in sent] == ["sendMessage", "sendMessage", "editMessageText",
                                           "editMessageText", "sendMessage", "sendMessage"]  # fmt: skip
    assert sent[0]["json"]["parse_mode"] == "HTML"
    assert sent[0]["json"]["link_preview_options"] == {"is_disabled": True}
    for ptbs, ours in zip(sent[::2], sent[1::2], strict=True):
        assert ours["json"] == ptbs["json"]
