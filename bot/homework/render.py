"""Pure rendering of homework: the post in the group, its results, the list of open ones, the
member's private intro and reminder, the CSV for the teacher."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import Rendered, clock_text, person, place_mark
from bot.core.tables import (
    Cell,
    Table,
    answer_cell,
    answers_header,
    grid_cells,
    grid_header,
    number_cell,
)
from content import grid
from content.deadlines import local_time
from content.exams import ExamResult, draw, rules_of
from content.model import Quiz
from content.rules import score_text
from content.schema import MAX_TITLE_LENGTH
from storage.homework_store import BEST, Assignment, Taker
from storage.report_store import LatestAttempt

BOARD_SIZE = 20


def _title(quiz: Quiz | None, assignment: Assignment | None, locale: Locale) -> str:
    if quiz is None:
        return html.escape(assignment.quiz_id if assignment is not None else "")
    return locale.text(quiz.title, MAX_TITLE_LENGTH)


def _deadline(assignment: Assignment) -> str:
    return f"{local_time(assignment.deadline, assignment.timezone)} ({assignment.timezone})"


def _counts(assignment: Assignment, locale: Locale) -> str:
    """Which attempt counts, and whether each member's questions come in their own order."""
    said = locale.t(
        "homework_counts_best" if assignment.counts == BEST else "homework_counts_first"
    )
    return f"{said} {locale.t('homework_shuffled')}" if assignment.shuffled else said


def post(quiz: Quiz, assignment: Assignment, done: int, link: str, locale: Locale) -> Rendered:
    """The assignment in the group: what (an exam: its size and time limit), until when,
    which attempt counts, how many are done, and the button that opens it in private."""
    values = {
        "number": assignment.id,
        "title": _title(quiz, assignment, locale),
        "n": len(quiz),
        "deadline": _deadline(assignment),
        "counts": _counts(assignment, locale),
        "done": done,
    }
    if assignment.exam:
        paper = draw(quiz, rules_of(quiz, assignment.exam_minutes), seed=0)  # its size only
        values.update(n=len(paper.items), minutes=clock_text(paper.seconds))
    text = locale.t("homework_post_exam" if assignment.exam else "homework_post", **values)
    button = InlineKeyboardButton(locale.t("button_homework_start"), url=link)
    return Rendered(text, InlineKeyboardMarkup([[button]]))


def assigned_there(quiz: Quiz, assignment: Assignment, chat_title: str, locale: Locale) -> str:
    """In private, to the admin who set a homework for a picked group."""
    return locale.t(
        "homework_assigned_there",
        number=assignment.id,
        title=_title(quiz, assignment, locale),
        chat=html.escape(chat_title),
        deadline=_deadline(assignment),
    )


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


def intro(quiz: Quiz, assignment: Assignment, before: Taker | None, locale: Locale) -> str:
    """In private, before an attempt's first question; `before`: the member's standing from
    their earlier attempts (where the best counts)."""
    text = locale.t(
        "homework_intro",
        title=_title(quiz, assignment, locale),
        deadline=_deadline(assignment),
        counts=_counts(assignment, locale),
    )
    if before is not None and before.done_by(assignment.deadline):
        text += "\n" + locale.t("homework_best_so_far", score=before.score, total=before.total)
    return text


def handed_in(quiz: Quiz | None, assignment: Assignment, taker: Taker, locale: Locale) -> str:
    return locale.t(
        "homework_handed_in_exam" if assignment.exam else "homework_handed_in",
        title=_title(quiz, assignment, locale),
        score=score_text(taker.score or 0),
        total=taker.total,
    )


def practice_offer(
    quiz: Quiz | None, assignment: Assignment, taker: Taker, missed: int, locale: Locale
) -> Rendered:
    """Once the homework has closed: what the member missed, and a round of it now."""
    tap = callbacks.PractiseMissed(taker.attempt_id)
    button = InlineKeyboardButton(locale.t("button_practise", n=missed), callback_data=tap.encode())
    return Rendered(
        locale.t("practice_homework_closed", title=_title(quiz, assignment, locale), n=missed),
        InlineKeyboardMarkup([[button]]),
    )


def reminder(quiz: Quiz | None, assignment: Assignment, link: str, locale: Locale) -> Rendered:
    """The one nudge in private, with the homework's own link (its attempt, not the quiz's)."""
    text = locale.t(
        "homework_reminder_exam" if assignment.exam else "homework_reminder",
        title=_title(quiz, assignment, locale),
        deadline=_deadline(assignment),
    )
    button = InlineKeyboardButton(locale.t("button_homework_continue"), url=link)
    return Rendered(text, InlineKeyboardMarkup([[button]]))


def done_table(assignment: Assignment, takers: Sequence[Taker]) -> Table:
    """Who opened the homework and who is done, nothing more (an exam's before its deadline)."""
    rows = tuple(
        (taker.name, taker.user_id, "yes" if taker.done_by(assignment.deadline) else "no")
        for taker in takers
    )
    return Table(("name", "user id", "done"), rows)


