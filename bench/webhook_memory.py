"""Webhook under attack: the bot process's memory while oversized and slow requests hit it.

    python -m bench.webhook_memory                   # this tree, and `main` for comparison
    python -m bench.webhook_memory --before none     # this tree only
    python -m bench.webhook_memory --big 10 --seconds 25

Starts the real bot (`python -m bot`, webhook mode, SQLite in a temp folder) against the Bot
API stand-in, waits until it has called setWebhook and listens, and then, all at once for
--seconds: --big POSTs of 64 MiB with a wrong secret and --big with the right one (each sent
in full unless the server refuses or closes first), --slow connections that trickle their
request head one byte every 0.5 s and --slow that send a good head and trickle the body, and
one valid update a second (a probe that must still be answered). Printed per tree: the bot's
RSS (VmRSS) when idle, the highest seen during the attack, the process's peak (VmHWM), and
RSS after it; the answers the big POSTs got; how many slow connections the server cut off;
the probes answered; the exit code after SIGTERM.

`--before REF` runs the same against the tree of a git ref (extracted with `git archive`;
its webhook needs tornado, PTB's `webhooks` extra, installed in this environment).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser, free_port

REPO = Path(__file__).resolve().parent.parent
SECRET = "bench-secret-token"
PATH = "/telegram/hook"
BIG = 64 * 1024 * 1024
TRICKLE_SECONDS = 0.5


@dataclass
class Result:
    name: str
    idle_kib: int = 0
    max_kib: int = 0
    hwm_kib: int = 0
    after_kib: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    slow: int = 0
    slow_cut: int = 0
    probes: int = 0
    probes_answered: int = 0
    exit_code: int | None = None


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _head(secret: str, length: int) -> bytes:
    return (
        f"POST {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"X-Telegram-Bot-Api-Secret-Token: {secret}\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


async def _status_line(reader: asyncio.StreamReader) -> str:
    try:
        line = await asyncio.wait_for(reader.readline(), 30)
    except TimeoutError:
        return "no answer in 30 s"
    except ConnectionError:
        # the server answered and closed with our unsent body still arriving: the kernel then
        # resets the connection, and the answer may be lost on the way
        return "reset"
    parts = line.split()
    return parts[1].decode() if len(parts) > 1 else "closed"


async def _big_post(port: int, secret: str, body: memoryview, result: Result, label: str) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        result.answers[f"{label}: connection refused"] += 1
        return
    answer = asyncio.create_task(_status_line(reader))
    try:
        writer.write(_head(secret, len(body)))
        for start in range(0, len(body), 1 << 20):
            if answer.done():
                break
            writer.write(body[start : start + (1 << 20)])
            await writer.drain()
    except ConnectionError:
        pass
    result.answers[f"{label}: {await answer}"] += 1
    writer.close()


async def _trickle(port: int, head_only: bool, until: float, result: Result) -> None:
    """One byte every 0.5 s (the head, or after a good head the body) until `until`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps({"update_id": 1, "padding": "x" * 200}).encode()
    data = _head(SECRET, len(body))
    if not head_only:
        writer.write(data)
        data = body
    result.slow += 1
    closed = asyncio.create_task(reader.read())  # returns when the server closes
    reset = False
    try:
        for byte in data:
            if closed.done() or time.monotonic() > until:
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(TRICKLE_SECONDS)  # the attacker's pace
    except ConnectionError:
        reset = True
    if reset or closed.done():
        result.slow_cut += 1
    closed.cancel()
    writer.close()


