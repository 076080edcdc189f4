"""Upgrading a database that holds data (issue 12, items 4 and 5).

A database is made by the first schema and filled, version by version, with rows as the code of
that version wrote them (its SQL, copied from `git log -p storage/`): learners, attempts and
answers; cards, reviews and reminders; stored banks, retired questions, posted questions and
their answers, schedules and the audit log; group quizzes. Then it is upgraded to the latest
schema. Every row must survive, posted questions must have become group sessions whose old
buttons still answer, and the bot must read all of it: /progress, /leaderboard, /stats, a tap
on a post's message sent before the upgrade, /push revealing it.

And each migration is atomic: one that fails half-way leaves the previous version as it was.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import Chat, FakeBotApi, FakeUser, Message
from content.export import dump_bank
from content.loader import parse_bank
from content.spacing import review
from storage import Database, Storage, StorageError
from storage.migrations import MIGRATIONS, SCHEMA_VERSION
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner

DAY = 86_400.0
BASE = time.time() - 30 * DAY  # the database's first day
SEED = "model-pipeline-parallelism"
SEED_IDS = [f"mpp-{n}" for n in range(1, 9)]
SEED_ANSWERS = {"mpp-1": 0, "mpp-2": 1, "mpp-3": 2}  # the right option of the ones posted

ADMIN = FakeUser(900, "Ade", "en")
ADA = FakeUser(1001, "Ada", "en")
BOLA = FakeUser(1002, "Bola", "yo")
CHIKE = FakeUser(1003, "Chike", "en")
DAYO = FakeUser(1004, "Dayo", "en")
EMEKA = FakeUser(1005, "Emeka", "en")
FUNMI = FakeUser(1006, "Funmi", "en")  # first seen after the upgrade
CHANNEL_ID, GROUP_ID = -100777, -100500

EXTRA = """\
id: extra-bank
title: {en: "Extra bank"}
level: easy
questions:
  - id: x1
    text: "One plus one?"
    options: ["Two", "Three"]
    answer: 0
  - id: x2
    text: "Colour of a clear sky?"
    options: ["Blue", "Green"]
    answer: 0
"""

Statement = tuple[str, tuple[Any, ...]]

# Tables whose rows every upgrade keeps as they were (group_sessions gains columns in 6).
KEPT = (
    "users",
    "attempts",
    "answers",
    "cards",
    "review_log",
    "content_banks",
    "retired_questions",
    "push_schedules",
    "audit_log",
    "group_sessions",
    "group_questions",
    "group_answers",
)

# What /stats and /leaderboard read before schema 6 (storage/ at schema 5, verbatim).
OLD_ALL_ANSWERS = """
    SELECT user_id, quiz_id, question_id, correct FROM answers
    UNION ALL
    SELECT a.user_id, p.quiz_id, p.question_id, a.correct
    FROM post_answers a JOIN posts p ON p.id = a.post_id
"""
OLD_CHAT_SCORES = """SELECT a.user_id,
       (SELECT b.name FROM group_answers b WHERE b.user_id=a.user_id
        ORDER BY b.answered_at DESC LIMIT 1) AS name,
       SUM(a.points) AS points, SUM(a.correct) AS correct, COUNT(*) AS answered,
       SUM(a.elapsed) AS total_time
FROM group_answers a JOIN group_sessions s ON s.id = a.session_id
WHERE s.chat_id=?
GROUP BY a.user_id ORDER BY a.user_id"""


# --- rows as each version of the code wrote them --------------------------------------------


def _user(user: FakeUser, at: float) -> Statement:
    return (
        """INSERT INTO users (user_id, first_name, telegram_language, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(user_id) DO UPDATE SET first_name=excluded.first_name,
               telegram_language=excluded.telegram_language, active=1,
               updated_at=excluded.updated_at""",
        (user.id, user.first_name, user.language_code, at, at),
    )


def _attempt(user: FakeUser, quiz_id: str, ids: Sequence[str], at: float) -> Statement:
    return (
        """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at)
           VALUES (?, ?, ?, ?, ?)""",
        (user.id, quiz_id, json.dumps(list(ids)), len(ids), at),
    )


def _answer(attempt_id: int, user: FakeUser, quiz_id: str, question_id: str, chosen: int,
            correct: bool, at: float) -> Statement:  # fmt: skip
    return (
        """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen, correct,
                                answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
        (attempt_id, user.id, quiz_id, question_id, chosen, int(correct), at),
    )


