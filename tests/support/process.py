"""`python -m bot` as a process of its own, its log read line by line."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

QUIZ_ID = "model-pipeline-parallelism"


class BotProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.log: list[str] = []

    async def read_until(self, needle: str, timeout: float = 30.0) -> None:
        async def read() -> None:
            assert self.process.stderr is not None
            while True:
                line = await self.process.stderr.readline()
                if not line:
                    raise AssertionError(f"bot exited before {needle!r}:\n" + "".join(self.log))
                self.log.append(line.decode())
                if needle in self.log[-1]:
                    return

        await asyncio.wait_for(read(), timeout)

    async def finish(self, timeout: float = 30.0) -> tuple[int, str]:
        assert self.process.stderr is not None
        rest = await asyncio.wait_for(self.process.stderr.read(), timeout)
        code = await asyncio.wait_for(self.process.wait(), timeout)
        return code, "".join(self.log) + rest.decode()


async def _spawn(env: dict[str, str], cwd: Path, stdout: int) -> asyncio.subprocess.Process:
    """`python -m bot`, its log (stderr) piped to the test."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL, stdout=stdout, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


@asynccontextmanager
async def bot_process(env: dict[str, str], cwd: Path) -> AsyncIterator[BotProcess]:
    """The bot running until the block ends (killed then if it still runs)."""
    process = await _spawn(env, cwd, asyncio.subprocess.DEVNULL)
    running = BotProcess(process)
    try:
        await running.read_until("ready")
        yield running
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def run_to_exit(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """A bot that is expected to stop by itself: its exit code and its whole output."""
    process = await _spawn(env, cwd, asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:  # it kept running: the test fails, the bot must not stay
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, out.decode() + err.decode()
