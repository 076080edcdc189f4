"""The toast process: group taps' `answerCallbackQuery` requests sent by a child process, on
another core (docs/group-scale.md, "The toast process").

With thousands of members tapping one question the bot is CPU-bound on one core, and a fifth
of that is the toasts: PTB's request machinery and aiohttp's client, per tap. The bot hands
each toast, once its answer is committed, to this child as one line of JSON on its stdin
(`Toaster.send`: a write into the pipe's buffer, nothing awaited) and goes on. The child,
`python -m bot.serving.toaster`, runs its own event loop and a `QuizBot` with the bot's token
and Bot API URL, sends the toasts concurrently (at most `CONCURRENT` at once), one log line
per failure, on the bot's stderr. On its stdout it tells how far it got: the number of the
last toast up to which every one was sent or given up (`Answered`), a line now and then.

When the child cannot start, the bot logs one WARNING line and sends its toasts itself. When
it dies, the bot logs one WARNING line, sends itself the toasts the child had not told it had
sent (those younger than Telegram's window: `ANSWER_WINDOW`; a toast the child did send just
before it died is refused by Telegram as already answered, a DEBUG line) and every toast
until a new child runs, started after `RESTART_SECONDS` (doubled after each start that fails
or each child that dies within `STEADY_SECONDS`, up to `RESTART_MAX_SECONDS`). At shutdown the
bot closes the pipe after the last toast was handed over; the child sends what it holds and
exits, waited for `STOP_SECONDS`, then killed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
from collections import deque
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from telegram.error import TelegramError

from bot.config import Settings
from bot.core import faults
from bot.core.transport import AiohttpRequest, QuizBot, RateLimiter
from bot.serving.logs import configured

log = logging.getLogger(__name__)

READY = b"toaster ready\n"  # the child's first line on stdout, once it can send
READY_SECONDS = 30.0  # for the child to start (imports, getMe); else toasts stay in-process
STOP_SECONDS = 5.0  # for the child to send what it holds at shutdown; then it is killed
CONCURRENT = 256  # requests in flight at once: the size of AiohttpRequest's pool
ANSWER_WINDOW = 10.0  # Telegram's time to answer a tap: an older toast is not kept to resend
RESTART_SECONDS = 1.0  # from a child's death to the start of the next
RESTART_MAX_SECONDS = 60.0  # the longest wait between starts, however often they fail
STEADY_SECONDS = 60.0  # a child that ran this long died by accident: the next starts soon

AnswerHere = Callable[[str, str], Awaitable[object]]  # the bot's own answerCallbackQuery


class Handed(NamedTuple):
    """A toast handed to the current child: its number there (from 1), and when."""

    number: int
    query_id: str
    text: str
    at: float


class Child:
    """One toast process, and how far it told it has answered."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.stdin = process.stdin
        self.answered = 0  # the toasts numbered up to this one are sent or given up
        self.started_at = asyncio.get_running_loop().time()
        self.told = asyncio.get_running_loop().create_task(self._read_answered(process.stdout))

    @classmethod
    async def start(cls, settings: Settings) -> Child | int | OSError:
        """The child, once it said it is ready; else its exit code, or why it did not run."""
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", __name__, env=_child_environment(settings),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
            )  # fmt: skip
        except OSError as error:
            return error
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
            return await process.wait()
        return cls(process)

    @property
    def taking(self) -> bool:
        """It runs and its pipe is open (a broken pipe: it is gone, said when reaped)."""
        return self.process.returncode is None and not self.stdin.is_closing()

    async def _read_answered(self, stdout: asyncio.StreamReader) -> None:
        rest = b""
        while chunk := await stdout.read(1 << 16):
            *lines, rest = (rest + chunk).split(b"\n")
            if lines and lines[-1].isdigit():
                self.answered = max(self.answered, int(lines[-1]))


