"""What a read or a deletion costs must not grow with everyone else's data: counted in SQLite's
virtual machine steps (a progress handler), which do not depend on the machine's speed, with
the others' rows doubled."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from storage import CardReview, Storage

NOW = 1_767_000_000.0
ONE = 7  # the learner the operation is about
STEP = 100  # a progress handler call every this many virtual machine steps


def others(path: Path, learners: int, answers: int = 40) -> None:
    """`learners` other learners (ids from 1000), each with a finished attempt of `answers`
    answers, each answer reviewed, as the bot writes them."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        for user in range(1000, 1000 + learners):
            db.execute(
                "INSERT INTO users (user_id, first_name, created_at, updated_at) VALUES (?,?,?,?)",
                (user, f"name-{user}", NOW, NOW),
            )
            items = [f"q{n}" for n in range(answers)]
            attempt = db.execute(
                """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                       finished_at, score) VALUES (?, 'arith', ?, ?, ?, ?, 1) RETURNING id""",
                (user, json.dumps(items), answers, NOW, NOW + 1),
            ).fetchone()[0]
            for n, item in enumerate(items):
                answer = db.execute(
                    """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                           correct, answered_at) VALUES (?, ?, 'arith', ?, 0, 1, ?) RETURNING id""",
                    (attempt, user, item, NOW + n),
                ).fetchone()[0]
                db.execute(
                    """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
                           answer_id) VALUES (?, 'arith', ?, 3, ?, ?)""",
                    (user, item, NOW + n, answer),
                )
        db.execute("COMMIT")


async def steps(storage: Storage, operation: Callable[[], Awaitable[object]]) -> int:
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    await storage.database.connection.set_progress_handler(count, STEP)
    try:
        await operation()
    finally:
        await storage.database.connection.set_progress_handler(None, 0)
    return counted[0] * STEP


async def learner_with_answers(storage: Storage, answers: int) -> None:
    await storage.learners.touch_user(ONE, "Ada", "en", NOW)
    attempt = await storage.learners.start_attempt(
        ONE, "arith", tuple(f"q{n}" for n in range(answers)), NOW
    )
    for n in range(answers):
        await storage.learners.record_answer(
            attempt, f"q{n}", 0, True, NOW + n, card=CardReview(True, 5.0)
        )


async def cost_of_forgetting(path: Path, learners: int) -> int:
    storage = await Storage.open(path)
    await learner_with_answers(storage, 30)
    await storage.close()
    others(path, learners)
    storage = await Storage.open(path)
    try:
        return await steps(storage, lambda: storage.privacy.forget_learner(ONE, NOW))
    finally:
        await storage.close()


async def test_forgetting_a_learner_costs_the_same_whatever_the_others_hold(
    tmp_path: Path,
) -> None:
    small = await cost_of_forgetting(tmp_path / "small.sqlite3", 50)
    large = await cost_of_forgetting(tmp_path / "large.sqlite3", 100)
    # each of the 30 answers deleted once looked for its review in the whole log
    assert large < small * 1.2, (small, large)
