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


@asynccontextmanager
async def bot_process(env: dict[str, str], cwd: Path) -> AsyncIterator[BotProcess]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    running = BotProcess(process)
    try:
        await running.read_until("ready")
        yield running
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
