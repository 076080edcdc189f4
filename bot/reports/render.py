"""Pure rendering of what a group quiz leaves behind: data in, HTML text, keyboards and report
tables out."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core.i18n import Locale
from bot.core.tables import Cell, Table, answer_cell, question_header
from content.model import Quiz, clip
from content.schema import MAX_TITLE_LENGTH
from storage.group_store import ScoreRow
from storage.report_store import LatestAttempt, SessionAnswer


def missed_intro(quiz: Quiz, count: int, locale: Locale) -> str:
    return locale.t("missed_intro", title=locale.text(quiz.title, MAX_TITLE_LENGTH), n=count)


def nothing_missed(quiz: Quiz, locale: Locale) -> str:
    return locale.t("missed_none", title=locale.text(quiz.title, MAX_TITLE_LENGTH))


# reports: tables and the summary


def session_table(
    quiz: Quiz | None,
    asked: Sequence[tuple[int, str]],
    scores: Sequence[ScoreRow],
    answers: Sequence[SessionAnswer],
    locale: Locale,
) -> Table:
    """A group session: one row per member (ranked), one column per question asked."""
    by_member: dict[int, dict[int, SessionAnswer]] = {}
    for answer in answers:
        by_member.setdefault(answer.user_id, {})[answer.position] = answer
    questions = {qid: quiz.question(qid) if quiz is not None else None for _, qid in asked}
    header = (
        "name", "user id", "points", "right", "answered", "total time (s)",
        *(question_header(n, questions[qid], qid, locale) for n, (_, qid) in enumerate(asked, 1)),
    )  # fmt: skip
    rows = []
    for row in scores:
        mine = by_member.get(row.user_id, {})
        cells: list[Cell] = [
            locale.t("deleted_learner") if row.forgotten else row.name,
            None if row.forgotten else row.user_id,
            row.points,
            row.correct,
            row.answered,
            round(row.total_time, 1),
        ]
        for position, qid in asked:
            given = mine.get(position)
            cells.append(
                None if given is None else answer_cell(questions[qid], given.chosen, given.correct)
            )
        rows.append(tuple(cells))
    return Table(header, tuple(rows))


@dataclass(frozen=True)
class Hardest:
    number: int  # 1-based, in the order asked
    text: str  # plain
    right: int
    answered: int


def hardest(
    quiz: Quiz | None,
    asked: Sequence[tuple[int, str]],
    answers: Sequence[SessionAnswer],
    locale: Locale,
) -> Hardest | None:
    """The question asked with the smallest share of right answers (the first, on a tie);
    None if nobody answered anything."""
    found = None
    for number, (position, qid) in enumerate(asked, 1):
        mine = [a for a in answers if a.position == position]
        if not mine:
            continue
        right = sum(a.correct for a in mine)
        if found is None or right * found.answered < found.right * len(mine):
            question = quiz.question(qid) if quiz is not None else None
            text = locale.plain(question.text) if question is not None else qid
            found = Hardest(number, text, right, len(mine))
    return found


def session_summary(
    title: str,
    scores: Sequence[ScoreRow],
    asked: Sequence[tuple[int, str]],
    worst: Hardest | None,
    locale: Locale,
) -> str:
    """Participants, the average, the hardest question. `title` plain."""
    lines = [locale.t("report_title", title=html.escape(title))]
    count = len(scores)
    lines.append(locale.t("report_participants", n=count))
    if count:
        points = sum(row.points for row in scores) / count
        right = sum(row.correct for row in scores) / count
        lines.append(
            locale.t("report_average", n=round(points), right=f"{right:.1f}", questions=len(asked))
        )
    if worst is not None:
        lines.append(
            locale.t(
                "report_hardest",
                k=worst.number,
                text=html.escape(clip(worst.text, 120)),
                right=worst.right,
                answered=worst.answered,
            )
        )
    return "\n".join(lines)


def quiz_table(quiz: Quiz, attempts: Sequence[LatestAttempt], locale: Locale) -> Table:
    """Every learner's latest finished attempt at a quiz: one row each, one column per
    question of the quiz as it is now."""
    header = (
        "name", "user id", "score", "total", "started (UTC)", "finished (UTC)",
        *(question_header(n, q, q.id, locale) for n, q in enumerate(quiz.questions, 1)),
    )  # fmt: skip
    rows = []
    for attempt in attempts:
        cells: list[Cell] = [
            attempt.name,
            attempt.user_id,
            attempt.score,
            attempt.total,
            utc(attempt.started_at),
            utc(attempt.finished_at),
        ]
        for question in quiz.questions:
            given = attempt.answers.get(question.id)
            cells.append(None if given is None else answer_cell(question, *given))
        rows.append(tuple(cells))
    return Table(header, tuple(rows))


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S")


def file_name(quiz_id: str, suffix: str, extension: str) -> str:
    return f"report-{quiz_id}-{suffix}.{extension}"
