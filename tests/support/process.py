"""`python -m bot` as a process of its own, its log read line by line."""

from __future__ import annotations

import asyncio
import os
import signal
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

    async def kill_9(self) -> None:
        """`kill -9`: the bot is gone at once, with no chance to finish anything."""
        self.process.kill()
        await self.process.wait()
        assert self.process.returncode == -signal.SIGKILL


async def _spawn(env: dict[str, str], cwd: Path, stdout: int) -> asyncio.subprocess.Process:
    """`python -m bot`, its log (stderr) piped to the test; toasts in-process unless `env`
    says otherwise."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env={"QUIZ_TOAST_PROCESS": "off", **env}, cwd=cwd,
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
        await stop_if_running(process)


async def started_bot(env: dict[str, str], cwd: Path) -> BotProcess:
    """The bot just started, not waited for: the caller stops it (`stop_if_running` at the
    end, whatever happened)."""
    return BotProcess(await _spawn(env, cwd, asyncio.subprocess.DEVNULL))


async def stop_if_running(process: asyncio.subprocess.Process) -> None:
    """Kill the bot if it still runs, and wait for it to be gone: a test that failed or timed
    out leaves no bot behind (holding its database, its port, the machine's CPU)."""
    if process.returncode is None:
        process.kill()
        await process.wait()


async def run_to_exit(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """A bot that is expected to stop by itself: its exit code and its whole output."""
    process = await _spawn(env, cwd, asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), 60)
    finally:  # it kept running: the test fails, the bot must not stay
        await stop_if_running(process)
    assert process.returncode is not None
    return process.returncode, out.decode() + err.decode()


def tcp_ports(pid: int) -> set[int]:
    """The local ports of the TCP connections process `pid` holds open (Linux /proc)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{table}", encoding="ascii") as lines:
            next(lines)  # the header
            for line in lines:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def children(pid: int) -> list[int]:
    """The processes `pid` started that still run (Linux /proc)."""
    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listed:
        return [int(child) for child in listed.read().split()]


def running(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}")
