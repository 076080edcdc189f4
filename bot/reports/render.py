"""Pure rendering of what a group quiz leaves behind: data in, HTML text, keyboards and report
tables out."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core.i18n import Locale
from bot.core.render import person
from bot.core.tables import (
    AnswerCells,
    Cell,
    Table,
    answers_header,
    grid_cells,
    grid_header,
    number_cell,
)
from content import grid
from content.grid import Grid
from content.model import Quiz, clip
from content.schema import MAX_TITLE_LENGTH
from storage.group_store import ScoreRow
from storage.report_store import GivenAnswer, LatestAttempt, SessionAnswer


def missed_intro(quiz: Quiz, count: int, locale: Locale) -> str:
    return locale.t("missed_intro", title=locale.text(quiz.title, MAX_TITLE_LENGTH), n=count)


def nothing_missed(quiz: Quiz, locale: Locale) -> str:
    return locale.t("missed_none", title=locale.text(quiz.title, MAX_TITLE_LENGTH))


# reports: tables and the summary


def session_grid(
    quiz: Quiz | None,
    asked: Sequence[tuple[int, str]],
    scores: Sequence[ScoreRow],
    answers: Sequence[SessionAnswer],
    locale: Locale,
) -> Grid:
    """A group session's learner × question grid: its members ranked, its questions in the
    order asked."""
    by_member: dict[int, dict[str, float]] = {}
    ids = dict(asked)
    for user_id, position, _, _, credit in answers:
        by_member.setdefault(user_id, {})[ids[position]] = credit
    learners = [
        grid.Learner(
            "" if row.forgotten else row.name,
            None if row.forgotten else row.user_id,
            by_member.get(row.user_id, {}),
        )
        for row in scores
    ]
    return grid.build([(qid, _question_text(quiz, qid, locale)) for _, qid in asked], learners)


def _question_text(quiz: Quiz | None, question_id: str, locale: Locale) -> str:
    question = quiz.question(question_id) if quiz is not None else None
    return question_id if question is None else locale.plain(question.text)


def session_table(
    quiz: Quiz | None,
    asked: Sequence[tuple[int, str]],
    scores: Sequence[ScoreRow],
    answers: Sequence[SessionAnswer],
    locale: Locale,
    marks: Grid | None = None,
) -> Table:
    """A group session: one row per member (ranked); the grid (total, a mark per question
    asked: `marks` if the caller built it), then the answers given."""
    by_member: dict[int, dict[int, SessionAnswer]] = {}
    for answer in answers:
        by_member.setdefault(answer[0], {})[answer[1]] = answer  # by member, then position
    questions = {qid: quiz.question(qid) if quiz is not None else None for _, qid in asked}
    if marks is None:
        marks = session_grid(quiz, asked, scores, answers, locale)
    answer_cell = AnswerCells()
    header = (
        "name", "user id", "points", "right", "answered", "total time (s)",
        *grid_header(marks), *answers_header(marks),
    )  # fmt: skip
    rows = []
    for row, marked in zip(scores, marks.learners, strict=True):
        mine = by_member.get(row.user_id, {})
        cells: list[Cell] = [
            locale.t("deleted_learner") if row.forgotten else row.name,
            None if row.forgotten else row.user_id,
            row.points,
            row.correct,
            row.answered,
            round(row.total_time, 1),
            *grid_cells(marked),
        ]
        for position, qid in asked:
            given = mine.get(position)
            if given is None:
                cells.append(None)
            else:
                _, _, chosen, _, credit = given
                cells.append(answer_cell(questions[qid], chosen, credit))
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
    answered: Counter[int] = Counter()
    right: Counter[int] = Counter()
    for _, position, _, correct, _ in answers:
        answered[position] += 1
        right[position] += correct
    found = None
    for number, (position, qid) in enumerate(asked, 1):
        if not answered[position]:
            continue
        if found is None or right[position] * found.answered < found.right * answered[position]:
            question = quiz.question(qid) if quiz is not None else None
            text = locale.plain(question.text) if question is not None else qid
            found = Hardest(number, text, right[position], answered[position])
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


MAX_LEECHES_SHOWN = 20  # lines of leeches in a report's summary; the rest counted


def leeches(
    quiz: Quiz | None, rows: Sequence[tuple[int, str, str, int]], lapses: int, locale: Locale
) -> str | None:
    """The leeches among a quiz's learners, per learner and question (from
    `LearnerStore.leeches`): the questions a learner forgets again and again once learned,
    which a teacher may want to explain another way. None when there is none."""
    if not rows:
        return None
    lines = [locale.t("report_leeches", n=lapses)]
    for _, name, question_id, count in rows[:MAX_LEECHES_SHOWN]:
        question = quiz.question(question_id) if quiz is not None else None
        position = quiz.position(question_id) if quiz is not None else None
        text = locale.plain(question.text) if question is not None else question_id
        lines.append(
            locale.t(
                "report_leech_line",
                name=person(name, locale),
                number=position + 1 if position is not None else "?",
                question=html.escape(clip(" ".join(text.split()), 80)),
                lapses=count,
            )
        )
    if len(rows) > MAX_LEECHES_SHOWN:
        lines.append(locale.t("and_more", n=len(rows) - MAX_LEECHES_SHOWN))
    return "\n".join(lines)


def attempts_grid(quiz: Quiz, attempts: Sequence[LatestAttempt], locale: Locale) -> Grid:
    """These attempts' grid (in their order), a column per question of the quiz as it is
    now, each mark the credit stored with the answer."""
    learners = [grid.Learner(a.name, a.user_id, a.question_marks) for a in attempts]
    return grid.build([(q.id, locale.plain(q.text)) for q in quiz.questions], learners)


def quiz_table(
    quiz: Quiz, attempts: Sequence[LatestAttempt], locale: Locale, marks: Grid | None = None
) -> Table:
    """Every learner's latest finished attempt at a quiz: one row each; the grid (total, a
    mark per question of the quiz as it is now: `marks` if the caller built it), then the
    answers given."""
    if marks is None:
        marks = attempts_grid(quiz, attempts, locale)
    answer_cell = AnswerCells()
    header = (
        "name", "user id", "score", "total", "started (UTC)", "finished (UTC)",
        *grid_header(marks), *answers_header(marks),
    )  # fmt: skip
    rows = []
    for attempt, marked in zip(attempts, marks.learners, strict=True):
        cells: list[Cell] = [
            attempt.name,
            attempt.user_id,
            number_cell(attempt.score),
            attempt.total,
            utc(attempt.started_at),
            utc(attempt.finished_at),
            *grid_cells(marked),
        ]
        for question in quiz.questions:
            given = attempt.answers.get(question.id)
            cells.append(None if given is None else answer_cell(question, *_cell_of(given)))
        rows.append(tuple(cells))
    return Table(header, tuple(rows))


def _cell_of(given: GivenAnswer) -> tuple[int, float, str | None]:
    """What a report's cell shows of an attempt's answer: (chosen, credit, reply)."""
    chosen, _, credit, reply = given
    return chosen, credit, reply


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S")


def file_name(quiz_id: str, suffix: str, extension: str) -> str:
    return f"report-{quiz_id}-{suffix}.{extension}"