def table(
    quiz: Quiz | None,
    assignment: Assignment,
    takers: Sequence[Taker],
    attempts: Sequence[LatestAttempt],
    locale: Locale,
    sections: Mapping[int, ExamResult] | None = None,
) -> Table:
    """Every member who opened the homework, those done first (ranked): done in time or not,
    score, time; for an exam, one column per section of its paper (`sections`: each
    attempt's result, by attempt); the grid of their attempt that counts (credit, a mark per
    question of the quiz: an exam's questions not on their paper are unasked), then the
    answers given."""
    questions = quiz.questions if quiz is not None else ()
    titles = _section_titles(sections or {}, locale)
    by_attempt = {attempt.attempt_id: attempt for attempt in attempts}
    done, _ = ranking(takers, assignment.deadline)
    order = [row.taker for row in done] + [t for t in takers if not t.done_by(assignment.deadline)]
    seconds = {row.taker.user_id: round(row.seconds, 1) for row in done}
    marks = grid.build(
        [(q.id, locale.plain(q.text)) for q in questions],
        [
            grid.Learner(
                t.name,
                t.user_id,
                by_attempt[t.attempt_id].question_marks if t.attempt_id in by_attempt else {},
            )
            for t in order
        ],
    )
    header = (
        "name", "user id", "done", "score", "total", "time (s)", *titles,
        *grid_header(marks), *answers_header(marks),
    )  # fmt: skip
    rows = []
    for taker, marked in zip(order, marks.learners, strict=True):
        finished = taker.done_by(assignment.deadline)
        cells: list[Cell] = [
            taker.name,
            taker.user_id,
            "yes" if finished else "no",
            number_cell(taker.score or 0) if finished else None,
            taker.total,
            seconds.get(taker.user_id),
            *_section_cells((sections or {}).get(taker.attempt_id), titles, locale),
            *grid_cells(marked),
        ]
        answers = by_attempt[taker.attempt_id].answers if taker.attempt_id in by_attempt else {}
        for question in questions:
            given = answers.get(question.id)
            if given is None:
                cells.append(None)
            else:
                chosen, _, credit, reply = given
                cells.append(answer_cell(question, chosen, credit, reply))
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


def setup_menu(
    quiz: Quiz, hours: Sequence[int], best: bool, shuffle: bool, locale: Locale
) -> Rendered:
    """`/assign`'s menu once a quiz is chosen: the two options as toggles (☑️ when on), then a
    button per common deadline that sets the homework with them."""

    def setup(at: int, best: bool = best, shuffle: bool = shuffle) -> str:
        return callbacks.AssignSetup(quiz.id, at, int(best), int(shuffle)).encode()

    toggles = [
        InlineKeyboardButton(
            locale.t("menu_best_button", mark="☑️" if best else "⬜"),
            callback_data=setup(0, best=not best),
        ),
        InlineKeyboardButton(
            locale.t("menu_shuffle_button", mark="☑️" if shuffle else "⬜"),
            callback_data=setup(0, shuffle=not shuffle),
        ),
    ]
    deadlines = [
        InlineKeyboardButton(locale.t(f"menu_deadline_{at}h"), callback_data=setup(at))
        for at in hours
    ]
    text = locale.t("menu_until_when", title=_title(quiz, None, locale), n=len(quiz))
    return Rendered(text, InlineKeyboardMarkup([toggles, deadlines]))


def homework_or_exam(quiz: Quiz, hours: int, best: bool, shuffle: bool, locale: Locale) -> Rendered:
    """`/assign`'s menu once the deadline is chosen: as homework, or as an exam in the bank's
    minutes (the default time limit if it names none, as `/assign <quiz> <deadline> exam`
    sets it): its size, time, and which attempt counts. A bank that declares an exam offers
    the exam first."""

    def setup(exam: bool) -> str:
        return callbacks.AssignAs(quiz.id, hours, int(best), int(shuffle), int(exam)).encode()

    paper = draw(quiz, rules_of(quiz), seed=0)  # its size and time only
    whole, part = divmod(paper.seconds, 60)
    minutes = clock_text(paper.seconds) if part else locale.t("menu_exam_minutes", n=whole)
    attempts = rules_of(quiz).attempts if best else 1
    if attempts == 1:
        counts = locale.t("menu_exam_counts_one")
    elif attempts == 0:
        counts = locale.t("menu_exam_counts_any")
    else:
        counts = locale.t("menu_exam_counts_best", n=attempts)
    text = locale.t(
        "menu_homework_or_exam",
        title=_title(quiz, None, locale),
        deadline=locale.t(f"menu_deadline_{hours}h"),
        n=len(paper.items),
        minutes=minutes,
        counts=counts,
    )
    homework = InlineKeyboardButton(locale.t("menu_as_homework"), callback_data=setup(False))
    exam = InlineKeyboardButton(
        locale.t("menu_as_exam", minutes=minutes), callback_data=setup(True)
    )
    row = [exam, homework] if quiz.exam is not None else [homework, exam]
    return Rendered(text, InlineKeyboardMarkup([row]))