def _finish(attempt_id: int, score: int, at: float) -> Statement:
    return ("UPDATE attempts SET finished_at=?, score=? WHERE id=?", (at, score, attempt_id))


def version_1() -> list[Statement]:
    """The foundation: learners, their attempts and answers."""
    rows = [_user(ADA, BASE), _user(BOLA, BASE), _user(CHIKE, BASE)]
    rows.append(
        ("UPDATE users SET language=?, updated_at=? WHERE user_id=?", ("yo", BASE, BOLA.id))
    )
    rows.append(("UPDATE users SET active=?, updated_at=? WHERE user_id=?", (0, BASE, CHIKE.id)))
    # Ada: the seed quiz finished, 6 of 8 right; then a second attempt, 3 answered so far
    rows.append(_attempt(ADA, SEED, SEED_IDS, BASE + 60))
    for n, question_id in enumerate(SEED_IDS):
        right = n < 6
        rows.append(_answer(1, ADA, SEED, question_id, 0 if right else 3, right, BASE + 60 + n))
    rows.append(_finish(1, 6, BASE + 68))
    rows.append(_attempt(ADA, SEED, SEED_IDS, BASE + DAY))
    for n, question_id in enumerate(SEED_IDS[:3]):
        rows.append(_answer(2, ADA, SEED, question_id, 0, True, BASE + DAY + n))
    # Bola: a quiz that no longer exists
    rows.append(_attempt(BOLA, "gone-quiz", ("g1", "g2"), BASE + 2 * DAY))
    rows.append(_answer(3, BOLA, "gone-quiz", "g1", 1, True, BASE + 2 * DAY + 1))
    rows.append(_answer(3, BOLA, "gone-quiz", "g2", 1, False, BASE + 2 * DAY + 2))
    rows.append(_finish(3, 1, BASE + 2 * DAY + 2))
    return rows


