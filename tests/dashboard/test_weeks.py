"""A class week by week: the store's reading on a real SQLite file, and the series the page
draws (every week present, oldest first)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.dashboard.views import weekly_series
from storage import Storage
from storage.report_store import FIRST_MONDAY, WEEK, WeekActivity

CLASS, OTHER = -100111, -100222
MONDAY = FIRST_MONDAY + 2900 * WEEK  # a Monday, 00:00 UTC (in 2025)


def played(db_path: Path, chat_id: int, answers: list[tuple[int, float, bool]]) -> None:
    """A group quiz in `chat_id` with these answers: (member, when, right)."""
    with contextlib.closing(sqlite3.connect(db_path)) as db, db:
        session = db.execute(
            """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids, seconds,
                   mode, language, started_at, finished_at)
               VALUES (?, 'supergroup', 'q', 'a,b,c', 30, 'buttons', 'en', ?, ?)""",
            (chat_id, answers[0][1], answers[-1][1]),
        ).lastrowid
        for position, (member, when, right) in enumerate(answers):
            db.execute(
                """INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                       chosen, correct, elapsed, points, answered_at)
                   VALUES (?, ?, 'a', ?, 'someone', 0, ?, 1.0, 0, ?)""",
                (session, position, member, int(right), when),
            )


async def test_a_chats_answers_are_counted_by_monday_to_sunday_week(
    storage: Storage, db_path: Path
) -> None:
    played(
        db_path,
        CLASS,
        [
            (1, MONDAY - 1, True),  # Sunday 23:59:59: the week before
            (1, MONDAY, True),
            (2, MONDAY + 3 * 86_400, False),
            (2, MONDAY + WEEK - 1, True),  # Sunday night: still this week
            (3, MONDAY + 2 * WEEK + 5, False),
        ],
    )
    played(db_path, OTHER, [(1, MONDAY + 10, False)])  # another chat: never counted

    week = (MONDAY - FIRST_MONDAY) // WEEK
    found = await storage.reports.weekly_activity(CLASS, MONDAY - WEEK)
    assert found == [
        WeekActivity(week - 1, 1, 1, 1.0),
        WeekActivity(week, 3, 2, 2.0),
        WeekActivity(week + 2, 1, 1, 0.0),
    ]
    assert found[1].starts_at == MONDAY
    assert await storage.reports.weekly_activity(CLASS, MONDAY + 3 * WEEK) == []


def test_the_series_has_every_week_oldest_first_and_no_right_share_for_an_empty_week() -> None:
    series = weekly_series([WeekActivity(10, 4, 2, 3.0), WeekActivity(12, 2, 1, 0.0)], 12, 4)
    assert [(w["answers"], w["learners"], w["right"]) for w in series] == [
        (0, 0, None),
        (4, 2, 75),
        (0, 0, None),
        (2, 1, 0),
    ]
    assert [w["starts_at"] for w in series] == [FIRST_MONDAY + n * WEEK for n in (9, 10, 11, 12)]
