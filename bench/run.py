"""Load benchmark: simulated learners answer quizzes against the Bot API stand-in.

    python -m bench.run                      # 100 and 1,000 learners
    python -m bench.run --learners 100,1000,10000 --repeat 3

For each size, in one run: Quiz Tutor (`python -m bot`, real SQLite in a temp folder) and two
floors serve the same load of N learners, each taking an 8-question quiz --rounds times as fast
as replies come. The floors are `bench/floor_bot.py`, bare PTB that only answers and edits: once
with PTB's default transport (httpx), once on Quiz Tutor's own aiohttp transport. Printed:
answers/s, p50/p99 latency from the tap's update to its callback answer, Bot API calls per
answer, CPU of the bot and of this driver, the bot process's peak memory, the database size,
and our throughput as a ratio of each floor's (median over --repeat runs). At the end the
database is checked: every acknowledged answer stored once.

Then a group (`--group 1000,10000`): one question of a /groupquiz, its members tapping all at
once or spread over `--group-spread` seconds, by long polling and, with `--webhook`, with
updates POSTed to the bot's webhook; printed as above, with the toasts Telegram would refuse as
too old (15 s), medians of --repeat runs, and the ratio to the floor-aio private answers/s.

    python -m bench.run --learners 50 --rounds 1 --repeat 3 --group 10000 --webhook
    python -m bench.run --learners 0 --group 10000 --group-spread 10

With `--group-learners` each group size runs twice: once with members who never started the
bot, and once with every member a learner (a `users` row seeded before the bot starts), whose
every answer is also a review of their card (written in the same batch).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.sandbox import STALE_QUERY, FakeBotApi, FakeUser, Message, Strictness, free_port
from storage import Storage

QUIZ_ID = "model-pipeline-parallelism"
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    name: str
    learners: int
    answers: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    api_calls: int = 0
    peak_kib: int = 0
    db_bytes: int = 0
    cpu_seconds: float = 0.0  # the bot's process and its children (the toast process)
    toaster_cpu_seconds: float = 0.0  # of which its children
    driver_cpu_seconds: float = 0.0  # this process: the stand-in and the simulated users
    stored: int | None = None
    distinct: int | None = None
    too_late: int = 0  # taps whose answer Telegram refused as too old (a member saw no answer)

    @property
    def rate(self) -> float:
        return self.answers / self.seconds if self.seconds else 0.0

    def read_database(self, db_path: Path, count: str) -> None:
        """The database's size (with its write-ahead log) and its answers: `count` selects
        (stored, distinct)."""
        self.db_bytes = sum(p.stat().st_size for p in db_path.parent.glob(f"{db_path.name}*"))
        with sqlite3.connect(db_path) as db:
            self.stored, self.distinct = db.execute(count).fetchone()

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


class Driver:
    """Routes the stand-in's events to the simulated learners without scanning per call."""

    def __init__(self, api: FakeBotApi) -> None:
        self.api = api
        self.questions: dict[int, asyncio.Queue[Message]] = {}
        self.acks: dict[str, asyncio.Future[float]] = {}
        api.on_bot_message = self._message
        api.on_callback_answer = self._ack

    def _message(self, message: Message) -> None:
        queue = self.questions.get(message.chat.id)
        if queue is not None and any(_is_answer(data) for data in message.button_data()):
            queue.put_nowait(message)

    def _ack(self, query_id: str) -> None:
        future = self.acks.pop(query_id, None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    async def learner(self, user: FakeUser, run: Run, answers_each: int, rounds: int) -> None:
        """Take the quiz `rounds` times, answering `answers_each` of its questions each time."""
        queue: asyncio.Queue[Message] = asyncio.Queue()
        self.questions[user.id] = queue
        rng = random.Random(user.id)
        for _ in range(rounds):
            self.api.send_text(user, f"/quiz {QUIZ_ID}")
            for _ in range(answers_each):
                message = await asyncio.wait_for(queue.get(), 120)
                options = [data for data in message.button_data() if _is_answer(data)]
                tapped = time.perf_counter()
                query_id = self.api.tap(user, message, rng.choice(options))
                future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
                self.acks[query_id] = future
                acked = await asyncio.wait_for(future, 120)
                run.latencies.append(acked - tapped)
                run.answers += 1


def _is_answer(data: str) -> bool:
    """An option button of Quiz Tutor (`1:a:...`) or of the floor bot (`f:...`)."""
    return data.startswith(("1:a:", "f:"))


async def _start(command: list[str], env: dict[str, str], ready: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        *command, env=env, cwd=REPO, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    while True:
        line = await asyncio.wait_for(process.stderr.readline(), 60)
        if not line:
            raise RuntimeError(f"{command} exited before it was ready")
        if ready.encode() in line:
            break

    async def drain() -> None:
        assert process.stderr is not None
        while await process.stderr.readline():
            pass

    asyncio.get_running_loop().create_task(drain())
    return process


async def _profile(pid: int, label: str) -> asyncio.subprocess.Process | None:
    """With `BENCH_PYSPY=<prefix>`, sample the bot with py-spy into `<prefix>-<label>.txt`
    (collapsed stacks, for `python -m bench.profile_summary`) until the measurement ends."""
    prefix = os.environ.get("BENCH_PYSPY")
    if not prefix:
        return None
    output = f"{prefix}-{label}.txt"
    command = ["py-spy", "record", "--format", "raw", "--rate", "200", "--nonblocking"]
    return await asyncio.create_subprocess_exec(
        *command, "--output", output, "--pid", str(pid),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip


def _children(pid: int) -> list[int]:
    """The processes `pid` started that still run (the bot's toast process)."""
    try:
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        return []


def _own_cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # it ended
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuClock:
    """CPU seconds of the bot and of its children since the clock was made."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = {p: _own_cpu_seconds(p) for p in [pid, *_children(pid)]}

    def read(self, run: Run) -> None:
        used = {
            p: _own_cpu_seconds(p) - self.before.get(p, 0.0)
            for p in [self.pid, *_children(self.pid)]
        }
        run.cpu_seconds = sum(used.values())
        run.toaster_cpu_seconds = run.cpu_seconds - used[self.pid]


def _peak_kib(pid: int) -> int:
    """The bot's peak resident memory, with its children's (the sum of each one's peak)."""
    total = 0
    for process in [pid, *_children(pid)]:
        try:
            lines = Path(f"/proc/{process}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in lines if line.startswith("VmHWM:")), 0)
    return total


# The learners' runs measure the code, not Telegram: the stand-in's flood limit is lifted, and a
# tap answered late in a burst of thousands is not refused as too old. The group run keeps
# Telegram's limits, to show that the bot keeps them itself.
UNLIMITED = Strictness(group_messages_per_minute=None, callback_query_max_age=None)


async def measure(
    name: str, learners: int, answers_each: int, workdir: Path, rounds: int = 1
) -> Run:
    api = FakeBotApi(strictness=UNLIMITED)
    await api.start()
    driver = Driver(api)
    db_path = workdir / f"{name}-{learners}.sqlite3"
    env = api.bot_environment(db_path, LOG_LEVEL="WARNING")
    if name.startswith("floor"):
        command, ready = [sys.executable, "-m", "bench.floor_bot"], "floor bot ready"
        if name == "floor-aio":
            command.append("--aiohttp")
    else:
        command, ready = [sys.executable, "-m", "bot"], "ready"
        if os.environ.get("BENCH_PROFILE"):  # a file: the bot runs under cProfile
            command = [
                sys.executable,
                "-m",
                "cProfile",
                "-o",
                os.environ["BENCH_PROFILE"],
                "-m",
                "bot",
            ]
        env["LOG_LEVEL"] = "INFO"
        # "quiz" measures the code; "quiz-30" keeps Telegram's 30 messages/s overall limit
        env["QUIZ_MAX_MESSAGES_PER_SECOND"] = "30" if name == "quiz-30" else "0"
    process = await _start(command, env, ready)
    run = Run(name, learners)
    profiler = await _profile(process.pid, f"{name}-{learners}")
    try:
        calls_before = len(api.calls)
        cpu = CpuClock(process.pid)
        driver_before = time.process_time()
        started = time.perf_counter()
        users = [FakeUser(100_000 + i, f"learner{i}", "en") for i in range(learners)]
        await asyncio.gather(*(driver.learner(user, run, answers_each, rounds) for user in users))
        run.seconds = time.perf_counter() - started
        run.api_calls = len(api.calls) - calls_before
        run.peak_kib = _peak_kib(process.pid)
        cpu.read(run)
        run.driver_cpu_seconds = time.process_time() - driver_before
    finally:
        if profiler is not None:
            profiler.send_signal(signal.SIGINT)
            await asyncio.wait_for(profiler.wait(), 60)
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 60)
        await api.stop()
    if name.startswith("quiz"):
        run.read_database(
            db_path,
            "SELECT COUNT(*), COUNT(DISTINCT attempt_id || '/' || question_id) FROM answers",
        )
    return run


GROUP_ID = -1_000_000_001
GROUP_ADMIN = FakeUser(99, "admin", "en")
WEBHOOK_SECRET = "bench-secret"
# The group run keeps Telegram's 15 s for answering a tap (a later answer is refused: counted
# as too late) and lifts its flood limit: the bot paces its live count itself.
GROUP_LIMITS = Strictness(group_messages_per_minute=None)


def _seed_learners(db_path: Path, members: int) -> None:
    """Every member a learner, as if each had started the bot in private."""
    with sqlite3.connect(db_path) as db:
        db.executemany(
            """INSERT INTO users (user_id, first_name, telegram_language, created_at, updated_at)
               VALUES (?, ?, 'en', 0, 0)""",
            [(200_000 + number, f"member{number}") for number in range(members)],
        )
    db.close()


async def measure_group(
    members: int,
    workdir: Path,
    spread: float = 0.0,
    webhook: bool = False,
    learners: bool = False,
    toast_process: str | None = None,
) -> Run:
    """One question posted to a group; `members` people tap it, all at once or spread evenly
    over `spread` seconds; updates fetched by long polling, or POSTed to the bot's webhook.
    With `learners`, every member has a learner row: each answer reviews their card too."""
    api = FakeBotApi(strictness=GROUP_LIMITS)
    api.deliver_webhooks = webhook
    await api.start()
    group = api.group(GROUP_ID, "bench", admins={GROUP_ADMIN.id})
    db_path = workdir / (
        f"group-{members}-{'webhook' if webhook else 'polling'}"
        f"{'-learners' if learners else ''}.sqlite3"
    )
    if learners:
        storage = await Storage.open(db_path)  # the schema, as the bot would make it
        await storage.close()
        _seed_learners(db_path, members)
    env = api.bot_environment(db_path, QUIZ_MAX_MESSAGES_PER_SECOND="0")
    if toast_process:
        env["QUIZ_TOAST_PROCESS"] = toast_process
    ready = "ready"
    if webhook:
        port = free_port()
        env.update(
            QUIZ_WEBHOOK_URL=f"http://127.0.0.1:{port}/hook",
            QUIZ_WEBHOOK_SECRET=WEBHOOK_SECRET,
            QUIZ_WEBHOOK_PORT=str(port),
        )
        ready = "webhook: listening on"
    process = await _start([sys.executable, "-m", "bot"], env, ready)
    run = Run(
        "group" + ("-webhook" if webhook else "") + ("-learners" if learners else ""), members
    )
    profiler = await _profile(process.pid, f"{run.name}-{members}")
    loop = asyncio.get_running_loop()
    tapped: dict[str, float] = {}
    acks: dict[str, asyncio.Future[float | None]] = {}

    def settle(query_id: str, acked: float | None) -> None:
        future = acks.pop(query_id, None)
        if future is not None and not future.done():
            future.set_result(acked)

    api.on_callback_answer = lambda query_id: settle(query_id, time.perf_counter())
    api.on_stale_callback = lambda query_id: settle(query_id, None)
    try:
        api.send_text(GROUP_ADMIN, f"/groupquiz {QUIZ_ID} 600", group)
        question = await api.wait_for(
            lambda: next(
                (
                    m
                    for m in api.bot_messages(GROUP_ID)
                    if any(":ga:" in d for d in m.button_data())
                ),
                None,
            ),
            60,
        )
        options = [d for d in question.button_data() if ":ga:" in d]
        calls_before = len(api.calls)
        cpu = CpuClock(process.pid)
        driver_before = time.process_time()
        started = time.perf_counter()
        for number in range(members):
            if spread:
                due = started + spread * number / members
                if due > time.perf_counter():
                    await asyncio.sleep(due - time.perf_counter())  # the next member's tap
            member = FakeUser(200_000 + number, f"member{number}", "en")
            query_id = api.tap(member, question, options[number % len(options)])
            tapped[query_id] = time.perf_counter()
            acks[query_id] = loop.create_future()
        futures = dict(acks)
        await asyncio.wait_for(asyncio.gather(*futures.values()), 600)
        run.seconds = time.perf_counter() - started
        for query_id, future in futures.items():
            acked = future.result()
            if acked is None:
                run.too_late += 1
            else:
                run.latencies.append(acked - tapped[query_id])
        run.answers = members  # every tap was handled: in time, or too late (counted apart)
        run.api_calls = len(api.calls) - calls_before
        cpu.read(run)
        run.driver_cpu_seconds = time.process_time() - driver_before
        run.peak_kib = _peak_kib(process.pid)
        edits = sum(1 for c in api.calls[calls_before:] if c.method == "editMessageText")
        refused = sum(
            1
            for c in api.calls[calls_before:]
            if not c.ok and not (c.method == "answerCallbackQuery" and c.description == STALE_QUERY)
        )
        print(f"  group: {edits} live-count edits, {refused} other calls refused by the stand-in")
    finally:
        if profiler is not None:
            profiler.send_signal(signal.SIGINT)
            await asyncio.wait_for(profiler.wait(), 60)
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 60)
        await api.stop()
    run.read_database(db_path, "SELECT COUNT(*), COUNT(DISTINCT user_id) FROM group_answers")
    if learners:
        with sqlite3.connect(db_path) as db:
            reviews = db.execute("SELECT COUNT(*) FROM review_log WHERE session_id IS NOT NULL")
            print(f"  group: {reviews.fetchone()[0]} reviews of members' cards", flush=True)
        db.close()
    return run


def _print(run: Run) -> None:
    check = ""
    if run.stored is not None:
        verdict = "ok" if run.stored == run.distinct == run.answers else "MISMATCH"
        check = f"  stored {run.stored} (distinct {run.distinct}) of {run.answers}: {verdict}"
    grouped = run.name.startswith("group")
    print(
        f"  {run.name:<13} {run.learners:>6} {'members ' if grouped else 'learners'}  "
        f"{run.answers:>6} answers  "
        f"{run.rate:8.1f} answers/s  p50 {run.percentile(0.5):7.1f} ms  "
        f"p99 {run.percentile(0.99):7.1f} ms  {run.api_calls / max(run.answers, 1):4.2f} calls/answer  "
        f"cpu {100 * run.cpu_seconds / run.seconds:3.0f}% "
        f"({1000 * run.cpu_seconds / max(run.answers, 1):.2f} ms/answer"
        + (
            f", toaster {100 * run.toaster_cpu_seconds / run.seconds:.0f}% "
            f"{1000 * run.toaster_cpu_seconds / max(run.answers, 1):.2f} ms"
            if run.toaster_cpu_seconds
            else ""
        )
        + ") "
        f"(driver {100 * run.driver_cpu_seconds / run.seconds:3.0f}%)  peak {run.peak_kib / 1024:6.1f} MiB"
        + (f"  db {run.db_bytes / 1024:7.1f} KiB" if run.db_bytes else "")
        + (f"  {run.too_late} answered too late" if grouped else "")
        + check,
        flush=True,
    )


def _median_line(label: str, runs: list[Run]) -> str:
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else 0.0

    return (
        f"== {label}: median of {len(runs)}: {median([r.rate for r in runs]):.0f} answers/s, "
        f"p50 {median([r.percentile(0.5) for r in runs]) / 1000:.2f} s, "
        f"p99 {median([r.percentile(0.99) for r in runs]) / 1000:.2f} s, "
        f"cpu {median([1000 * r.cpu_seconds / max(r.answers, 1) for r in runs]):.2f} ms/answer "
        f"(toaster {median([1000 * r.toaster_cpu_seconds / max(r.answers, 1) for r in runs]):.2f}), "
        f"peak {median([r.peak_kib for r in runs]) / 1024:.0f} MiB, "
        f"too late {median([r.too_late for r in runs]):.0f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.run")
    parser.add_argument("--learners", default="100,1000", help="comma-separated sizes (0: none)")
    parser.add_argument("--answers", type=int, default=8, help="answers per learner (max 8)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="times each learner takes the quiz (default 3)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per size; medians printed")
    parser.add_argument(
        "--with-limit", action="store_true", help="also run the bot with the 30 messages/s limit"
    )
    parser.add_argument(
        "--group", default="1000", help="comma-separated sizes of the group (0: none)"
    )
    parser.add_argument(
        "--group-spread",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="the members' taps spread evenly over this long (default: all at once)",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="the group runs also with updates POSTed to the bot's webhook",
    )
    parser.add_argument(
        "--group-learners",
        action="store_true",
        help="each group size runs again with every member a learner (their answers review cards)",
    )
    parser.add_argument(
        "--toast-process",
        choices=("auto", "on", "off"),
        help="QUIZ_TOAST_PROCESS for the group runs (default: the bot's, auto)",
    )
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores", flush=True)
    floor_aio: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        for learners in (int(n) for n in args.learners.split(",") if int(n)):
            ratios: dict[str, list[float]] = {"floor": [], "floor-aio": []}
            for attempt in range(args.repeat):
                print(f"{learners} learners, run {attempt + 1}:", flush=True)
                folder = workdir / str(attempt)
                folder.mkdir(exist_ok=True)
                ours = await measure("quiz", learners, args.answers, folder, args.rounds)
                _print(ours)
                for floor_name, floor_ratios in ratios.items():
                    floor = await measure(floor_name, learners, args.answers, folder, args.rounds)
                    _print(floor)
                    floor_ratios.append(ours.rate / floor.rate if floor.rate else 0.0)
                    if floor_name == "floor-aio":
                        floor_aio.append(floor.rate)
                if args.with_limit:
                    _print(await measure("quiz-30", learners, args.answers, folder, args.rounds))
            for floor_name, label in (
                ("floor", "bare PTB (httpx)"),
                ("floor-aio", "bare PTB on our aiohttp transport"),
            ):
                print(
                    f"== {learners} learners: throughput {statistics.median(ratios[floor_name]):.2f}"
                    f" of the floor, {label} (median of {args.repeat}: "
                    f"{', '.join(f'{r:.2f}' for r in ratios[floor_name])})",
                    flush=True,
                )
        modes = (False, True) if args.webhook else (False,)
        for members in (int(n) for n in args.group.split(",") if int(n)):
            how = f"spread over {args.group_spread:g} s" if args.group_spread else "all at once"
            kinds = (False, True) if args.group_learners else (False,)
            for webhook, learners in itertools.product(modes, kinds):
                mode = ("webhook" if webhook else "polling") + (", learners" if learners else "")
                runs = []
                for attempt in range(args.repeat):
                    print(f"a group of {members} members tapping {how} ({mode}), "
                          f"run {attempt + 1}:", flush=True)  # fmt: skip
                    folder = workdir / f"group-{attempt}"
                    folder.mkdir(exist_ok=True)
                    runs.append(
                        await measure_group(
                            members,
                            folder,
                            args.group_spread,
                            webhook,
                            learners=learners,
                            toast_process=args.toast_process,
                        )
                    )
                    _print(runs[-1])
                line = _median_line(f"{members} members {how}, {mode}", runs)
                if floor_aio:
                    ratio = statistics.median(r.rate for r in runs) / statistics.median(floor_aio)
                    line += f", {ratio:.2f} x the floor-aio private answers/s"
                print(line, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
