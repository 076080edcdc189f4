"""Pure rendering of homework: the post in the group, its results, the list of open ones, the
member's private intro and reminder, the CSV for the teacher."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.i18n import Locale
from bot.core.render import Rendered, clock_text, person, place_mark
from bot.core.tables import Cell, Table, answer_cell, number_cell, question_header
from content.deadlines import local_time
from content.exams import ExamResult, draw, rules_of
from content.model import Quiz
from content.rules import score_text
from content.schema import MAX_TITLE_LENGTH
from storage.homework_store import Assignment, Taker
from storage.report_store import LatestAttempt

BOARD_SIZE = 20


def _title(quiz: Quiz | None, assignment: Assignment, locale: Locale) -> str:
    if quiz is None:
        return html.escape(assignment.quiz_id)
    return locale.text(quiz.title, MAX_TITLE_LENGTH)


def _deadline(assignment: Assignment) -> str:
    return f"{local_time(assignment.deadline, assignment.timezone)} ({assignment.timezone})"


def post(quiz: Quiz, assignment: Assignment, done: int, link: str, locale: Locale) -> Rendered:
    """The assignment in the group: what (an exam: its size and time limit), until when, how
    many are done, and the button that opens it in private."""
    values = {
        "number": assignment.id,
        "title": _title(quiz, assignment, locale),
        "n": len(quiz),
        "deadline": _deadline(assignment),
        "done": done,
    }
    if assignment.exam:
        paper = draw(quiz, rules_of(quiz, assignment.exam_minutes), seed=0)  # its size only
        values.update(n=len(paper.items), minutes=clock_text(paper.seconds))
    text = locale.t("homework_post_exam" if assignment.exam else "homework_post", **values)
    button = InlineKeyboardButton(locale.t("button_homework_start"), url=link)
    return Rendered(text, InlineKeyboardMarkup([[button]]))


def closed_post(
    quiz: Quiz | None, assignment: Assignment, done: int, cancelled: bool, locale: Locale
) -> Rendered:
    """The post once the homework is closed: no button, the final count."""
    key = "homework_post_cancelled" if cancelled else "homework_post_closed"
    text = locale.t(
        key,
        number=assignment.id,
        title=_title(quiz, assignment, locale),
        deadline=_deadline(assignment),
        done=done,
    )
    return Rendered(text)


@dataclass(frozen=True)
class Ranked:
    taker: Taker
    seconds: float  # from starting the attempt to finishing it


def ranking(takers: Sequence[Taker], deadline: float) -> tuple[list[Ranked], int]:
    """Who is done, best first (score, then less time, then who opened it first); and how
    many opened it and did not finish in time."""
    done = [
        Ranked(t, max(0.0, (t.finished_at or 0.0) - t.started_at))
        for t in takers
        if t.done_by(deadline)
    ]
    done.sort(key=lambda r: (-(r.taker.score or 0), r.seconds, r.taker.opened_at))
    return done, len(takers) - len(done)


def results(
    quiz: Quiz | None, assignment: Assignment, takers: Sequence[Taker], locale: Locale
) -> str:
    """The results posted in the group at the deadline (names, never a list of who did not
    finish: only how many)."""
    done, unfinished = ranking(takers, assignment.deadline)
    lines = [
        locale.t("homework_results", number=assignment.id, title=_title(quiz, assignment, locale))
    ]
    if not done:
        lines.append(locale.t("homework_nobody_done"))
    for place, row in enumerate(done[:BOARD_SIZE], start=1):
        lines.append(
            locale.t(
                "homework_line",
                place=place_mark(place),
                name=person(row.taker.name, locale),
                score=score_text(row.taker.score or 0),
                total=row.taker.total,
                seconds=round(row.seconds),
            )
        )
    if len(done) > BOARD_SIZE:
        lines.append(locale.t("and_more", n=len(done) - BOARD_SIZE))
    if unfinished:
        lines.append(locale.t("homework_unfinished", n=unfinished))
    return "\n".join(lines)


def assignments_list(entries: Sequence[tuple[Assignment, Quiz | None, int]], locale: Locale) -> str:
    """`/assignments`: the open ones, with their number, deadline and count done."""
    if not entries:
        return locale.t("homework_none_open")
    lines = [locale.t("homework_list_title")]
    for assignment, quiz, done in entries:
        lines.append(
            locale.t(
                "homework_list_line",
                number=assignment.id,
                title=_title(quiz, assignment, locale),
                deadline=_deadline(assignment),
                done=done,
            )
        )
    return "\n".join(lines)


def intro(quiz: Quiz, assignment: Assignment, locale: Locale) -> str:
    """In private, before the first question."""
    return locale.t(
        "homework_intro",
        title=_title(quiz, assignment, locale),
        deadline=_deadline(assignment),
    )


def handed_in(quiz: Quiz | None, assignment: Assignment, taker: Taker, locale: Locale) -> str:
    return locale.t(
        "homework_handed_in_exam" if assignment.exam else "homework_handed_in",
        title=_title(quiz, assignment, locale),
        score=score_text(taker.score or 0),
        total=taker.total,
    )


def reminder(quiz: Quiz | None, assignment: Assignment, locale: Locale) -> str:
    return locale.t(
        "homework_reminder_exam" if assignment.exam else "homework_reminder",
        title=_title(quiz, assignment, locale),
        deadline=_deadline(assignment),
        quiz_id=html.escape(assignment.quiz_id),
    )


def table(
    quiz: Quiz | None,
    assignment: Assignment,
    takers: Sequence[Taker],
    attempts: Sequence[LatestAttempt],
    locale: Locale,
    sections: Mapping[int, ExamResult] | None = None,
) -> Table:
    """Every member who opened the homework: done in time or not, score, time, and one column
    per question of the quiz; for an exam, before the questions, one column per section of
    its paper (`sections`: each attempt's result, by attempt)."""
    questions = quiz.questions if quiz is not None else ()
    titles = _section_titles(sections or {}, locale)
    header = (
        "name", "user id", "done", "score", "total", "time (s)", *titles,
        *(question_header(n, q, q.id, locale) for n, q in enumerate(questions, 1)),
    )  # fmt: skip
    by_attempt = {attempt.attempt_id: attempt for attempt in attempts}
    done, _ = ranking(takers, assignment.deadline)
    order = [row.taker for row in done] + [t for t in takers if not t.done_by(assignment.deadline)]
    seconds = {row.taker.user_id: round(row.seconds, 1) for row in done}
    rows = []
    for taker in order:
        finished = taker.done_by(assignment.deadline)
        cells: list[Cell] = [
            taker.name,
            taker.user_id,
            "yes" if finished else "no",
            number_cell(taker.score or 0) if finished else None,
            taker.total,
            seconds.get(taker.user_id),
            *_section_cells((sections or {}).get(taker.attempt_id), titles, locale),
        ]
        answers = by_attempt[taker.attempt_id].answers if taker.attempt_id in by_attempt else {}
        for question in questions:
            given = answers.get(question.id)
            cells.append(
                None
                if given is None
                else answer_cell(question, given.chosen, given.credit, given.reply)
            )
        rows.append(tuple(cells))
    return Table(header, tuple(rows))


def _section_titles(results: Mapping[int, ExamResult], locale: Locale) -> list[str]:
    """The sections' columns: each title once, in the papers' order."""
    titles: dict[str, None] = {}
    for result in results.values():
        for part in result.parts:
            if part.title is not None:
                titles[locale.plain(part.title)] = None
    return list(titles)


def _section_cells(result: ExamResult | None, titles: Sequence[str], locale: Locale) -> list[Cell]:
    """A taker's points in each section (with the penalty), empty where they have none."""
    if result is None:
        return [None] * len(titles)
    points = {locale.plain(part.title): float(part.points) for part in result.parts if part.title}
    return [number_cell(points[title]) if title in points else None for title in titles]