def version_2() -> list[Statement]:
    """The tutor: a time zone and a reminder, cards and their log, a review session."""
    at = BASE + 3 * DAY
    rows: list[Statement] = [
        (
            """UPDATE users SET timezone=?, remind_at=?, last_reminded=?, updated_at=?
               WHERE user_id=?""",
            ("Africa/Lagos", "08:00", "2026-11-30", at, ADA.id),
        )
    ]
    # Ada's cards for the three questions of her running attempt (answers 9, 10, 11)
    for answer_id, question_id in zip((9, 10, 11), SEED_IDS[:3], strict=True):
        card = review(None, True, 5.0, BASE + DAY)
        rows.append(
            (
                """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                (ADA.id, SEED, question_id, card.card_json, card.due, BASE + DAY),
            )
        )
        rows.append(
            (
                """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
                                           answer_id) VALUES (?, ?, ?, ?, ?, ?)""",
                (ADA.id, SEED, question_id, card.rating, BASE + DAY, answer_id),
            )
        )
    # Bola reviews one question of the seed quiz (attempt 4, answer 14)
    rows.append(
        (
            """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at, kind)
               VALUES (?, ':review', ?, 1, ?, 'review')""",
            (BOLA.id, json.dumps([f"{SEED}/mpp-1"]), at),
        )
    )
    rows.append(_answer(4, BOLA, SEED, "mpp-1", 0, True, at + 5))
    rows.append(
        (
            "UPDATE attempts SET finished_at=?, score=?, total=COALESCE(?, total) WHERE id=?",
            (at + 5, 1, None, 4),
        )
    )
    card = review(None, True, 5.0, at + 5)
    rows.append(
        (
            """INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
               VALUES (?, ?, ?, ?, ?, ?)""",
            (BOLA.id, SEED, "mpp-1", card.card_json, card.due, at + 5),
        )
    )
    return rows


def _audit(at: float, admin: int, action: str, quiz_id: str | None, detail: str) -> Statement:
    return (
        "INSERT INTO audit_log (at, admin_id, action, quiz_id, detail) VALUES (?, ?, ?, ?, ?)",
        (at, admin, action, quiz_id, detail),
    )


def version_3(messages: dict[int, Message]) -> list[Statement]:
    """Admin content: a stored bank that retired a question, four posts, a schedule.

    Posts, as the pushes of that time left them: post 1 in the channel (answered, revealed by
    the next push); post 2, whose process died between reserving it and sending it (no
    message; revealed by the push after the restart); post 3, open; post 4 in the group, open.
    `messages` are the posts' messages (post id -> message) the stand-in shows."""
    at = BASE + 4 * DAY
    extra = parse_bank(EXTRA, "extra.yaml", "en").quiz
    assert extra is not None
    bank_detail = json.dumps({"added": ["x1", "x2", "x3"], "file": "extra.yaml", "retired": [],
                              "updated": []}, sort_keys=True)  # fmt: skip
    rows: list[Statement] = [
        (
            """INSERT INTO content_banks (quiz_id, yaml, updated_at, updated_by)
               VALUES (?, ?, ?, ?)""",
            ("extra-bank", dump_bank(extra), at, ADMIN.id),
        ),
        _audit(at, ADMIN.id, "import", "extra-bank", bank_detail),
        (
            """INSERT INTO retired_questions (quiz_id, question_id, text, retired_at, retired_by)
               VALUES (?, ?, ?, ?, ?)""",
            ("extra-bank", "x3", "Legs of a spider?", at + 1, ADMIN.id),
        ),
        _audit(at + 1, ADMIN.id, "retire", "extra-bank", '{"question": "x3"}'),
        _user(DAYO, at),
        _user(EMEKA, at),
    ]
    posts = [  # id, chat, question, posted at, by (0: a schedule), revealed at
        (1, CHANNEL_ID, "mpp-1", at + 10, ADMIN.id, at + DAY),
        (2, CHANNEL_ID, "mpp-2", at + DAY, ADMIN.id, at + 2 * DAY),
        (3, CHANNEL_ID, "mpp-3", at + 2 * DAY, 0, None),
        (4, GROUP_ID, "mpp-1", at + 20, ADMIN.id, None),
    ]
    for post_id, chat_id, question_id, posted_at, by, revealed_at in posts:
        rows.append(
            (
                """INSERT INTO posts (chat_id, quiz_id, question_id, posted_at, posted_by)
                   VALUES (?, ?, ?, ?, ?)""",
                (chat_id, SEED, question_id, posted_at, by),
            )
        )
        detail = json.dumps({"chat_id": chat_id, "question": question_id}, sort_keys=True)
        rows.append(_audit(posted_at, by, "push", SEED, detail))
        if post_id in messages:
            rows.append(
                (
                    "UPDATE posts SET message_id=? WHERE id=?",
                    (messages[post_id].message_id, post_id),
                )
            )
        if revealed_at is not None:
            rows.append(
                (
                    "UPDATE posts SET revealed_at=? WHERE id=? AND revealed_at IS NULL",
                    (revealed_at, post_id),
                )
            )
    for post_id, user, chosen, answered_at in (
        (1, ADA, 0, at + 30),
        (1, BOLA, 2, at + 40),
        (3, ADA, 2, at + 2 * DAY + 30),
        (3, DAYO, 0, at + 2 * DAY + 50),
        (4, EMEKA, 0, at + 60),
    ):
        right = chosen == SEED_ANSWERS[posts[post_id - 1][2]]
        rows.append(
            (
                """INSERT INTO post_answers (post_id, user_id, chosen, correct, answered_at)
                   VALUES (?, ?, ?, ?, ?) ON CONFLICT(post_id, user_id) DO NOTHING""",
                (post_id, user.id, chosen, int(right), answered_at),
            )
        )
    rows.append(
        (
            """INSERT INTO push_schedules (quiz_id, chat, minute_of_day, created_at, created_by)
               VALUES (?, ?, ?, ?, ?)""",
            (SEED, "@news", 540, at, ADMIN.id),
        )
    )
    rows.append(_audit(at, ADMIN.id, "schedule", SEED, '{"chat": "@news", "minute_of_day": 540}'))
    return rows


def _session(chat_id: int, chat_type: str, quiz_id: str, ids: Sequence[str], started_by: int | None,
             at: float) -> Statement:  # fmt: skip
    return (
        """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids, seconds, mode,
               language, started_by, started_at) VALUES (?, ?, ?, ?, 30, 'buttons', 'en', ?, ?)
           ON CONFLICT(chat_id) WHERE finished_at IS NULL DO NOTHING""",
        (chat_id, chat_type, quiz_id, json.dumps(list(ids)), started_by, at),
    )


