"""A class's reads on a real SQLite file: week by week (group quizzes and homework), the series
the page draws (every week present, oldest first), and the class page's statements, as many
for 6 homework as for 1."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.config import Settings
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.dashboard import views
from bot.dashboard.views import weekly_series
from content.catalog import Catalog
from storage import Storage
from storage.report_store import FIRST_MONDAY, WEEK, WeekActivity

CLASS, OTHER = -100111, -100222
MONDAY = FIRST_MONDAY + 2900 * WEEK  # a Monday, 00:00 UTC (in 2025)


def played(db_path: Path, chat_id: int, answers: list[tuple[int, float, bool]]) -> None:
    """Group quizzes in `chat_id`, one begun at each answer's time, with that answer:
    (member, when, right)."""
    with contextlib.closing(sqlite3.connect(db_path)) as db, db:
        for member, when, right in answers:
            session = db.execute(
                """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids,
                       seconds, mode, language, started_at, finished_at)
                   VALUES (?, 'supergroup', 'q', '["a"]', 30, 'buttons', 'en', ?, ?)""",
                (chat_id, when, when + 30),
            ).lastrowid
            db.execute(
                """INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                       chosen, correct, elapsed, points, answered_at)
                   VALUES (?, 0, 'a', ?, 'someone', 0, ?, 1.0, 0, ?)""",
                (session, member, int(right), when),
            )


async def test_a_chats_group_quizzes_are_counted_by_the_monday_to_sunday_week_they_began(
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
    found = await storage.reports.weekly_activity(CLASS, MONDAY - WEEK, MONDAY + 3 * WEEK)
    assert found == [
        WeekActivity(week - 1, 1, 1, 1),
        WeekActivity(week, 3, 2, 2),
        WeekActivity(week + 2, 1, 1, 0),
    ]
    assert found[1].starts_at == MONDAY
    assert await storage.reports.weekly_activity(CLASS, MONDAY + 3 * WEEK, MONDAY + 3 * WEEK) == []


def test_the_series_has_every_week_oldest_first_and_no_right_share_for_an_empty_week() -> None:
    series = weekly_series([WeekActivity(10, 4, 2, 3), WeekActivity(12, 2, 1, 0)], 12, 4)
    assert [(w["answers"], w["learners"], w["right"]) for w in series] == [
        (0, 0, None),
        (4, 2, 75),
        (0, 0, None),
        (2, 1, 0),
    ]
    assert [w["starts_at"] for w in series] == [FIRST_MONDAY + n * WEEK for n in (9, 10, 11, 12)]


def homework(
    db_path: Path,
    chat_id: int,
    deadline: float,
    answers: list[tuple[int, float, bool]],
    exam: bool = False,
) -> None:
    """A homework of `chat_id` (an exam if `exam`) with these answers: (member, when, right),
    each member's in an attempt of their own."""
    with contextlib.closing(sqlite3.connect(db_path)) as db, db:
        assignment = db.execute(
            """INSERT INTO assignments (chat_id, quiz_id, deadline, language, timezone,
                   created_at, exam) VALUES (?, 'q', ?, 'en', 'UTC', 0, ?)""",
            (chat_id, deadline, int(exam)),
        ).lastrowid
        attempts: dict[int, int] = {}
        for number, (member, when, right) in enumerate(answers):
            db.execute(
                "INSERT OR IGNORE INTO users (user_id, first_name, created_at, updated_at)"
                " VALUES (?, 'someone', 0, 0)",
                (member,),
            )
            if member not in attempts:
                attempts[member] = db.execute(
                    """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at,
                           finished_at, score, kind, assignment_id)
                       VALUES (?, 'q', 'a,b,c', 3, ?, ?, 0, 'homework', ?)""",
                    (member, when, when, assignment),
                ).lastrowid
            db.execute(
                """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                       correct, answered_at) VALUES (?, ?, 'q', ?, 0, ?, ?)""",
                (attempts[member], member, f"q{number}", int(right), when),
            )


async def test_homework_answers_count_in_their_week_and_an_open_exams_only_after_its_deadline(
    storage: Storage, db_path: Path
) -> None:
    week = (MONDAY - FIRST_MONDAY) // WEEK
    played(db_path, CLASS, [(1, MONDAY + 10, True)])
    homework(db_path, CLASS, MONDAY + WEEK, [(1, MONDAY + 20, False), (4, MONDAY + WEEK + 5, True)])
    exam_deadline = MONDAY + 3 * WEEK
    homework(
        db_path, CLASS, exam_deadline, [(5, MONDAY + 30, True), (5, MONDAY + 40, True)], exam=True
    )
    homework(db_path, OTHER, MONDAY + WEEK, [(6, MONDAY + 50, True)])  # another chat's

    before = await storage.reports.weekly_activity(CLASS, MONDAY - WEEK, exam_deadline - 1)
    assert before == [WeekActivity(week, 2, 1, 1), WeekActivity(week + 1, 1, 1, 1)]
    after = await storage.reports.weekly_activity(CLASS, MONDAY - WEEK, exam_deadline)
    assert after == [WeekActivity(week, 4, 2, 3), WeekActivity(week + 1, 1, 1, 1)]


async def test_the_class_page_reads_as_many_statements_for_six_homework_as_for_one(
    storage: Storage, db_path: Path
) -> None:
    services = Services(Settings(token="1:test"), storage, Catalog([], "en"), clock=lambda: MONDAY)
    played(db_path, CLASS, [(1, MONDAY - 10, True), (2, MONDAY - 5, False)])
    statements: list[str] = []
    await storage.database.set_trace_callback(statements.append)

    async def page() -> tuple[int, list[tuple[int, int]]]:
        statements.clear()
        overview = await views.class_overview(services, CLASS, Locale("en", "en"))
        return len(statements), [(h["opened"], h["done"]) for h in overview["homework"]]

    homework(db_path, CLASS, MONDAY, [(1, MONDAY - 30, True), (2, MONDAY + 5, True)])
    one, counts = await page()
    assert counts == [(2, 1)]  # Bo's finished after the deadline
    for _ in range(5):
        homework(db_path, CLASS, MONDAY, [(3, MONDAY - 30, True)])
    six, counts = await page()
    assert counts == [(1, 1)] * 5 + [(2, 1)]
    assert six == one