class Toaster:
    """The bot's side: starts the child, hands it toasts, restarts it when it dies, stops it.
    `send` is all a tap costs: a JSON line kept until the end of this step of the event loop,
    then written with the others into the pipe (asyncio's pipe transport keeps what the pipe
    does not take yet), and the toast kept until the child says it is answered."""

    def __init__(self, settings: Settings, answer_here: AnswerHere, child: Child) -> None:
        self._settings = settings
        self._answer_here = answer_here
        self._child = child
        self._stopping = False
        self._loop = asyncio.get_running_loop()
        self._lines: list[bytes] = []  # handed over in this step of the event loop, not written
        self._handed: deque[Handed] = deque()  # not yet told answered, within the window
        self._number = 0  # the last toast handed to the current child
        self._resent: set[asyncio.Task[None]] = set()
        self._watch = self._loop.create_task(self._supervise(), name="toaster")

    @classmethod
    async def start(cls, settings: Settings, answer_here: AnswerHere) -> Toaster | None:
        """The child, once it said it is ready; None (and one WARNING line) if it could not
        start: the bot then sends its toasts itself. `answer_here` sends a toast from the
        bot (those a dead child held)."""
        child = await Child.start(settings)
        if not isinstance(child, Child):
            log.warning(
                "the toast process did not start (%s): toasts are sent in-process", _why(child)
            )
            return None
        log.info("toast process %d started: group toasts are sent by it", child.process.pid)
        return cls(settings, answer_here, child)

    @property
    def pid(self) -> int:
        """The current child's process id (the last one's while none runs)."""
        return self._child.process.pid

    @property
    def running(self) -> bool:
        return not self._stopping and self._child.taking

    async def exited(self) -> int | None:
        """Wait until the current child has exited; its exit code."""
        return await self._child.process.wait()

    def send(self, query_id: str, text: str) -> bool:
        """Hand a toast to the child; False while none takes it (then the caller sends it)."""
        if not self.running:
            return False
        now = self._loop.time()
        handed, answered = self._handed, self._child.answered
        while handed and (handed[0].number <= answered or handed[0].at < now - ANSWER_WINDOW):
            handed.popleft()
        self._number += 1
        handed.append(Handed(self._number, query_id, text, now))
        if not self._lines:
            self._loop.call_soon(self._write)
        self._lines.append(toast_line(query_id, text))
        return True

    def _write(self) -> None:
        """The toasts of one step of the event loop (a batch's answers are committed
        together) in one write: one system call, one wake-up of the child. Into a dead
        child's pipe they are not written: they are kept, and the bot sends them."""
        if self._lines and self._child.taking:
            self._child.stdin.write(b"\n".join(self._lines) + b"\n")
        self._lines.clear()

    async def stop(self) -> None:
        """Close the pipe (after what it holds is written): the child sends the rest and
        exits; waited for `STOP_SECONDS`, then killed. A child being started is killed."""
        self._stopping = True
        self._watch.cancel()
        await asyncio.gather(self._watch, return_exceptions=True)
        child = self._child
        if child.taking:
            self._write()
            child.stdin.close()
        try:
            await asyncio.wait_for(child.process.wait(), STOP_SECONDS)
        except TimeoutError:
            log.warning(
                "the toast process did not finish its toasts in %g s: stopped", STOP_SECONDS
            )
            child.process.kill()
            await child.process.wait()
        await asyncio.gather(*self._resent, return_exceptions=True)

    async def _supervise(self) -> None:
        """Each child's death: its toasts not told answered sent from here, then a new child
        after a wait that grows while children die young or do not start."""
        wait = RESTART_SECONDS
        while True:
            child = self._child
            code = await child.process.wait()
            await asyncio.gather(child.told, return_exceptions=True)  # what it said before
            self._take_back(child)
            if self._loop.time() - child.started_at >= STEADY_SECONDS:
                wait = RESTART_SECONDS
            log.warning(
                "the toast process %d stopped (exit code %s): its group toasts are sent "
                "in-process until it is restarted in %g s",
                child.process.pid, code, wait,
            )  # fmt: skip
            while True:
                await asyncio.sleep(wait)
                wait = min(wait * 2, RESTART_MAX_SECONDS)
                started = await Child.start(self._settings)
                if isinstance(started, Child):
                    break
                log.warning(
                    "the toast process did not start again (%s): next try in %g s",
                    _why(started), wait,
                )  # fmt: skip
            self._child, self._number = started, 0
            log.info("toast process %d started: group toasts are sent by it", started.process.pid)

    def _take_back(self, child: Child) -> None:
        """The toasts a dead child did not tell it answered, still within Telegram's window:
        sent from here (one it did send is refused as answered already: a DEBUG line)."""
        now = self._loop.time()
        kept = [
            toast
            for toast in self._handed
            if toast.number > child.answered and toast.at >= now - ANSWER_WINDOW
        ]
        self._handed.clear()
        self._lines.clear()
        for toast in kept:
            task = self._loop.create_task(self._resend(toast), name="toast-resent")
            self._resent.add(task)
            task.add_done_callback(self._resent.discard)

    async def _resend(self, toast: Handed) -> None:
        try:
            await self._answer_here(toast.query_id, toast.text)
        except TelegramError as error:
            log.debug("a toast of the dead toast process: %s", faults.describe(error))


def _why(failure: int | OSError) -> str:
    return f"exit code {failure}" if isinstance(failure, int) else str(failure)


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


class Answered:
    """The child's side of how far it got: toasts are numbered as read (from 1); once every
    toast up to one is sent or given up, that number is written on stdout, at most once a
    step of the event loop."""

    def __init__(self, out: asyncio.WriteTransport) -> None:
        self._out = out
        self._loop = asyncio.get_running_loop()
        self.read = 0
        self._open: deque[int] = deque()  # read, not yet done, in the order read
        self._done: set[int] = set()  # done out of order, behind an open one
        self._told = 0
        self._telling = False

    def begin(self) -> int:
        self.read += 1
        self._open.append(self.read)
        return self.read

    def end(self, number: int) -> None:
        self._done.add(number)
        while self._open and self._open[0] in self._done:
            self._done.discard(self._open.popleft())
        if not self._telling:
            self._telling = True
            self._loop.call_soon(self._tell)

    def _tell(self) -> None:
        self._telling = False
        mark = self._open[0] - 1 if self._open else self.read
        if mark > self._told and not self._out.is_closing():
            self._out.write(b"%d\n" % mark)
            self._told = mark


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
    out, _ = await loop.connect_write_pipe(asyncio.Protocol, sys.stdout)
    answered = Answered(out)
    room = asyncio.Semaphore(CONCURRENT)
    in_flight: set[asyncio.Task[None]] = set()
    try:
        while line := await reader.readline():
            await room.acquire()
            task = loop.create_task(_answer(bot, line, room, answered, answered.begin()))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        await asyncio.gather(*in_flight)
    finally:
        out.close()
        await bot.shutdown()


async def _answer(
    bot: QuizBot, line: bytes, room: asyncio.Semaphore, answered: Answered, number: int
) -> None:
    try:
        query_id, text = read_toast(line)
        await bot.answer_callback_query(query_id, text)
    except TelegramError as error:
        log.warning("a group tap's toast failed: %s", faults.describe(error))
    except ValueError:
        log.warning("the toast process was handed a line it cannot read: dropped")
    finally:
        answered.end(number)
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
