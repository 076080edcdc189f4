"""What the dashboard's API answers, as plain JSON-ready data: a class at a glance (with its
hardest questions and leeches), the learner × question grid of a group quiz or a homework,
and how each of its questions fared. Reads storage and the catalog; knows no HTTP."""

from __future__ import annotations

from typing import Any

from bot.core.context import Services
from bot.core.i18n import FALLBACK, STRINGS, Locale, translate
from bot.dashboard import stats
from content import grid
from content.model import Quiz, clip
from content.spacing import LEECH_LAPSES
from storage.group_store import GroupSession
from storage.homework_store import Assignment
from storage.report_store import FIRST_MONDAY, WEEK, WeekActivity

RECENT = 20  # group quizzes and homework listed per class
WEEKS = 12  # weeks the class's activity is drawn over
LEECHES_SHOWN = 20  # a class's leeches listed, the most lapses first


def strings(language: str) -> dict[str, str]:
    """The dashboard's own interface strings (`app_*`) in that language (English where it
    has none)."""
    return {key: translate(language, key) for key in STRINGS[FALLBACK] if key.startswith("app_")}


async def class_overview(services: Services, chat_id: int, locale: Locale) -> dict[str, Any]:
    storage = services.storage
    known = await storage.chats.known_chat(chat_id)
    homework = []
    quizzes: dict[str, None] = {}  # the quizzes the class met, for their leeches
    for assignment, opened, done in await storage.homework.recent_with_counts(chat_id, RECENT):
        quiz = services.catalog.get(assignment.quiz_id)
        quizzes[assignment.quiz_id] = None
        homework.append(
            {
                "id": assignment.id,
                "quiz": assignment.quiz_id,
                "title": _title(quiz, assignment.quiz_id, locale),
                "deadline": assignment.deadline,
                "open": assignment.open,
                "exam": assignment.exam,
                "opened": opened,
                "done": done,
            }
        )
    sessions = []
    for session in await storage.groups.recent_sessions(chat_id, RECENT):
        quiz = services.catalog.get(session.quiz_id)
        quizzes[session.quiz_id] = None
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
    now = services.clock()
    shares = await storage.reports.question_shares(
        chat_id, stats.HARDEST_AT_LEAST, weeks_since(now), now
    )
    return {
        "id": chat_id,
        "title": known.title if known else "",
        "homework": homework,
        "sessions": sessions,
        "hardest": stats.hardest(shares, services.catalog.get, locale),
        "leeches": await _class_leeches(services, chat_id, list(quizzes), locale),
    }


async def _class_leeches(
    services: Services, chat_id: int, quiz_ids: list[str], locale: Locale
) -> list[dict[str, Any]]:
    """The leeches of the class's quizzes (`LearnerStore.leeches`, as `/report` lists them),
    among those who answered in the class."""
    if not quiz_ids:
        return []
    among = await services.storage.reports.class_learners(chat_id)
    found: list[dict[str, Any]] = []
    for quiz_id in quiz_ids:
        quiz = services.catalog.get(quiz_id)
        for user_id, name, question_id, lapses in await services.storage.learners.leeches(
            quiz_id, LEECH_LAPSES
        ):
            position = quiz.position(question_id) if quiz is not None else None
            if user_id not in among or quiz is None or position is None:
                continue
            question = quiz.questions[position]
            found.append(
                {
                    "name": name,
                    "title": _title(quiz, quiz_id, locale),
                    "number": position + 1,
                    "text": clip(" ".join(locale.plain(question.text).split()), 120),
                    "lapses": lapses,
                }
            )
    found.sort(key=lambda leech: -leech["lapses"])
    return found[:LEECHES_SHOWN]


async def chat_session(
    services: Services, chat_id: int, quiz_id: str | None, session_id: int | None
) -> GroupSession | None:
    """The chat's group quiz asked for: by its number, or its latest of `quiz_id`; None when
    the chat has none such (another chat's is never found)."""
    if session_id is not None:
        session = await services.storage.groups.get_session(session_id)
        return session if session is not None and session.chat_id == chat_id else None
    return next(
        (
            s
            for s in await services.storage.groups.recent_sessions(chat_id, 200)
            if s.quiz_id == quiz_id
        ),
        None,
    )


async def chat_assignment(
    services: Services, chat_id: int, assignment_id: int
) -> Assignment | None:
    assignment = await services.storage.homework.get(assignment_id)
    return assignment if assignment is not None and assignment.chat_id == chat_id else None


async def session_grid(services: Services, session: GroupSession, locale: Locale) -> dict[str, Any]:
    """Who answered what in a group quiz (content/grid.py, the one builder `/report` uses
    too): a mark per learner and question, the credit stored with the answer (-1 to 1, null
    not answered), highest totals first. Forgotten members are left out."""
    reports = services.storage.reports
    asked = await reports.asked_positions(session.id)
    ids = dict(asked)
    quiz = services.catalog.get(session.quiz_id)
    learners = [
        grid.Learner(
            member.name,
            member.user_id,
            {ids[position]: credit for position, credit in member.marks.items() if position in ids},
        )
        for member in await reports.session_marks(session.id)
    ]
    built = _ranked(grid.build([(qid, _text(quiz, qid, locale)) for _, qid in asked], learners))
    return {
        "kind": "session",
        "quiz": session.quiz_id,
        "title": _title(quiz, session.quiz_id, locale),
        "session": session.id,
        **built.as_json(),
        "counted": locale.t("n_learners", n=len(built.learners)),
    }