async def _probe(api: FakeBotApi, port: int, until: float, result: Result) -> None:
    """A valid update a second; counted as answered when the bot's reply reaches the stand-in."""
    update_id = 1000
    while time.monotonic() < until:
        update_id += 1
        user = FakeUser(900_000 + update_id, "Probe", "en")
        chat = api.private_chat(user)
        update = {
            "update_id": update_id,
            "message": {
                "message_id": 1, "date": 0, "chat": chat.to_dict(), "from": user.to_dict(),
                "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        }  # fmt: skip
        body = json.dumps(update).encode()
        result.probes += 1
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(_head(SECRET, len(body)) + body)
            await writer.drain()
            await _status_line(reader)
            writer.close()
            await _answered(api, chat.id)
            result.probes_answered += 1
        except (OSError, AssertionError):
            pass
        await asyncio.sleep(1.0)  # the probe's pace


async def _answered(api: FakeBotApi, chat_id: int) -> None:
    await api.wait_for(lambda: api.bot_messages(chat_id), timeout=10)


async def measure(name: str, tree: Path, args: argparse.Namespace) -> Result:
    result = Result(name)
    api = FakeBotApi()
    await api.start()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = api.bot_environment(
            Path(folder) / "quiz.sqlite3", LOG_LEVEL="WARNING",
            QUIZ_WEBHOOK_URL=f"http://127.0.0.1:{port}{PATH}", QUIZ_WEBHOOK_SECRET=SECRET,
            QUIZ_WEBHOOK_LISTEN="127.0.0.1", QUIZ_WEBHOOK_PORT=str(port),
        )  # fmt: skip
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=tree,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            await api.wait_for(lambda: api.webhook is not None, timeout=60)
            await _until_listening(port)
            await asyncio.sleep(1.0)  # settle before the idle figure
            result.idle_kib = _status(process.pid, "VmRSS")
            until = time.monotonic() + args.seconds
            sampling = asyncio.create_task(_sample(process.pid, result))
            body = memoryview(b"x" * BIG)
            attack = [
                *(_big_post(port, "wrong", body, result, "wrong secret") for _ in range(args.big)),
                *(_big_post(port, SECRET, body, result, "right secret") for _ in range(args.big)),
                *(_trickle(port, True, until, result) for _ in range(args.slow)),
                *(_trickle(port, False, until, result) for _ in range(args.slow)),
                _probe(api, port, until, result),
            ]
            await asyncio.gather(*attack)
            del body
            sampling.cancel()
            await asyncio.sleep(3.0)  # let it settle before the after figure
            result.after_kib = _status(process.pid, "VmRSS")
            result.hwm_kib = _status(process.pid, "VmHWM")
            process.send_signal(signal.SIGTERM)
            result.exit_code = await asyncio.wait_for(process.wait(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            await api.stop()
    return result


async def _until_listening(port: int) -> None:
    for _ in range(600):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)  # polling for the port to open
            continue
        writer.close()
        return
    raise RuntimeError("the bot never listened")


async def _sample(pid: int, result: Result) -> None:
    while True:
        result.max_kib = max(result.max_kib, _status(pid, "VmRSS"))
        await asyncio.sleep(0.05)  # the sampling interval


def _tree_of(ref: str, folder: Path) -> Path | None:
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref], capture_output=True, check=False
    )
    if archive.returncode != 0:
        print(f"(no tree for {ref!r}: {archive.stderr.decode().strip()})")
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def _report(results: list[Result], args: argparse.Namespace) -> None:
    mib = 1024
    print(
        f"\n{args.big} x 64 MiB POST with a wrong secret, {args.big} x with the right one, "
        f"{args.slow} trickled heads, {args.slow} trickled bodies, for {args.seconds:g} s\n"
    )
    print(
        f"{'tree':<16} {'idle RSS':>9} {'max RSS':>9} {'VmHWM':>9} {'after':>9} "
        f"{'slow cut off':>13} {'probes':>7} {'exit':>5}"
    )
    for r in results:
        print(
            f"{r.name:<16} {r.idle_kib / mib:>6.0f} MiB {r.max_kib / mib:>5.0f} MiB "
            f"{r.hwm_kib / mib:>5.0f} MiB {r.after_kib / mib:>5.0f} MiB "
            f"{r.slow_cut:>6}/{r.slow:<6} {r.probes_answered:>3}/{r.probes:<3} {r.exit_code!s:>5}"
        )
    for r in results:
        answers = ", ".join(f"{k} x{v}" for k, v in sorted(r.answers.items()))
        print(f"{r.name}: big POSTs answered: {answers}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="main", help="git ref to compare with, or none")
    parser.add_argument("--big", type=int, default=10, help="64 MiB POSTs per secret")
    parser.add_argument("--slow", type=int, default=20, help="trickling heads, and bodies")
    parser.add_argument("--seconds", type=float, default=25.0)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        tree = None if args.before == "none" else _tree_of(args.before, Path(folder))
        if tree is not None and importlib.util.find_spec("tornado") is None:
            print(
                f"(not comparing with {args.before}: its webhook needs tornado; pip install tornado)"
            )
            tree = None
        if tree is not None:
            results.append(await measure(f"before ({args.before})", tree, args))
    results.append(await measure("this tree", REPO, args))
    _report(results, args)


if __name__ == "__main__":
    asyncio.run(main())
