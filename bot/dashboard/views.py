"""What the dashboard's API answers, as plain JSON-ready data: a class at a glance and the
learner × question grid of a quiz played there. Reads storage and the catalog; knows no HTTP."""

from __future__ import annotations

from typing import Any

from bot.core.context import Services
from bot.core.i18n import FALLBACK, STRINGS, Locale, translate
from content.model import Quiz
from storage.report_store import FIRST_MONDAY, WEEK, WeekActivity

RECENT = 20  # group quizzes and homework listed per class
WEEKS = 12  # weeks the class's activity is drawn over
QUESTION_PREVIEW = 90  # characters of a question's text shown in the grid's header


def strings(language: str) -> dict[str, str]:
    """The dashboard's own interface strings (`app_*`) in that language (English where it
    has none)."""
    return {key: translate(language, key) for key in STRINGS[FALLBACK] if key.startswith("app_")}


async def class_overview(services: Services, chat_id: int, locale: Locale) -> dict[str, Any]:
    storage = services.storage
    known = await storage.chats.known_chat(chat_id)
    homework = []
    for assignment in await storage.homework.recent_assignments(chat_id, RECENT):
        quiz = services.catalog.get(assignment.quiz_id)
        homework.append(
            {
                "id": assignment.id,
                "quiz": assignment.quiz_id,
                "title": _title(quiz, assignment.quiz_id, locale),
                "deadline": assignment.deadline,
                "open": assignment.open,
                "opened": len(await storage.homework.takers(assignment.id)),
                "done": await storage.homework.done_count(assignment.id, assignment.deadline),
            }
        )
    sessions = []
    for session in await storage.groups.recent_sessions(chat_id, RECENT):
        quiz = services.catalog.get(session.quiz_id)
        sessions.append(
            {
                "id": session.id,
                "quiz": session.quiz_id,
                "title": _title(quiz, session.quiz_id, locale),
                "started_at": session.started_at,
                "running": session.running,
                "questions": session.total,
            }
        )
    return {
        "id": chat_id,
        "title": known.title if known else "",
        "homework": homework,
        "sessions": sessions,
    }


async def quiz_grid(
    services: Services, chat_id: int, quiz_id: str, locale: Locale
) -> dict[str, Any] | None:
    """Who answered what in the chat's latest group quiz of `quiz_id`: a mark per learner and
    question (1 right, 0 wrong, null not answered), with totals; None when the chat never
    played it."""
    session = next(
        (
            s
            for s in await services.storage.groups.recent_sessions(chat_id, 200)
            if s.quiz_id == quiz_id
        ),
        None,
    )
    if session is None:
        return None
    reports = services.storage.reports
    asked = await reports.asked_positions(session.id)
    quiz = services.catalog.get(quiz_id)
    rows = sorted(
        (
            (member.name, [_mark(member.marks.get(position)) for position, _ in asked])
            for member in await reports.session_marks(session.id)
        ),
        key=lambda named: (-_total(named[1]), named[0]),
    )
    questions = []
    for index, (_, question_id) in enumerate(asked):
        answered = [row[index] for _, row in rows if row[index] is not None]
        question = quiz.question(question_id) if quiz is not None else None
        questions.append(
            {
                "id": question_id,
                "number": index + 1,
                "text": locale.plain(question.text)[:QUESTION_PREVIEW] if question else "",
                "answered": len(answered),
                "right": _total(answered),
            }
        )
    learners = [{"name": name, "marks": row, "total": _total(row)} for name, row in rows]
    return {
        "quiz": quiz_id,
        "title": _title(quiz, quiz_id, locale),
        "session": session.id,
        "questions": questions,
        "learners": learners,
        "counted": locale.t("n_learners", n=len(learners)),
    }


def _mark(credit: float | None) -> float | None:
    """A credit as the grid sends it: 1 and 0 as integers, a part to two decimals."""
    if credit is None:
        return None
    return int(credit) if credit in (0, 1) else round(credit, 2)


def _total(marks: list[float | None]) -> float:
    return sum(mark for mark in marks if mark is not None)


def _title(quiz: Quiz | None, quiz_id: str, locale: Locale) -> str:
    return locale.plain(quiz.title) if quiz is not None else quiz_id


async def weekly(services: Services, chat_id: int, now: float, locale: Locale) -> dict[str, Any]:
    """The class's last `WEEKS` weeks (this one last): answers, learners and right %, and
    what they say in one sentence (the chart's text)."""
    this_week = int((now - FIRST_MONDAY) // WEEK)
    since = FIRST_MONDAY + (this_week - WEEKS + 1) * WEEK
    found = await services.storage.reports.weekly_activity(chat_id, since)
    answers = sum(activity.answers for activity in found)
    credit = sum(activity.credit for activity in found)
    summary = locale.t(
        "app_weeks_summary",
        weeks=locale.t("n_weeks", n=WEEKS),
        answers=locale.t("n_answers", n=answers),
        right=round(100 * credit / answers) if answers else 0,
    )
    return {"weeks": weekly_series(found, this_week, WEEKS), "summary": summary}


def weekly_series(found: list[WeekActivity], last_week: int, weeks: int) -> list[dict[str, Any]]:
    """`weeks` weeks up to `last_week`, each present (a week without answers: zeros, right %
    none), oldest first."""
    by_week = {activity.week: activity for activity in found}
    series = []
    for week in range(last_week - weeks + 1, last_week + 1):
        activity = by_week.get(week, WeekActivity(week, 0, 0, 0.0))
        right = round(100 * activity.credit / activity.answers) if activity.answers else None
        series.append(
            {
                "starts_at": activity.starts_at,
                "answers": activity.answers,
                "learners": activity.learners,
                "right": right,
            }
        )
    return series