def _asked_and_revealed(session_id: int, position: int, question_id: str, message_id: int,
                        at: float, last: bool) -> list[Statement]:  # fmt: skip
    rows: list[Statement] = [
        (
            """INSERT INTO group_questions (session_id, position, question_id, message_id,
                   poll_id, asked_at, deadline) VALUES (?, ?, ?, ?, NULL, ?, ?)""",
            (session_id, position, question_id, message_id, at, at + 30),
        ),
        (
            """UPDATE group_questions SET revealed_at=?
               WHERE session_id=? AND position=? AND revealed_at IS NULL""",
            (at + 30, session_id, position),
        ),
    ]
    if last:
        rows.append(
            (
                """UPDATE group_sessions SET position=?, finished_at=?, outcome='finished'
                   WHERE id=?""",
                (position + 1, at + 30, session_id),
            )
        )
    else:
        rows.append(("UPDATE group_sessions SET position=? WHERE id=?", (position + 1, session_id)))
    return rows


def _group_answer(session_id: int, position: int, question_id: str, user: FakeUser, chosen: int,
                  correct: bool, elapsed: float, points: int, at: float) -> Statement:  # fmt: skip
    return (
        """INSERT INTO group_answers (session_id, position, question_id, user_id, name, chosen,
               correct, elapsed, points, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (session_id, position, question_id, user.id, user.first_name, chosen, int(correct),
         elapsed, points, at),
    )  # fmt: skip


def version_4() -> list[Statement]:
    """Group quizzes: one in the group, stopped after two questions."""
    at = BASE + 8 * DAY
    rows = [_session(GROUP_ID, "supergroup", SEED, SEED_IDS, ADA.id, at)]
    rows += _asked_and_revealed(1, 0, "mpp-1", 40, at, last=False)
    rows += [
        _group_answer(1, 0, "mpp-1", ADA, 0, True, 3.0, 950, at + 3),
        _group_answer(1, 0, "mpp-1", BOLA, 1, False, 5.0, 0, at + 5),
        _group_answer(1, 0, "mpp-1", EMEKA, 0, True, 9.0, 850, at + 9),
    ]
    rows += _asked_and_revealed(1, 1, "mpp-2", 41, at + 30, last=False)
    rows += [
        _group_answer(1, 1, "mpp-2", EMEKA, 1, True, 4.0, 933, at + 34),
        _group_answer(1, 1, "mpp-2", ADA, 0, False, 6.0, 0, at + 36),
    ]
    rows.append(
        (
            """UPDATE group_sessions SET finished_at=?, outcome='stopped'
               WHERE id=? AND finished_at IS NULL""",
            (at + 70, 1),
        )
    )
    return rows


def version_5() -> list[Statement]:
    """A channel quiz (no person started it), to the end, beside the channel's posts."""
    at = BASE + 9 * DAY
    rows = [_session(CHANNEL_ID, "channel", "extra-bank", ("x1", "x2"), None, at)]
    rows += _asked_and_revealed(2, 0, "x1", 50, at, last=False)
    rows.append(_group_answer(2, 0, "x1", DAYO, 0, True, 2.0, 967, at + 2))
    rows += _asked_and_revealed(2, 1, "x2", 51, at + 30, last=True)
    rows.append(_group_answer(2, 1, "x2", DAYO, 0, True, 2.0, 967, at + 32))
    return rows


async def fill(path: Path, version: int, rows: list[Statement]) -> None:
    """Bring the database to `version` (from whatever it had) and add `rows` there."""
    database = await Database.open(path, migrations=MIGRATIONS[:version])
    try:
        assert await database.schema_version() == version
        async with database.transaction() as tx:
            for sql, params in rows:
                await tx.execute(sql, *params)
    finally:
        await database.close()


async def build_old_database(path: Path, messages: dict[int, Message]) -> None:
    """A database of schema 5 holding rows of every version, written as each version did."""
    for version, rows in enumerate(
        (version_1(), version_2(), version_3(messages), version_4(), version_5()), start=1
    ):
        await fill(path, version, rows)


# --- reading it back --------------------------------------------------------------------------


@contextlib.contextmanager
def _read(path: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        yield db


def snapshot(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, in rowid order."""
    with _read(path) as db:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            table: [dict(row) for row in db.execute(f'SELECT * FROM "{table}" ORDER BY rowid')]
            for table in tables
        }


def schema(path: Path) -> list[tuple[str, str, str]]:
    with _read(path) as db:
        return [
            (row[0], row[1], " ".join(str(row[2]).split()))
            for row in db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        ]


def old_reads(path: Path) -> dict[str, Any]:
    """What /stats and /leaderboard showed from a schema-5 database."""
    with _read(path) as db:
        return {
            "learners": db.execute(
                f"SELECT COUNT(DISTINCT user_id) FROM ({OLD_ALL_ANSWERS})"
            ).fetchone()[0],
            "by_quiz": {
                row[0]: (row[1], row[2])
                for row in db.execute(
                    f"""SELECT quiz_id, COUNT(DISTINCT user_id), COUNT(*)
                        FROM ({OLD_ALL_ANSWERS}) GROUP BY quiz_id"""
                )
            },
            "by_question": sorted(
                tuple(row)
                for row in db.execute(
                    f"""SELECT quiz_id, question_id, COUNT(*), SUM(correct)
                        FROM ({OLD_ALL_ANSWERS}) GROUP BY quiz_id, question_id"""
                )
            ),
            "board": {
                chat: [tuple(row) for row in db.execute(OLD_CHAT_SCORES, (chat,))]
                for chat in (GROUP_ID, CHANNEL_ID)
            },
        }


@pytest.fixture
def old_messages(api: FakeBotApi) -> dict[int, Message]:
    """The posts' messages as an earlier bot sent them, buttons and all (post id -> message)."""
    channel = api.group(CHANNEL_ID, "news", admins={ADMIN.id}, type="channel")
    group = api.group(GROUP_ID, "study", admins={ADA.id, ADMIN.id})

    def posted(chat: Chat, post_id: int, question_id: str) -> Message:
        options = 4  # every question of the seed quiz has four
        buttons = [(f"{'ABCD'[i]}.", f"1:adp:{post_id}:{i}") for i in range(options)]
        return api.sent_earlier(chat, f"Question {question_id}\n\nAnswers so far: 0", buttons)

    return {
        1: posted(channel, 1, "mpp-1"),
        3: posted(channel, 3, "mpp-3"),
        4: posted(group, 4, "mpp-1"),
    }


async def test_a_database_of_the_first_schema_with_data_upgrades_and_the_bot_reads_it(
    api: FakeBotApi, tmp_path: Path, old_messages: dict[int, Message]
) -> None:
    path = tmp_path / "data" / "quiz.sqlite3"
    await build_old_database(path, old_messages)
    before = snapshot(path)
    shown_before = old_reads(path)
    assert (len(before["posts"]), len(before["post_answers"])) == (4, 5)

    storage = await Storage.open(path)  # the upgrade: 5 -> latest
    try:
        assert await storage.database.schema_version() == SCHEMA_VERSION
        posts = {n: await storage.groups.post(n) for n in (1, 2, 3, 4)}
        board = await storage.groups.chat_scores(GROUP_ID)
    finally:
        await storage.close()
    after = snapshot(path)
    with _read(path) as db:
        assert [tuple(row) for row in db.execute("PRAGMA integrity_check")] == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []

    # every row kept as it was; the sessions of before are timed quizzes
    for table in KEPT:
        kept = [
            {column: value for column, value in row.items() if column in before[table][0]}
            for row in after[table][: len(before[table])]
        ]
        assert kept == before[table], table
    assert {(row["kind"], row["post_id"]) for row in after["group_sessions"][:2]} == {
        ("timed", None)
    }
    assert "posts" not in after and "post_answers" not in after
    # no answer of before is held for a forgotten learner (schema 7)
    assert {a["forgotten_as"] for a in after["group_answers"]} == {None}

    # each post is a one-question session under its old number, its message and answers with it
    for old in before["posts"]:
        session = posts[old["id"]]
        assert session is not None and session.posted
        assert (session.chat_id, session.quiz_id, session.question_ids) == (
            old["chat_id"], old["quiz_id"], (old["question_id"],)
        )  # fmt: skip
        assert session.started_at == old["posted_at"]
        assert session.started_by == (old["posted_by"] or None)
        assert session.finished_at == old["revealed_at"]
        asked = [q for q in after["group_questions"] if q["session_id"] == session.id]
        if old["message_id"] is None:
            assert asked == []
        else:
            assert [(q["message_id"], q["revealed_at"], q["deadline"]) for q in asked] == [
                (old["message_id"], old["revealed_at"], float("inf"))
            ]
        moved = sorted(
            (a["user_id"], a["chosen"], a["correct"], a["answered_at"], a["points"])
            for a in after["group_answers"]
            if a["session_id"] == session.id
        )
        assert moved == sorted(
            (a["user_id"], a["chosen"], a["correct"], a["answered_at"], 0)
            for a in before["post_answers"]
            if a["post_id"] == old["id"]
        )
    # a moved answer is named like the member's group answers (the board shows the latest)
    emeka = [a["name"] for a in after["group_answers"] if a["user_id"] == EMEKA.id]
    assert set(emeka) == {"Emeka"}
    assert [(r.user_id, r.name, r.points, r.correct, r.answered) for r in board] == [
        (user_id, name, points, correct, answered)
        for user_id, name, points, correct, answered, _ in shown_before["board"][GROUP_ID]
    ]

    # the upgrade again changes nothing
    storage = await Storage.open(path)
    await storage.close()
    assert snapshot(path) == after

    # --- and the bot reads it ----------------------------------------------------------------
    settings = make_settings(
        api, path, content_dir=DEFAULT_CONTENT_DIR, admin_ids=frozenset({ADMIN.id})
    )
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        # /stats counts the same answers as before: private ones and answers to posts
        stats = await admin.send("/stats", "Statistics")
        total = sum(count for _, _, count, _ in shown_before["by_question"])
        title = f"Learners: {shown_before['learners']} · answers: {total}"
        assert title in stats.text
        learners, answers = shown_before["by_quiz"][SEED]
        seed_line = (
            f"Model and Pipeline Parallelism ({SEED}): {learners} learners, {answers} answers"
        )
        assert seed_line in stats.text
        assert "Extra bank (extra-bank)" in stats.text and "Retired: x3" in stats.text

        # Ada's record, from rows of the first schema
        progress = await Learner(api, ADA).send("/progress", "Your progress")
        assert "best 6/8" in progress.text and "in progress: 3/8" in progress.text

        # the group's boards: its timed quiz only, the post answered there adds nothing
        group = api.chats[GROUP_ID]
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(EMEKA, "/leaderboard", group)
        shown = await api.wait_for_bot_message(GROUP_ID, "Last quiz", after=seen)
        assert "Emeka" in shown.text and "1783" in shown.text and "Ada" in shown.text

        # a post's message sent before the upgrade still takes answers, once per member
        post_3 = old_messages[3]
        right = api.tap(FUNMI, post_3, "1:adp:3:2")
        assert (await api.wait_for_answer(right))["text"] == "✅ Correct!"
        again = api.tap(ADA, post_3, "1:adp:3:0")
        assert (await api.wait_for_answer(again))["text"] == "You already answered this question."
        closed = api.tap(FUNMI, old_messages[1], "1:adp:1:0")
        assert (await api.wait_for_answer(closed))["text"] == "This question is closed."
        in_group = api.tap(BOLA, old_messages[4], "1:adp:4:0")
        assert (await api.wait_for_answer(in_group))["text"].startswith("✅")

        # an open post never blocks /groupquiz in its chat
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, f"/groupquiz {SEED} 30", group)
        await api.wait_for_bot_message(GROUP_ID, "Question 1 of 8", after=seen)
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, "/stopquiz", group)
        await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)

        # /push reveals the old post first (its tally: the answers from before and after the
        # upgrade) and posts the next question (after the one whose message was never sent)
        # under the next post number
        done = await admin.send(f"/push {SEED} @news", "posted to @news")
        assert "Question 4 of 8" in done.text
        await api.wait_for(lambda: post_3.reply_markup is None)
        assert "3 answered, 2 right" in post_3.text
        newest = api.bot_messages(CHANNEL_ID)[-1]
        assert newest.button_data()[0] == "1:adp:5:0"
    assert [call for call in api.calls if not call.ok] == []


