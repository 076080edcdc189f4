"""Every read a command makes, timed on a year of data (bench/year.py), through the bot's own
stores.

    python -m bench.queries                          # scale 1: 5,000,000 private answers
    python -m bench.queries --scale 1,0.1,0.01       # the curve
    python -m bench.queries --before main --repeat 3 # the same reads by main's stores, interleaved
    python -m bench.queries --json                   # one JSON object per scale

Each run copies the cached year (at the schema its rows were written for), opens it with the
bot's `Storage` (which brings it up to this version's schema: the upgrade is timed too) and
calls the stores' methods the way each command calls them, in a process of its own: `--before
REV` runs the same reads with the `storage/` and `bot/` packages of git revision REV on its own
copy, one process after the other, `--repeat` times, and every figure is the median of the
runs. A read
is timed over samples (learners drawn by how much they use the bot, always with the heaviest;
sessions and chats of every size, always with the largest): p50 and p99 over the samples,
and the longest the event loop went without a turn while it ran (`loop_ms`, from a task that
asks for a turn every 2 ms). Writes (/forgetme, prune) run last; prune runs as `--dry-run`
(the same work, rolled back). A write the older code cannot finish within `--budget` seconds
is stopped and reported as taking longer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOW_OFFSET_DAYS = 0

# reads whose p99 must stay under 50 ms; the others under 1 s (the targets, printed beside)
INTERACTIVE = 50.0
HEAVY = 1000.0
STALL = 50.0
SLOW = 5.0  # seconds: a read this slow is timed once


# the reads, as each command makes them


@dataclass(frozen=True)
class Read:
    name: str
    target_ms: float
    samples: Callable[[Any], Sequence[Any]]  # the year -> the targets of the samples
    call: Callable[[Any, Any, Any], Awaitable[Any]]  # (storage, year, target)
    write: bool = False


def _learners(year: Any, n: int = 30) -> list[int]:
    """The heaviest learners, then learners drawn by how many answers they gave."""
    rng = random.Random(7)
    heavy = sorted(year.learner_answers, key=lambda u: -year.learner_answers[u])[:3]
    users = list(year.learner_answers)
    weights = [year.learner_answers[u] for u in users]
    return heavy + rng.choices(users, weights, k=n - len(heavy))


def _sessions(year: Any, n: int = 20) -> list[int]:
    """Timed sessions of every size, the report session (the largest) first."""
    ordered = sorted(year.session_sizes, key=lambda s: year.session_sizes[s])
    step = max(1, len(ordered) // (n - 1))
    return [year.report_session, *ordered[::step][: n - 1]]


def _chats(year: Any, n: int = 20) -> list[int]:
    ordered = sorted(year.chat_sizes, key=lambda c: year.chat_sizes[c])
    step = max(1, len(ordered) // (n - 1))
    return [year.largest_chat, *ordered[::step][: n - 1]]


def _largest_homework(year: Any) -> list[int]:
    return [max(year.homework_takers, key=lambda a: year.homework_takers[a])] * 3


def _now(year: Any) -> float:
    from bench.year import NOW

    return NOW


async def _progress(storage: Any, year: Any, user: int) -> None:
    """What /progress reads (bot/learner/flow.py: standing, quiz_records)."""
    learners, now = storage.learners, _now(year)
    await learners.study_days(user, 3600)
    await learners.count_due(user, now)
    await learners.count_due(user, now + 86_400)
    records = await learners.quiz_records(user)
    for quiz_id, record in records.items():
        if record.running_answered is not None:
            attempt = await learners.running_attempt(user, quiz_id)
            if attempt is not None:
                await learners.answers(attempt.id)
    cards = await learners.cards(user)
    await _latest_of_every_quiz(learners, user, {card.quiz_id for card in cards} | set(records))
    await learners.count_reviews(user, now - 86_400)
    await learners.review_counts(user, now - 30 * 86_400)


async def _latest_answers(storage: Any, year: Any, user: int) -> None:
    """latest_answers of every quiz the learner touched, as /progress asks it."""
    learners = storage.learners
    records = await learners.quiz_records(user)
    cards = await learners.cards(user)
    await _latest_of_every_quiz(learners, user, {card.quiz_id for card in cards} | set(records))


async def _latest_of_every_quiz(learners: Any, user: int, quizzes: set[str]) -> None:
    """In one statement where the stores have it, else one per quiz (as before)."""
    if hasattr(learners, "latest_answers_by_quiz"):
        await learners.latest_answers_by_quiz(user)
        return
    for quiz_id in quizzes:
        await learners.latest_answers(user, quiz_id)


async def _review(storage: Any, year: Any, user: int) -> None:
    """What /review reads before it asks (bot/learner/flow.py: open_review)."""
    from storage import REVIEW_QUIZ_ID

    now = _now(year)
    if await storage.learners.running_attempt(
        user, REVIEW_QUIZ_ID
    ) is None and not await storage.learners.due_cards(user, now):
        await storage.learners.due_cards(user, now + 3 * 86_400)  # the offer to review ahead
        await storage.learners.lapsed_cards(user, now - 7 * 86_400)  # and what was forgotten
        await storage.learners.next_due(user, now)


async def _stats(storage: Any, year: Any, _: Any) -> None:
    """What /stats reads (bot/admin/flow.py: stats, bot/admin/charts.py)."""
    content = storage.content
    await content.learner_count()
    await content.quiz_totals()
    await content.question_stats()
    await content.retired()
    await content.wrong_replies()
    await content.questions_with_credit()
    await content.question_stats()  # the chart


async def _session_report(storage: Any, year: Any, session: int) -> None:
    """What /report of a group session reads (bot/reports/flow.py: session_report)."""
    await storage.reports.asked_positions(session)
    await storage.groups.session_scores(session)
    await storage.reports.session_answers(session)


async def _homework_results(storage: Any, year: Any, assignment: int) -> None:
    """What homework results read at the deadline (bot/homework/flow.py: close, report)."""
    takers = await storage.homework.takers(assignment)
    await storage.reports.attempts([t.attempt_id for t in takers])


async def _start_reads(storage: Any, year: Any, _: Any) -> None:
    """What the features read at start (bot/*/__init__.py: start) and the first sweeps."""
    await storage.content.banks()
    await storage.content.schedules()
    await storage.groups.running_sessions()
    await storage.homework.open_assignments()
    await storage.learners.users_with_reminders()
    await storage.privacy.release_held(_now(year))


# whole commands, through the bot's own flows and renderers (rendering and charts included)

_SERVICES: dict[int, Any] = {}


def _services(storage: Any, year: Any) -> Any:
    """The bot's services on this storage, with a catalog of the year's quizzes."""
    if id(storage) not in _SERVICES:
        from bench.year import bank_yaml
        from bot.config import Settings
        from bot.core.context import Services
        from content.catalog import Catalog
        from content.loader import parse_bank

        quizzes = []
        for quiz_id, questions in year.quizzes.items():
            result = parse_bank(bank_yaml(quiz_id, questions), quiz_id, "en")
            assert result.quiz is not None, result.errors
            quizzes.append(result.quiz)
        now = _now(year)
        _SERVICES.clear()
        _SERVICES[id(storage)] = Services(
            Settings(token="1:bench"), storage, Catalog(quizzes, "en"), clock=lambda: now
        )
        gc.collect()  # as the bot does once started (bot/app.py)
        gc.freeze()
    return _SERVICES[id(storage)]


def _locale() -> Any:
    from bot.core.i18n import Locale

    return Locale("en", "en")


async def _progress_command(storage: Any, year: Any, user_id: int) -> None:
    from bot.learner import charts, flow, render

    services = _services(storage, year)
    learner = await storage.learners.get_user(user_id)
    standing = await flow.standing(services, learner)
    render.progress_message(
        list(services.catalog), standing.records, standing.mastery, standing.overview, _locale()
    )
    await charts.progress_chart(services, learner, standing.mastery, _locale())


async def _stats_command(storage: Any, year: Any, _: Any) -> None:
    from bot.admin import charts, flow

    services = _services(storage, year)
    await flow.stats(services, _locale())
    await charts.stats_chart(services, _locale())


async def _report_command(storage: Any, year: Any, session_id: int) -> None:
    from bot.reports import flow

    services = _services(storage, year)
    session = await storage.groups.get_session(session_id)
    await flow.session_report(services, session, _locale())


async def _quiz_report_command(storage: Any, year: Any, quiz_id: str) -> None:
    from bot.reports import flow

    services = _services(storage, year)
    await flow.quiz_report(services, services.catalog.get(quiz_id), "csv", _locale())


async def _homework_command(storage: Any, year: Any, assignment_id: int) -> None:
    from bot.homework import flow, render

    services = _services(storage, year)
    assignment = await storage.homework.get(assignment_id)
    quiz = services.catalog.get(assignment.quiz_id)
    takers = await storage.homework.takers(assignment_id)
    render.results(quiz, assignment, takers, _locale())
    await flow.report(services, assignment, _locale())


async def _dashboard_grid(storage: Any, year: Any, session_id: int) -> None:
    """The dashboard's grid of a group session (bot/dashboard/views.py)."""
    from bot.dashboard import views

    session = await storage.groups.get_session(session_id)
    await views.session_grid(_services(storage, year), session, _locale())


async def _dashboard_class(storage: Any, year: Any, chat_id: int) -> None:
    """The dashboard's page of a class: its homework and quizzes, and its weeks."""
    from bot.dashboard import views

    services = _services(storage, year)
    await views.class_overview(services, chat_id, _locale())
    await views.weekly(services, chat_id, _now(year), _locale())


# writes: what the summaries' triggers cost the answers (a burst in a group, and in private)

GROUP_BURST = 1_000
PRIVATE_BURST = 100


async def _group_burst(storage: Any, year: Any, n: int) -> None:
    """A new session in a chat of its own; GROUP_BURST members answer its question at once."""
    now = _now(year) + 3600 * (n + 1)
    session = await storage.groups.start_session(
        chat_id=-42_000_000 - n, chat_type="supergroup", quiz_id=year.popular_quiz,
        question_ids=("q1",), seconds=30, mode="buttons", language="en", started_by=None,
        now=now,
    )  # fmt: skip
    await storage.groups.question_asked(session.id, 0, "q1", 1, None, now, now + 30)
    await asyncio.gather(
        *(
            storage.groups.record_answer(
                session_id=session.id,
                position=0,
                question_id="q1",
                user_id=member,
                name=f"Member{member}",
                chosen=member % 4,
                correct=member % 4 == 0,
                elapsed=1.0,
                points=900,
                now=now + 1,
            )
            for member in range(1, GROUP_BURST + 1)
        )
    )


async def _private_burst(storage: Any, year: Any, n: int) -> None:
    """PRIVATE_BURST learners, each with a new attempt, answer its first question at once."""
    from storage import CardReview

    now = _now(year) + 3600 * (n + 1)
    learners = range(10_000_000 + n * PRIVATE_BURST, 10_000_000 + (n + 1) * PRIVATE_BURST)
    attempts = []
    for user in learners:
        await storage.learners.touch_user(user, f"Learner{user}", "en", now)
        attempts.append(await storage.learners.start_attempt(user, year.popular_quiz, ("q1",), now))
    await asyncio.gather(
        *(
            storage.learners.record_answer(
                attempt, "q1", 0, True, now + 1, card=CardReview(True, 5.0)
            )
            for attempt in attempts
        )
    )


def _heavy(year: Any) -> list[int]:
    return sorted(
        u for u, n in year.learner_answers.items() if n == max(year.learner_answers.values())
    )


READS: tuple[Read, ...] = (
    Read("progress: days studied", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.study_days(u, 3600)),
    Read("progress: reviews due", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.count_due(u, _now(y))),
    Read("progress: quiz records", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.quiz_records(u)),
    Read("progress: cards", INTERACTIVE, _learners, lambda s, y, u: s.learners.cards(u)),
    Read("progress: latest answers, every quiz", INTERACTIVE, _learners, _latest_answers),
    Read("progress: chart of days", INTERACTIVE, _learners,
         lambda s, y, u: s.reports.daily_answers(u, _now(y) - 30 * 86_400, 3600)),
    Read("progress: today's reviews", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.count_reviews(u, _now(y) - 86_400)),
    Read("progress: true retention (30 days)", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.review_counts(u, _now(y) - 30 * 86_400)),
    Read("progress: whole command", INTERACTIVE, _learners, _progress),
    Read("review: due cards", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.due_cards(u, _now(y))),
    Read("review: next due", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.next_due(u, _now(y))),
    Read("review: ahead (due within 3 days)", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.due_cards(u, _now(y) + 3 * 86_400)),
    Read("review: forgotten lately", INTERACTIVE, _learners,
         lambda s, y, u: s.learners.lapsed_cards(u, _now(y) - 7 * 86_400)),
    Read("review: whole command", INTERACTIVE, _learners, _review),
    Read("leaderboard: one session", INTERACTIVE, _sessions,
         lambda s, y, session: s.groups.session_scores(session)),
    Read("leaderboard: chat, all time", INTERACTIVE, _chats,
         lambda s, y, chat: s.groups.chat_scores(chat)),
    Read("group language: members' languages", INTERACTIVE, _chats,
         lambda s, y, chat: s.groups.member_languages(chat)),
    Read("stats: learners", HEAVY, lambda y: [None] * 3, lambda s, y, _: s.content.learner_count()),
    Read("stats: quiz totals", HEAVY, lambda y: [None] * 3, lambda s, y, _: s.content.quiz_totals()),
    Read("stats: questions", HEAVY, lambda y: [None] * 3,
         lambda s, y, _: s.content.question_stats()),
    Read("stats: wrong replies", HEAVY, lambda y: [None] * 3,
         lambda s, y, _: s.content.wrong_replies()),
    Read("stats: partial credit", HEAVY, lambda y: [None] * 3,
         lambda s, y, _: s.content.questions_with_credit()),
    Read("stats: whole command", HEAVY, lambda y: [None] * 3, _stats),
    Read("report: group session scores", HEAVY, lambda y: [y.report_session] * 3,
         lambda s, y, session: s.groups.session_scores(session)),
    Read("report: group session answers", HEAVY, lambda y: [y.report_session] * 3,
         lambda s, y, session: s.reports.session_answers(session)),
    Read("report: group session, whole command", HEAVY, lambda y: [y.report_session] * 3,
         _session_report),
    Read("report: a quiz's latest attempts", HEAVY, lambda y: [y.popular_quiz] * 3,
         lambda s, y, quiz: s.reports.latest_attempts(quiz)),
    Read("report: the quiz's leeches", HEAVY, lambda y: [y.popular_quiz] * 3,
         lambda s, y, quiz: s.learners.leeches(quiz, 8)),
    Read("homework: takers", HEAVY, _largest_homework,
         lambda s, y, a: s.homework.takers(a)),
    Read("homework: results, whole", HEAVY, _largest_homework, _homework_results),
    Read("command: /progress (flow, text, chart)", INTERACTIVE, _learners, _progress_command),
    Read("command: /stats (text, chart)", HEAVY, lambda y: [None] * 3, _stats_command),
    Read("command: /report of the largest session", HEAVY, lambda y: [y.report_session] * 3,
         _report_command),
    Read("command: /report of the most answered quiz", HEAVY, lambda y: [y.popular_quiz] * 3,
         _quiz_report_command),
    Read("command: homework results and report", HEAVY, _largest_homework, _homework_command),
    Read("dashboard: a class (homework, quizzes, weeks)", INTERACTIVE, _chats, _dashboard_class),
    Read("dashboard: grid of the largest session", HEAVY, lambda y: [y.report_session] * 3,
         _dashboard_grid),
    Read("start-up: what the features read", HEAVY, lambda y: [None] * 3, _start_reads),
    Read(f"write: {GROUP_BURST:,} members answer a question at once", HEAVY,
         lambda y: [0, 1, 2, 3, 4], _group_burst, write=True),
    Read(f"write: {PRIVATE_BURST} learners answer at once (private)", HEAVY,
         lambda y: [0, 1, 2, 3, 4], _private_burst, write=True),
    Read("prune: learners inactive 90 days (dry run)", HEAVY * 60, lambda y: [None] * 2,
         lambda s, y, _: s.privacy.prune_inactive(_now(y) - 90 * 86_400, _now(y), dry_run=True),
         write=True),
    Read("/forgetme: a learner with 5,000 answers", HEAVY, _heavy,
         lambda s, y, u: s.privacy.forget_learner(u, _now(y)), write=True),
)  # fmt: skip


# measuring, in the process of one side


class LoopWatch:
    """The longest the event loop went without a turn while it runs (a task asks for one
    every `every` seconds)."""

    def __init__(self, every: float = 0.002) -> None:
        self.every = every
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(self.every)
            self.worst = max(self.worst, time.perf_counter() - asked - self.every)

    def __enter__(self) -> LoopWatch:
        self.worst = 0.0
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


class OverBudget(Exception):
    pass


async def _timed(storage: Any, year: Any, read: Read, budget: float) -> dict[str, Any]:
    times = []
    stalls = []
    stopped = False
    targets = read.samples(year)
    if not read.write:  # once untimed: the first chart loads matplotlib's fonts, and so on
        started = time.perf_counter()
        await read.call(storage, year, targets[0])
        if time.perf_counter() - started > SLOW:  # one sample is enough to say it is slow
            targets = targets[:1]
    for target in targets:
        deadline = time.perf_counter() + budget

        def past(deadline: float = deadline) -> int:
            return int(time.perf_counter() > deadline)

        await storage.database.connection.set_progress_handler(past, 100_000)
        try:
            with LoopWatch() as watch:
                await asyncio.sleep(0.004)  # the watch's first turns
                started = time.perf_counter()
                try:
                    await read.call(storage, year, target)
                finally:
                    took = time.perf_counter() - started
        except Exception as error:
            if time.perf_counter() < deadline:
                raise
            print(f"  {read.name}: stopped after {budget:g} s ({type(error).__name__})",
                  file=sys.stderr)  # fmt: skip
            times.append(took)
            stopped = True
            break
        finally:
            await storage.database.connection.set_progress_handler(None, 0)
        times.append(took)
        stalls.append(watch.worst)
    result = {
        "p50_ms": round(percentile(times, 0.5) * 1e3, 2),
        "p99_ms": round(percentile(times, 0.99) * 1e3, 2),
        "loop_ms": round(max(stalls, default=0.0) * 1e3, 1),
        "samples": len(times),
    }
    if stopped:
        result["stopped"] = True
    return result


async def _backup(path: Path, work: Path) -> dict[str, Any]:
    """`python -m storage backup`, as an operator runs it, beside the bot writing answers:
    its duration, the writes' latency during it (and alone), the loop's worst stall."""
    from storage import Storage

    storage = await Storage.open(path)
    latencies: dict[str, list[float]] = {"alone": [], "during": []}
    try:
        user = 999_999_999
        await storage.learners.touch_user(user, "writer", "en", 0)
        attempt = await storage.learners.start_attempt(
            user, "bench-writer", tuple(f"q{n}" for n in range(1_000_000)), 0
        )
        n = 0

        async def write(until: Callable[[], bool], into: list[float]) -> None:
            nonlocal n
            while not until():
                started = time.perf_counter()
                await storage.learners.record_answer(attempt, f"q{n}", 0, True, n)
                into.append(time.perf_counter() - started)
                n += 1

        alone_until = time.perf_counter() + 2.0
        await write(lambda: time.perf_counter() > alone_until, latencies["alone"])
        dest = work / "backup.sqlite3"
        command = [sys.executable, "-m", "storage", "backup", str(dest), "--db", str(path)]
        started = time.perf_counter()
        with LoopWatch() as watch:
            process = await asyncio.create_subprocess_exec(
                *command, stdout=asyncio.subprocess.DEVNULL, cwd=ROOT
            )
            await write(lambda: process.returncode is not None, latencies["during"])
            code = await process.wait()
        took = time.perf_counter() - started
        if code != 0:
            raise RuntimeError(f"backup failed: exit code {code}")
        size = dest.stat().st_size
        dest.unlink()
    finally:
        await storage.close()
    return {
        "seconds": round(took, 1),
        "bytes": size,
        "loop_ms": round(watch.worst * 1e3, 1),
        "write_alone_p50_ms": round(percentile(latencies["alone"], 0.5) * 1e3, 2),
        "write_alone_p99_ms": round(percentile(latencies["alone"], 0.99) * 1e3, 2),
        "write_during_p50_ms": round(percentile(latencies["during"], 0.5) * 1e3, 2),
        "write_during_p99_ms": round(percentile(latencies["during"], 0.99) * 1e3, 2),
        "write_during_worst_ms": round(max(latencies["during"]) * 1e3, 1),
    }


async def _start_up(path: Path, times: int = 3) -> dict[str, Any]:
    """Opening the database as the bot does at start: its lock and check (`quick_check`),
    the connection, the migrations check."""
    from storage import Storage
    from storage.database_file import claim_database

    checks, opens = [], []
    for _ in range(times):
        started = time.perf_counter()
        claimed = await asyncio.to_thread(claim_database, path)
        checked = time.perf_counter()
        storage = await Storage.open(path, claimed=claimed)
        opened = time.perf_counter()
        await storage.close()
        checks.append(checked - started)
        opens.append(opened - started)
    return {
        "p50_ms": round(percentile(opens, 0.5) * 1e3, 1),
        "p99_ms": round(percentile(opens, 0.99) * 1e3, 1),
        "check_p50_ms": round(percentile(checks, 0.5) * 1e3, 1),
    }


def _sizes(path: Path, answers: int) -> dict[str, Any]:
    """Bytes per table and index (dbstat), and per stored answer."""
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        objects = dict(
            db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")
        )
        kinds = dict(db.execute("SELECT name, tbl_name FROM sqlite_master"))
    return {"objects": objects, "tables": kinds, "answers": answers}


async def measure(
    path: Path, manifest: Path, side: str, work: Path, budget: float, only: str | None, backup: bool
) -> dict:
    from bench.year import Built
    from storage import Storage

    year = Built.from_manifest(path, json.loads(manifest.read_text()))
    started = time.perf_counter()
    storage = await Storage.open(path)
    upgrade = time.perf_counter() - started
    version = await storage.database.schema_version()
    await storage.close()
    result: dict[str, Any] = {"side": side, "schema": version, "upgrade_s": round(upgrade, 1)}
    with contextlib.closing(sqlite3.connect(path)) as db:
        private = db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        group = db.execute("SELECT COUNT(*) FROM group_answers").fetchone()[0]
        reviews = db.execute("SELECT COUNT(*) FROM review_log").fetchone()[0]
    result.update(private_answers=private, group_answers=group, reviews=reviews)
    result["answers"] = private + group
    result["db_bytes"] = sum(
        p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists()
    )
    result["sizes"] = _sizes(path, private + group)
    reads: dict[str, Any] = {}
    reads["start-up: open (lock, check, migrations)"] = await _start_up(path)
    storage = await Storage.open(path)
    try:
        _services(storage, year)  # the catalog loaded, as at the bot's start
        for read in sorted(READS, key=lambda r: r.write):
            if only is not None and not any(part in read.name for part in only.split(",")):
                continue
            print(f"  {side}: {read.name}", file=sys.stderr, flush=True)
            reads[read.name] = await _timed(storage, year, read, budget)
    finally:
        await storage.close()
    result["reads"] = reads
    result["backup"] = await _backup(path, work) if backup else {}
    return result


# the runs, side by side


def _storage_of(revision: str, into: Path, packages: Sequence[str] = ("storage", "bot")) -> Path:
    """The `storage/` and `bot/` packages (or these packages) of a git revision, unpacked
    under `into` (first on sys.path): the stores, and the flows and views that call them as
    that revision did."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", revision, *packages], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _run_side(
    built: Any, side: str, work: Path, storage_from: Path | None, options: list[str]
) -> dict[str, Any]:
    copy = work / f"{side}.sqlite3"
    for leftover in work.glob(f"{side}.sqlite3*"):
        leftover.unlink()
    shutil.copyfile(built.path, copy)
    manifest = work / "manifest.json"
    manifest.write_text(json.dumps(built.manifest()))
    out = work / f"{side}.json"
    env = dict(os.environ)
    paths = [str(ROOT)] if storage_from is None else [str(storage_from), str(ROOT)]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    try:
        subprocess.run(
            [sys.executable, "-m", "bench.queries", "--measure", str(copy), "--manifest",
             str(manifest), "--side", side, "--out", str(out), *options],
            cwd=work, env=env, check=True,
        )  # fmt: skip
        return json.loads(out.read_text())
    finally:
        for leftover in work.glob(f"{side}.sqlite3*"):
            leftover.unlink()


def _median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure the median of the runs."""
    first = runs[0]
    merged = dict(first)
    merged["reads"] = {}
    for name in first["reads"]:
        figures = [run["reads"][name] for run in runs if name in run["reads"]]
        merged["reads"][name] = {
            key: statistics.median(f[key] for f in figures)
            if isinstance(figures[0][key], (int, float)) and not isinstance(figures[0][key], bool)
            else figures[0][key]
            for key in figures[0]
        }
        if any(f.get("stopped") for f in figures):
            merged["reads"][name]["stopped"] = True
    merged["backup"] = {
        key: statistics.median(run["backup"][key] for run in runs) for key in first["backup"]
    }
    merged["upgrade_s"] = statistics.median(run["upgrade_s"] for run in runs)
    merged["runs"] = len(runs)
    return merged


def _figures(figures: dict[str, Any]) -> str:
    loop = figures.get("loop_ms")
    return f"{figures['p50_ms']:>9.1f} {figures['p99_ms']:>9.1f} " + (
        f"{loop:>7.1f}" if loop is not None else f"{'':>7}"
    )


def _print(scale: float, after: dict[str, Any], before: dict[str, Any] | None) -> None:
    answers = after["answers"]
    print(
        f"\nscale {scale:g}: {after['private_answers']:,} private answers, "
        f"{after['group_answers']:,} group answers, {after['reviews']:,} reviews; "
        f"{after['db_bytes'] / 2**20:,.0f} MiB, {after['db_bytes'] / answers:,.0f} bytes per "
        f"answer (schema {after['schema']}; upgrade from the year's schema "
        f"{after['upgrade_s']:g} s; median of {after['runs']} runs)"
    )
    head = f"  {'read':<46} {'p50':>9} {'p99':>9} {'loop':>7}"
    if before is not None:
        head += f"   {'before p50':>10} {'p99':>9} {'loop':>7}  (schema {before['schema']})"
    print(head)
    for name, figures in after["reads"].items():
        line = f"  {name:<46} {_figures(figures)}"
        if before is not None and name in before["reads"]:
            old = before["reads"][name]
            line += f"  {'>' if old.get('stopped') else ' '}{_figures(old)}"
        print(line)
    b = after["backup"]
    if b:
        print(
            f"  backup (python -m storage backup beside the bot writing): {b['seconds']:g} s, "
            f"{b['bytes'] / 2**20:,.0f} MiB; loop stall {b['loop_ms']:g} ms; an answer's write "
            f"p50/p99 {b['write_during_p50_ms']:g}/{b['write_during_p99_ms']:g} ms during it "
            f"(worst {b['write_during_worst_ms']:g}), {b['write_alone_p50_ms']:g}/"
            f"{b['write_alone_p99_ms']:g} ms alone"
        )
    sizes = after["sizes"]
    per = sizes["answers"]
    print(f"  bytes per stored answer, by table and index ({per:,} answers):")
    for name, size in sizes["objects"].items():
        if size / per >= 1:
            table = sizes["tables"].get(name, name)
            label = name if table == name else f"{name} (index of {table})"
            print(f"    {label:<58} {size / 2**20:>9,.1f} MiB {size / per:>7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.queries")
    parser.add_argument("--scale", default="1", help="comma-separated: 1,0.1,0.01")
    parser.add_argument("--repeat", type=int, default=1, help="runs per side; medians")
    parser.add_argument("--before", metavar="REV", help="also time REV's stores, interleaved")
    parser.add_argument(
        "--before-code",
        default="storage,bot",
        help="the packages taken from REV (comma-separated; default storage,bot: the stores, "
        "flows and views; storage,bot,content: the content package too)",
    )
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per write sample")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--save", type=Path, help="also write every run's figures here (JSON)")
    parser.add_argument(
        "--only", help="time only the reads whose name has one of these texts (comma-separated)"
    )
    parser.add_argument("--no-backup", action="store_true", help="leave the backup out")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--manifest", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--side", default="after", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        result = asyncio.run(
            measure(
                args.measure,
                args.manifest,
                args.side,
                args.measure.parent,
                args.budget,
                args.only,
                not args.no_backup,
            )
        )
        args.out.write_text(json.dumps(result))
        return

    from bench.year import year

    with tempfile.TemporaryDirectory(prefix="quiz-queries-") as folder:
        work = Path(folder)
        old = (
            _storage_of(args.before, work / "before-code", args.before_code.split(","))
            if args.before
            else None
        )
        for scale in (float(s) for s in args.scale.split(",")):
            built = year(scale)
            runs: dict[str, list[dict[str, Any]]] = {"after": [], "before": []}
            options = ["--budget", str(args.budget)]
            options += ["--only", args.only] if args.only else []
            options += ["--no-backup"] if args.no_backup else []
            for _ in range(args.repeat):
                if old is not None:
                    runs["before"].append(_run_side(built, "before", work, old, options))
                runs["after"].append(_run_side(built, "after", work, None, options))
            after = _median_of(runs["after"])
            before = _median_of(runs["before"]) if runs["before"] else None
            if args.save is not None:
                saved = json.loads(args.save.read_text()) if args.save.exists() else {}
                saved[f"{scale:g}"] = runs
                args.save.write_text(json.dumps(saved))
            if args.json:
                out = {
                    "scale": scale,
                    "answers": after["answers"],
                    "db_bytes": after["db_bytes"],
                    "reads": after["reads"],
                    "backup": after["backup"],
                    "sizes": after["sizes"]["objects"],
                }
                if before is not None:
                    out["before"] = {"reads": before["reads"], "db_bytes": before["db_bytes"]}
                print(json.dumps(out))
            else:
                _print(scale, after, before)


if __name__ == "__main__":
    main()
