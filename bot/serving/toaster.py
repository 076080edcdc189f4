"""The toast process: group taps' `answerCallbackQuery` requests sent by a child process, on
another core (docs/group-scale.md, "The toast process").

With thousands of members tapping one question the bot is CPU-bound on one core, and a fifth
of that is the toasts: PTB's request machinery and aiohttp's client, per tap. The bot hands
each toast, once its answer is committed, to this child as one line of JSON on its stdin
(`Toaster.send`: a write into the pipe's buffer, nothing awaited) and goes on. The child,
`python -m bot.serving.toaster`, runs its own event loop and a `QuizBot` with the bot's token
and Bot API URL, sends the toasts concurrently (at most `CONCURRENT` at once), one log line
per failure, on the bot's stderr.

When the child cannot start or dies, the bot logs one WARNING line and sends its toasts itself
from then on; toasts already written to a dead child are lost (their answers are stored; the
member sees a spinning button). At shutdown the bot closes the pipe after the last toast was
handed over; the child sends what it holds and exits, waited for `STOP_SECONDS`, then killed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys

from telegram.error import TelegramError

from bot.config import Settings
from bot.core import faults
from bot.core.transport import AiohttpRequest, QuizBot, RateLimiter
from bot.serving.logs import configured

log = logging.getLogger(__name__)

READY = b"toaster ready\n"  # the child's one line on stdout, once it can send
READY_SECONDS = 30.0  # for the child to start (imports, getMe); else toasts stay in-process
STOP_SECONDS = 5.0  # for the child to send what it holds at shutdown; then it is killed
CONCURRENT = 256  # requests in flight at once: the size of AiohttpRequest's pool


class Toaster:
    """The bot's side: starts the child, hands it toasts, stops it. `send` is all a tap
    costs: a JSON line kept until the end of this step of the event loop, then written with the
    others into the pipe (asyncio's pipe transport keeps what the pipe does not take yet)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        assert process.stdin is not None
        self._stdin = process.stdin
        self._running = True
        self._stopping = False
        self._loop = asyncio.get_running_loop()
        self._watch = self._loop.create_task(self._watch_exit(), name="toaster")
        self._lines: list[bytes] = []  # handed over in this step of the event loop, not written

    @classmethod
    async def start(cls, settings: Settings) -> Toaster | None:
        """The child, once it said it is ready; None (and one WARNING line) if it could not
        start: the bot then sends its toasts itself."""
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", __name__, env=_child_environment(settings),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
            )  # fmt: skip
        except OSError as error:
            log.warning("the toast process did not start (%s): toasts are sent in-process", error)
            return None
        assert process.stdout is not None
        try:
            line = await asyncio.wait_for(process.stdout.readline(), READY_SECONDS)
        except TimeoutError:
            line = b""
        except BaseException:  # the bot stops while the child starts: it stops too
            process.kill()
            raise
        if line != READY:
            if process.returncode is None:
                process.kill()
            code = await process.wait()
            log.warning(
                "the toast process did not start (exit code %s): toasts are sent in-process", code
            )
            return None
        log.info("toast process %d started: group toasts are sent by it", process.pid)
        return cls(process)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._running

    async def exited(self) -> int | None:
        """Wait until the child has exited; its exit code."""
        await asyncio.shield(self._watch)
        return self._process.returncode

    def send(self, query_id: str, text: str) -> bool:
        if not self._running:
            return False
        if self._stdin.is_closing():  # the pipe broke: the child is gone (said when reaped)
            self._running = False
            return False
        if not self._lines:
            self._loop.call_soon(self._write)
        self._lines.append(toast_line(query_id, text))
        return True

    def _write(self) -> None:
        """The toasts of one step of the event loop (a batch's answers are committed
        together) in one write: one system call, one wake-up of the child."""
        if self._lines and not self._stdin.is_closing():
            self._stdin.write(b"\n".join(self._lines) + b"\n")
        self._lines.clear()

    async def stop(self) -> None:
        """Close the pipe (after what it holds is written): the child sends the rest and
        exits; waited for `STOP_SECONDS`, then killed."""
        self._stopping = True
        self._running = False
        self._write()
        self._stdin.close()
        try:
            await asyncio.wait_for(asyncio.shield(self._watch), STOP_SECONDS)
        except TimeoutError:
            log.warning(
                "the toast process did not finish its toasts in %g s: stopped", STOP_SECONDS
            )
            self._process.kill()
            await self._watch

    async def _watch_exit(self) -> None:
        code = await self._process.wait()
        self._running = False
        if not self._stopping:
            log.warning(
                "the toast process stopped (exit code %s): group toasts are sent in-process "
                "from now on",
                code,
            )


def toast_line(query_id: str, text: str) -> bytes:
    """A toast as the child reads it: one line, whatever the text holds (line breaks, U+2028,
    NUL, lone surrogates: JSON's ASCII escapes)."""
    return json.dumps((query_id, text)).encode("ascii")


def read_toast(line: bytes) -> tuple[str, str]:
    """The toast of one line; ValueError if it is not one."""
    query_id, text = json.loads(line)
    if not isinstance(query_id, str) or not isinstance(text, str):
        raise ValueError("not a toast")
    return query_id, text


def _child_environment(settings: Settings) -> dict[str, str]:
    """This process's environment (the bot read its settings from it and from the same `.env`
    the child finds in the same folder, so the child reads the same), with the bot's own Bot
    API settings over it (the bot may have been given them otherwise, as the tests do)."""
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN=settings.token,
        TELEGRAM_API_BASE_URL=settings.api_base_url,
        LOG_LEVEL=settings.log_level,
    )
    return env


async def _send_toasts(settings: Settings) -> None:
    """Read toasts from stdin until it closes and send each; then finish the ones in flight."""
    loop = asyncio.get_running_loop()
    bot = QuizBot(
        settings.token,
        base_url=settings.api_base_url,
        request=AiohttpRequest(connection_pool_size=CONCURRENT),
        get_updates_request=AiohttpRequest(connection_pool_size=1),
        # the bot's: a toast passes freely, a 429 is waited out only if short (TOAST_PATIENCE)
        rate_limiter=RateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=5),
    )
    await bot.initialize()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    room = asyncio.Semaphore(CONCURRENT)
    in_flight: set[asyncio.Task[None]] = set()
    try:
        while line := await reader.readline():
            await room.acquire()
            task = loop.create_task(_answer(bot, line, room))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        await asyncio.gather(*in_flight)
    finally:
        await bot.shutdown()


async def _answer(bot: QuizBot, line: bytes, room: asyncio.Semaphore) -> None:
    try:
        query_id, text = read_toast(line)
        await bot.answer_callback_query(query_id, text)
    except TelegramError as error:
        log.warning("a group tap's toast failed: %s", faults.describe(error))
    except ValueError:
        log.warning("the toast process was handed a line it cannot read: dropped")
    finally:
        room.release()


def main() -> int:
    # The bot stops the child by closing its stdin once the last toast was handed over: a
    # Ctrl-C or SIGTERM sent to the whole process group must not end it before that.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    settings = configured("quiz-tutor toaster")
    if settings is None:
        return 2
    try:
        asyncio.run(_send_toasts(settings))
    except TelegramError as error:  # getMe at start: the bot then sends its toasts itself
        log.warning("the toast process cannot reach the Bot API: %s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
