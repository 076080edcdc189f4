"""Webhook mode as operators run it (`python -m bot`), probed over raw HTTP: the secret is
checked before any body is read, bodies are capped, only POST on the webhook path, malformed
updates refused, one log line per kind of refusal, `/healthz`, loopback by default."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

from bot.sandbox import FakeBotApi, FakeUser, free_port
from tests.support.process import BotProcess, bot_process

SECRET = "s3cret-token"
PATH = "/telegram/hook"
READY = "webhook: listening on"


def webhook_env(api: FakeBotApi, tmp_path: Path, port: int, listen: str | None) -> dict[str, str]:
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env.update(
        QUIZ_WEBHOOK_URL=f"http://127.0.0.1:{port}{PATH}",
        QUIZ_WEBHOOK_SECRET=SECRET,
        QUIZ_WEBHOOK_PORT=str(port),
    )
    if listen is not None:
        env["QUIZ_WEBHOOK_LISTEN"] = listen
    return env


def head(
    method: str,
    path: str = PATH,
    *,
    secret: str | None = None,
    length: int | None = None,
    chunked: bool = False,
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    if secret is not None:
        lines.append(f"X-Telegram-Bot-Api-Secret-Token: {secret}")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    if chunked:
        lines.append("Transfer-Encoding: chunked")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def read_response(reader: asyncio.StreamReader, timeout: float = 5.0) -> tuple[int, bytes]:
    """The status and body of one HTTP/1.1 response (Content-Length framed)."""

    async def read() -> tuple[int, bytes]:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("closed without a response")
        status = int(status_line.split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, await reader.readexactly(length)

    return await asyncio.wait_for(read(), timeout)


async def exchange(
    port: int, request: bytes, host: str = "127.0.0.1", timeout: float = 5.0
) -> tuple[int, bytes]:
    """Send `request` on a new connection; the response, or a TimeoutError if none comes."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(request)
        await writer.drain()
        return await read_response(reader, timeout)
    finally:
        writer.close()