# --- each migration is atomic -----------------------------------------------------------------

FAILING = "SELECT no_such_function()"  # fails when run, after the statements before it


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
async def test_a_migration_that_fails_leaves_the_previous_version_intact(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "quiz.sqlite3"
    builders = [version_1, version_2, lambda: version_3({}), version_4, version_5]
    for done in range(1, version):
        await fill(path, done, builders[done - 1]() if done <= len(builders) else [])
    if version == 1:  # a new file, claimed and created empty, as the bot would
        await fill(path, 0, [])
    before, tables = snapshot(path), schema(path)

    broken = (*MIGRATIONS[: version - 1], (*MIGRATIONS[version - 1], FAILING))
    with pytest.raises(StorageError, match="no_such_function"):
        await Database.open(path, migrations=broken)

    assert snapshot(path) == before
    assert schema(path) == tables
    with _read(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == version - 1
    # and the real migration then runs on what was left
    database = await Database.open(path, migrations=MIGRATIONS[:version])
    await database.close()


def test_every_migration_item_is_one_statement() -> None:
    for version, statements in enumerate(MIGRATIONS, start=1):
        for statement in statements:
            assert sqlite3.complete_statement(statement + ";"), (version, statement)
            body = re.sub(r"'[^']*'", "''", statement)  # no `;` outside string literals
            assert ";" not in body, (version, statement)


# --- 13: a homework attempt is an attempt of its own ----------------------------------------


async def test_homework_tags_move_onto_the_attempts_begun_for_the_homework(tmp_path: Path) -> None:
    """Schema 12 tagged whatever attempt was running when a member opened the homework. The
    upgrade ties to the homework only an attempt begun after it was set and tagged to it
    alone; an attempt already running then (or tagged to two homeworks) counts for none."""
    path = tmp_path / "quiz.sqlite3"
    set_at = BASE + DAY
    attempts = [  # (id, user, started), all at the seed quiz
        (1, ADA, set_at - 60),  # running when the homework was set
        (2, BOLA, set_at + 60),  # begun from the link
        (3, CHIKE, set_at + 60),  # tagged to both homeworks
    ]
    rows: list[Statement] = [_user(user, BASE) for _, user, _ in attempts]
    rows += [_attempt(user, SEED, SEED_IDS, at) for _, user, at in attempts]
    rows += [
        (
            """INSERT INTO assignments (chat_id, quiz_id, deadline, language, timezone,
                   created_by, created_at) VALUES (?, ?, ?, 'en', 'UTC', ?, ?)""",
            (GROUP_ID, SEED, set_at + 7 * DAY, ADMIN.id, set_at),
        )
        for _ in range(2)
    ]
    tags = [(1, ADA, 1), (1, BOLA, 2), (1, CHIKE, 3), (2, CHIKE, 3)]
    rows += [
        (
            """INSERT INTO homework_attempts (assignment_id, user_id, attempt_id, opened_at)
               VALUES (?, ?, ?, ?)""",
            (assignment, user.id, attempt, set_at + 60),
        )
        for assignment, user, attempt in tags
    ]
    await fill(path, 12, rows)

    storage = await Storage.open(path)
    try:
        takers = await storage.homework.takers(1)
        assignment = await storage.homework.get(1)
        # Ada's own attempt still runs; she may start the homework's beside it
        own = await storage.learners.running_attempt(ADA.id, SEED)
        homework = await storage.learners.start_attempt(
            ADA.id, SEED, tuple(SEED_IDS), set_at + 120, assignment_id=1
        )
    finally:
        await storage.close()
    assert [(t.user_id, t.attempt_id) for t in takers] == [(BOLA.id, 2)]
    assert assignment is not None and (assignment.counts, assignment.shuffled) == ("first", False)
    assert own is not None and own.id == 1
    assert homework.id not in (1, 2, 3) and homework.assignment_id == 1
    with _read(path) as db:
        tied = db.execute("SELECT id, assignment_id FROM attempts ORDER BY id").fetchall()
        assert [tuple(row) for row in tied] == [(1, None), (2, 1), (3, None), (4, 1)]
        assert "homework_attempts" not in {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
