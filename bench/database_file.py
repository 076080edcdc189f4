"""What database file safety costs: the identity check per commit, the check at start, and an
online backup's effect on the bot's writes.

    python -m bench.database_file                   # 1,000,000 answers
    python -m bench.database_file --answers 200000

Builds a database with the bot's schema and N answers (5,000 learners), then prints:
- the identity check (two `stat` calls) against the commit it guards, one answer per commit and
  50 answers per commit, with `synchronous=FULL` as the bot runs;
- the start-up check (`quick_check` on a read-only connection) on that database;
- `python -m storage backup` run beside a writer that records one answer after another: the
  backup's duration and size, and the writer's per-answer latency (median, p99, worst) while it
  ran, against the same writer with no backup.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

from storage import Storage
from storage.database_file import FileWatch, claim_database

LEARNERS = 5_000
QUESTIONS = 50


async def build(path: Path, answers: int) -> None:
    storage = await Storage.open(path)
    await storage.close()
    per_learner = max(1, answers // LEARNERS)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO users (user_id, first_name, created_at, updated_at) VALUES (?, 'x', 0, 0)",
            [(user,) for user in range(1, LEARNERS + 1)],
        )
        questions = json.dumps([f"q{n}" for n in range(per_learner)])
        for user in range(1, LEARNERS + 1):
            attempt = db.execute(
                """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                       finished_at, score) VALUES (?, 'bench', ?, ?, 0, 1, 0) RETURNING id""",
                (user, questions, per_learner),
            ).fetchone()[0]
            db.executemany(
                """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                       correct, answered_at) VALUES (?, ?, 'bench', ?, 0, 1, ?)""",
                [(attempt, user, f"q{n}", float(n)) for n in range(per_learner)],
            )
        db.execute("COMMIT")


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, "
        f"worst {ordered[-1] * 1e3:.2f} ms ({len(ordered)} answers)"
    )


async def commit_costs(path: Path) -> None:
    storage = await Storage.open(path)
    try:
        watch = FileWatch(path.resolve())
        calls = 100_000
        stat_us = timeit.timeit(watch.problem, number=calls) / calls * 1e6
        await storage.learners.touch_user(LEARNERS + 1, "b", "en", 0)
        attempt = await storage.learners.start_attempt(
            LEARNERS + 1, "costs", tuple(f"q{n}" for n in range(400)), 0
        )
        start = time.perf_counter()
        for n in range(300):
            await storage.learners.record_answer(attempt, f"q{n}", 0, True, n)
        one = (time.perf_counter() - start) / 300
        attempts = []
        for user in range(LEARNERS + 2, LEARNERS + 52):
            await storage.learners.touch_user(user, "b", "en", 0)
            attempts.append(
                await storage.learners.start_attempt(
                    user, "costs", tuple(f"q{n}" for n in range(40)), 0
                )
            )
        start = time.perf_counter()
        for n in range(30):
            await asyncio.gather(
                *(storage.learners.record_answer(a, f"q{n}", 0, True, n) for a in attempts)
            )
        fifty = (time.perf_counter() - start) / 30
    finally:
        await storage.close()
    print(f"identity check (2 stats): {stat_us:.1f} us per commit")
    print(f"  commit of 1 answer:  {one * 1e3:.2f} ms -> check is {stat_us / (one * 1e6):.1%}")
    print(f"  commit of 50 answers: {fifty * 1e3:.2f} ms -> check is {stat_us / (fifty * 1e6):.2%}")


async def write_while(path: Path, seconds: float | None, command: list[str] | None) -> list[float]:
    """Record answers one after another until `command` exits (or for `seconds`); latencies."""
    storage = await Storage.open(path)
    latencies: list[float] = []
    try:
        user = LEARNERS + 100 + (0 if command is None else 1)
        await storage.learners.touch_user(user, "w", "en", 0)
        attempt = await storage.learners.start_attempt(
            user, f"writer-{user}", tuple(f"q{n}" for n in range(100_000)), 0
        )
        process = None
        if command is not None:
            process = await asyncio.create_subprocess_exec(*command)
        deadline = time.perf_counter() + (seconds or 0)
        n = 0
        while (process is not None and process.returncode is None) or (
            process is None and time.perf_counter() < deadline
        ):
            start = time.perf_counter()
            await storage.learners.record_answer(attempt, f"q{n}", 0, True, n)
            latencies.append(time.perf_counter() - start)
            n += 1
            if process is not None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), 0)
        if process is not None:
            assert await process.wait() == 0
    finally:
        await storage.close()
    return latencies


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.sqlite3"
        start = time.perf_counter()
        await build(path, args.answers)
        size = path.stat().st_size
        print(f"database: {args.answers:,} answers, {size / 1e6:.0f} MB "
              f"(built in {time.perf_counter() - start:.0f} s)")  # fmt: skip
        await commit_costs(path)

        start = time.perf_counter()
        claimed = claim_database(path)
        print(
            f"start-up check (lock + quick_check, read only): {time.perf_counter() - start:.2f} s"
        )
        claimed.lock.release()

        alone = await write_while(path, 3.0, None)
        print(f"writer alone:         {ms(alone)}")
        dest = Path(folder) / "backup.sqlite3"
        command = [sys.executable, "-m", "storage", "backup", str(dest), "--db", str(path)]
        start = time.perf_counter()
        during = await write_while(path, None, command)
        took = time.perf_counter() - start
        print(f"writer during backup: {ms(during)}")
        print(f"backup: {took:.2f} s for {dest.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    asyncio.run(main())