async def until(condition: Any, timeout: float = 10.0) -> None:
    """Wait for a condition no API call signals (the bot is held, calling nothing)."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 (a state of the bot, no event says it)
            await asyncio.sleep(0.01)


def update_for(api: FakeBotApi, user: FakeUser, text: str, update_id: int) -> dict[str, Any]:
    chat = api.private_chat(user)
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id, "date": 0, "chat": chat.to_dict(), "from": user.to_dict(),
            "text": text, "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }  # fmt: skip


def post(body: bytes, secret: str | None = SECRET) -> bytes:
    return head("POST", secret=secret, length=len(body)) + body


async def served(api: FakeBotApi, port: int, user: FakeUser, update_id: int) -> None:
    """A good update from `user`, posted on a connection of its own, is answered 200 and served
    (the bot's reply to /help arrives)."""
    update = json.dumps(update_for(api, user, "/help", update_id)).encode()
    assert (await exchange(port, post(update)))[0] == 200
    await api.wait_for_bot_message(user.id, "/progress")


async def stop(running: BotProcess) -> str:
    running.process.send_signal(signal.SIGTERM)
    code, log = await running.finish()
    assert code == 0, log
    assert "Traceback" not in log
    assert SECRET not in log
    assert "Quiz Tutor stopped" in log
    return log


def refusals(log: str, status: int) -> list[str]:
    return [
        line for line in log.splitlines() if "webhook: refused" in line and f"({status})" in line
    ]


async def test_refusals_come_before_the_body_and_are_logged_once(
    api: FakeBotApi, tmp_path: Path
) -> None:
    port = free_port()
    user = FakeUser(2101, "Tolu", "en")
    async with bot_process(webhook_env(api, tmp_path, port, "127.0.0.1"), tmp_path) as running:
        await running.read_until(READY)
        # a huge body announced, none sent: the answer cannot wait for it
        huge = 64 * 1024 * 1024
        for secret in ("wrong", None, SECRET[:-1] + "X", ""):
            status, _ = await exchange(port, head("POST", secret=secret, length=huge))
            assert status == 403
        assert (await exchange(port, head("POST", secret=SECRET, length=huge)))[0] == 413
        assert (await exchange(port, head("POST", secret=SECRET, length=1024**2 + 1)))[0] == 413
        # no Content-Length: the cap holds while reading (one byte over it, and no end)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head("POST", secret=SECRET, chunked=True))
        for size in [65536] * 16 + [1]:
            writer.write(b"%x\r\n%s\r\n" % (size, b"x" * size))
        await writer.drain()
        status, _ = await read_response(reader)
        writer.close()
        assert status == 413
        # only POST, only on the webhook path
        assert (await exchange(port, head("GET")))[0] == 405
        assert (await exchange(port, head("PUT", secret=SECRET, length=0)))[0] == 405
        assert (await exchange(port, head("POST", "/other", secret=SECRET, length=0)))[0] == 404
        assert (await exchange(port, head("POST", "/", secret=SECRET, length=0)))[0] == 404
        # malformed: not JSON, or JSON that is not an update
        assert (await exchange(port, post(b'{"update_id": ')))[0] == 400
        assert (await exchange(port, post(b"[1, 2]")))[0] == 400
        assert (await exchange(port, post(b'{"no": "update id"}')))[0] == 400
        assert api.bot_messages(user.id) == []
        # health: no secret, a tiny answer
        assert await exchange(port, head("GET", "/healthz")) == (200, b"ok")
        await served(api, port, user, 1)  # and a good update still is
        log = await stop(running)
    for status in (403, 413, 404, 405, 400):
        assert len(refusals(log, status)) == 1, (status, log)
    assert "(400)" in refusals(log, 400)[0] and "JSON" in refusals(log, 400)[0]


async def test_the_answer_does_not_wait_for_the_handler(api: FakeBotApi, tmp_path: Path) -> None:
    port = free_port()
    user = FakeUser(2102, "Ada", "en")
    async with bot_process(webhook_env(api, tmp_path, port, None), tmp_path) as running:
        await running.read_until(READY)
        api.delay("sendMessage", 3.0)
        update = json.dumps(update_for(api, user, "/help", 7)).encode()
        assert (await exchange(port, post(update)))[0] == 200
        # the reply cannot exist before the stand-in lets sendMessage through
        assert api.bot_messages(user.id) == []
        await api.wait_for_bot_message(user.id, "/progress")
        await stop(running)


async def test_listens_on_loopback_by_default(api: FakeBotApi, tmp_path: Path) -> None:
    port = free_port()
    async with bot_process(webhook_env(api, tmp_path, port, None), tmp_path) as running:
        await running.read_until(READY)
        assert await exchange(port, head("GET", "/healthz")) == (200, b"ok")
        # 127.0.0.2 is this machine too: a server on 0.0.0.0 would answer there
        try:
            answer: object = await exchange(port, head("GET", "/healthz"), host="127.0.0.2")
        except OSError as error:
            answer = error
        assert isinstance(answer, ConnectionRefusedError), answer
        await stop(running)


async def test_polling_mode_serves_health_on_loopback_when_asked(
    api: FakeBotApi, tmp_path: Path
) -> None:
    port = free_port()
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env["QUIZ_HEALTH_PORT"] = str(port)
    async with bot_process(env, tmp_path) as running:
        await running.read_until("polling for updates")
        assert await exchange(port, head("GET", "/healthz")) == (200, b"ok")
        assert (await exchange(port, head("GET", "/")))[0] == 404
        assert (await exchange(port, head("POST", "/healthz", length=0)))[0] == 405
        await stop(running)


async def test_telegrams_hundred_connections_fit_under_the_cap(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """The bot asks Telegram for its maximum of connections (each carries one update at a
    time, so they bound the updates a second); the server's cap leaves room above them."""
    port = free_port()
    user = FakeUser(2103, "Kemi", "en")
    async with bot_process(webhook_env(api, tmp_path, port, None), tmp_path) as running:
        await running.read_until(READY)
        assert api.webhook is not None and api.webhook["max_connections"] == 100
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(100)]
        try:
            # a probe beside Telegram's hundred is answered
            assert await exchange(port, head("GET", "/healthz")) == (200, b"ok")
            # and the hundredth of Telegram's connections carries an update
            reader, writer = held[-1]
            writer.write(post(json.dumps(update_for(api, user, "/help", 8)).encode()))
            assert (await read_response(reader))[0] == 200
            await api.wait_for_bot_message(user.id, "/progress")
        finally:
            for _, writer in held:
                writer.close()
        await stop(running)
