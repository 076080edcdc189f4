"""Query benchmark: the leaderboard and progress reads on a large database.

    python -m bench.queries                       # 200 group sessions x 500 members, 5,000 learners
    python -m bench.queries --sessions 50 --members 100 --learners 1000

Builds a database with the bot's own schema (through `Storage.open`), fills it with
synthetic history, then times the reads behind /leaderboard and /progress through the
storage: median of --repeat runs, in milliseconds. The leaderboard is timed again with its
index dropped, in the same run, so the index's effect is a ratio measured side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from storage import Storage

QUESTIONS = 8
CHATS = 20


def _fill(path: Path, sessions: int, members: int, learners: int) -> int:
    """Synthetic history: group sessions in CHATS chats, and learners with finished attempts,
    answers and cards. Returns the number of rows written."""
    db = sqlite3.connect(path)
    written = 0
    with db:
        for session in range(1, sessions + 1):
            chat = -(session % CHATS) - 1
            db.execute(
                """INSERT INTO group_sessions (id, chat_id, chat_type, quiz_id, question_ids,
                       seconds, mode, language, started_at, finished_at, position)
                   VALUES (?, ?, 'group', 'q', '[]', 30, 'buttons', 'en', ?, ?, ?)""",
                (session, chat, session * 1000.0, session * 1000.0 + 500, QUESTIONS),
            )
            rows = [
                (session, position, str(position), member + 10_000 * (session % CHATS),
                 f"member {member}", member % 4, int(member % 4 == 0), 5.0, 750,
                 session * 1000.0 + position)
                for position in range(QUESTIONS)
                for member in range(members)
            ]  # fmt: skip
            db.executemany(
                """INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                       chosen, correct, elapsed, points, answered_at)
                   VALUES (?,?,?,?,?,?,?,?,?,?)""",
                rows,
            )
            written += len(rows)
        order = json.dumps([str(q) for q in range(QUESTIONS)])
        for learner in range(1, learners + 1):
            db.execute(
                "INSERT INTO users (user_id, first_name, created_at, updated_at) VALUES (?,?,?,?)",
                (learner, f"learner {learner}", 0.0, 0.0),
            )
            for attempt in range(3):
                at = 86_400.0 * attempt + learner
                cursor = db.execute(
                    """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                           finished_at, score, kind) VALUES (?, 'q', ?, ?, ?, ?, 5, 'quiz')""",
                    (learner, order, QUESTIONS, at, at + 100),
                )
                db.executemany(
                    """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                           correct, answered_at) VALUES (?, ?, 'q', ?, 0, ?, ?)""",
                    [
                        (cursor.lastrowid, learner, str(q), int(q % 3 != 0), at + q)
                        for q in range(QUESTIONS)
                    ],
                )
                written += QUESTIONS
            db.executemany(
                """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
                   VALUES (?, 'q', ?, '{}', ?, ?)""",
                [(learner, str(q), 200_000.0 + q, 172_800.0) for q in range(QUESTIONS)],
            )
    db.close()
    return written


async def _median_ms(
    read: Callable[[Storage], Awaitable[Any]], storage: Storage, repeat: int
) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await read(storage)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.queries")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--learners", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "queries.sqlite3"
        storage = await Storage.open(path)
        await storage.close()
        rows = _fill(path, args.sessions, args.members, args.learners)
        size = sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20
        print(f"{rows:,} answers in the database ({size:.0f} MiB)", flush=True)
        storage = await Storage.open(path)
        learner = args.learners // 2
        reads: list[tuple[str, Callable[[Storage], Awaitable[Any]]]] = [
            ("leaderboard of one session", lambda r: r.groups.session_scores(5)),
            ("all-time leaderboard of a chat", lambda r: r.groups.chat_scores(-6)),
            ("progress: quiz records", lambda r: r.learners.quiz_records(learner)),
            ("progress: days studied", lambda r: r.learners.study_days(learner, 0)),
            ("progress: due cards", lambda r: r.learners.due_cards(learner, 300_000.0)),
            ("review: next due", lambda r: r.learners.next_due(learner, 0.0)),
        ]
        try:
            timed = {name: await _median_ms(read, storage, args.repeat) for name, read in reads}
        finally:
            await storage.close()
        with sqlite3.connect(path) as db:
            db.execute("DROP INDEX group_answers_by_user")
        storage = await Storage.open(path)  # the schema is current: the index stays dropped
        try:
            without = {
                name: await _median_ms(read, storage, max(1, args.repeat // 5))
                for name, read in reads[:2]
            }
        finally:
            await storage.close()
    for name, ms in timed.items():
        line = f"  {name:<32} {ms:9.2f} ms"
        if name in without:
            line += f"   without group_answers_by_user: {without[name]:9.1f} ms"
            line += f" ({without[name] / ms:,.0f}x)"
        print(line, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