async def homework_grid(
    services: Services, assignment: Assignment, locale: Locale
) -> dict[str, Any]:
    """A homework's grid: every member who opened it, the attempt that counts for each (the
    homework report's reads), those done first. An exam's, before its deadline, says only who
    is done: its marks would be a key to the exam (`hidden`)."""
    storage = services.storage
    quiz = services.catalog.get(assignment.quiz_id)
    takers = await storage.homework.takers(assignment.id)
    done = {taker.user_id: taker.done_by(assignment.deadline) for taker in takers}
    head = {
        "kind": "homework",
        "homework": assignment.id,
        "quiz": assignment.quiz_id,
        "title": _title(quiz, assignment.quiz_id, locale),
        "deadline": assignment.deadline,
        "exam": assignment.exam,
    }
    if exam_hidden(services, assignment):
        ordered = sorted(takers, key=lambda t: (not done[t.user_id], t.name.casefold()))
        return {
            **head,
            "hidden": True,
            "questions": [],
            "learners": [{"name": t.name, "done": done[t.user_id]} for t in ordered],
            "counted": locale.t("n_learners", n=len(takers)),
        }
    attempts = await storage.reports.attempts([taker.attempt_id for taker in takers])
    marks = {attempt.attempt_id: attempt.question_marks for attempt in attempts}
    questions = quiz.questions if quiz is not None else ()
    built = grid.build(
        [(q.id, locale.plain(q.text)) for q in questions],
        [grid.Learner(t.name, t.user_id, marks.get(t.attempt_id, {})) for t in takers],
    )
    rows = sorted(
        zip(built.learners, takers, strict=True),
        key=lambda pair: (not done[pair[1].user_id], -pair[0].total, pair[0].name.casefold()),
    )
    shown = grid.Grid(built.questions, tuple(row for row, _ in rows))
    json = shown.as_json()
    for learner, (_, taker) in zip(json["learners"], rows, strict=True):
        learner["done"] = done[taker.user_id]
    return {
        **head,
        "hidden": False,
        **json,
        "counted": locale.t("n_learners", n=len(takers)),
    }


def exam_hidden(services: Services, assignment: Assignment) -> bool:
    """An exam homework before its deadline: nothing of its answers is shown."""
    return assignment.exam and services.clock() < assignment.deadline


async def session_questions(
    services: Services, session: GroupSession, locale: Locale
) -> dict[str, Any]:
    """How each question of a group quiz fared (bot/dashboard/stats.py)."""
    reports = services.storage.reports
    asked = await reports.asked_positions(session.id)
    groups = await reports.session_answer_groups(session.id)
    quiz = services.catalog.get(session.quiz_id)
    return {
        "title": _title(quiz, session.quiz_id, locale),
        "questions": stats.question_stats(quiz, [qid for _, qid in asked], groups, locale),
    }


async def homework_questions(
    services: Services, assignment: Assignment, locale: Locale
) -> dict[str, Any] | None:
    """How each question of a homework fared; None for an exam before its deadline."""
    if exam_hidden(services, assignment):
        return None
    storage = services.storage
    takers = await storage.homework.takers(assignment.id)
    groups = await storage.reports.attempts_answer_groups([t.attempt_id for t in takers])
    quiz = services.catalog.get(assignment.quiz_id)
    ids = [q.id for q in quiz.questions] if quiz is not None else []
    return {
        "title": _title(quiz, assignment.quiz_id, locale),
        "questions": stats.question_stats(quiz, ids, groups, locale),
    }


def _ranked(built: grid.Grid) -> grid.Grid:
    """The grid's learners, highest total first, then by name."""
    rows = sorted(built.learners, key=lambda row: (-row.total, row.name))
    return grid.Grid(built.questions, tuple(rows))


def _text(quiz: Quiz | None, question_id: str, locale: Locale) -> str:
    question = quiz.question(question_id) if quiz is not None else None
    return locale.plain(question.text) if question is not None else question_id


def _title(quiz: Quiz | None, quiz_id: str, locale: Locale) -> str:
    return locale.plain(quiz.title) if quiz is not None else quiz_id


async def weekly(services: Services, chat_id: int, now: float, locale: Locale) -> dict[str, Any]:
    """The class's last `WEEKS` weeks (this one last): answers (group quizzes and homework),
    learners and the share fully right, and what they say in one sentence (the chart's
    text)."""
    this_week = int((now - FIRST_MONDAY) // WEEK)
    found = await services.storage.reports.weekly_activity(chat_id, weeks_since(now), now)
    answers = sum(activity.answers for activity in found)
    right = sum(activity.right for activity in found)
    summary = locale.t(
        "app_weeks_summary",
        weeks=locale.t("n_weeks", n=WEEKS),
        answers=locale.t("n_answers", n=answers),
        right=round(100 * right / answers) if answers else 0,
    )
    return {"weeks": weekly_series(found, this_week, WEEKS), "summary": summary}


def weeks_since(now: float) -> float:
    """When the class's last `WEEKS` weeks began (this one the last): the window of its weeks
    and of its hardest questions."""
    this_week = int((now - FIRST_MONDAY) // WEEK)
    return FIRST_MONDAY + (this_week - WEEKS + 1) * WEEK


def weekly_series(found: list[WeekActivity], last_week: int, weeks: int) -> list[dict[str, Any]]:
    """`weeks` weeks up to `last_week`, each present (a week without answers: zeros, right %
    none), oldest first."""
    by_week = {activity.week: activity for activity in found}
    series = []
    for week in range(last_week - weeks + 1, last_week + 1):
        activity = by_week.get(week, WeekActivity(week, 0, 0, 0))
        right = round(100 * activity.right / activity.answers) if activity.answers else None
        series.append(
            {
                "starts_at": activity.starts_at,
                "answers": activity.answers,
                "learners": activity.learners,
                "right": right,
            }
        )
    return series
