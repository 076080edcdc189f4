"""What a group quiz leaves behind.

- A member's review of what they missed: the questions of that session they got wrong or did
  not answer, asked now in private as a round of practice (their FSRS cards updated like any
  review, in short-term steps), whatever their due times; its end offers another round of
  what is still missed.
- Reports: a group session's answers member by member, or every learner's latest attempt at
  a quiz, as a file and a short summary, sent into a private chat."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from telegram import Bot

from bot.core import charts
from bot.core.context import AttemptOpener, Services
from bot.core.i18n import Locale
from bot.core.tables import to_csv, to_xlsx
from bot.reports import render
from content.grid import Grid
from content.group_rules import rank
from content.model import Quiz
from content.schema import MAX_TITLE_LENGTH
from content.spacing import LEECH_LAPSES
from storage import PRACTICE, review_item
from storage.group_store import GroupSession

MISSED_QUIZ_PREFIX = ":missed:"  # never a quiz id: one running review per member and session


def missed_attempt_id(session_id: int) -> str:
    """The attempt name of a member's review of session `session_id`: pressing the link again
    resumes it while it runs."""
    return f"{MISSED_QUIZ_PREFIX}{session_id}"


@dataclass(frozen=True)
class Missed:
    session: GroupSession
    items: tuple[str, ...]  # review items (quiz/question) still in the catalog, in quiz order


async def missed(services: Services, session: GroupSession, user_id: int) -> Missed:
    """The questions the session asked that this member got wrong or left unanswered."""
    results = await services.storage.groups.member_results(session.id, user_id)
    quiz = services.catalog.get(session.quiz_id)
    items = tuple(
        review_item(session.quiz_id, result.question_id)
        for result in results
        if not result.correct and quiz is not None and quiz.question(result.question_id) is not None
    )
    return Missed(session, items)


async def open_missed(
    bot: Bot,
    services: Services,
    chat_id: int,
    user_id: int,
    found: Missed,
    locale: Locale,
    open_attempt: AttemptOpener,
) -> None:
    """Congratulate a member who missed nothing; else start (or resume) their review, asked
    by `open_attempt` (the learner's)."""
    quiz = services.catalog.get(found.session.quiz_id)
    if quiz is None or not found.items:
        if quiz is None:
            await bot.send_message(chat_id, locale.t("quiz_gone"))
        else:
            await bot.send_message(chat_id, render.nothing_missed(quiz, locale))
        return
    learners = services.storage.learners
    attempt = await learners.start_attempt(
        user_id, missed_attempt_id(found.session.id), found.items, services.clock(), kind=PRACTICE
    )
    if not (await learners.answers(attempt.id)):
        await bot.send_message(chat_id, render.missed_intro(quiz, len(found.items), locale))
    await open_attempt(bot, services, chat_id, attempt, locale)


# reports


@dataclass(frozen=True)
class Report:
    """A report as it is sent: a short HTML summary, then the file."""

    summary: str
    data: bytes
    file_name: str
    chart: charts.Chart | None = None


async def session_report(
    services: Services, session: GroupSession, locale: Locale, form: str = "csv"
) -> Report:
    """A group session: the grid as a picture, every member's marks and answers as a CSV (or
    XLSX) file, and the summary."""
    quiz = services.catalog.get(session.quiz_id)
    title = locale.plain(quiz.title) if quiz is not None else session.quiz_id
    asked = await services.storage.reports.asked_positions(session.id)
    scores = rank(await services.storage.groups.session_scores(session.id))
    answers = await services.storage.reports.session_answers(session.id)

    # a 10,000-member group's grid and file: off the event loop; the picture is drawn (in the
    # drawing process) while the file is written
    marks = await asyncio.to_thread(render.session_grid, quiz, asked, scores, answers, locale)
    picture = asyncio.ensure_future(grid_picture(marks, title, locale))

    def written() -> tuple[bytes, str]:
        table = render.session_table(quiz, asked, scores, answers, locale, marks)
        worst = render.hardest(quiz, asked, answers, locale)
        data = to_xlsx(table, session.quiz_id) if form == "xlsx" else to_csv(table)
        return data, render.session_summary(title, scores, asked, worst, locale)

    try:
        data, summary = await asyncio.to_thread(written)
        members = {row.user_id for row in scores}
        summary = _with_leeches(
            summary, quiz, await _leeches(services, session.quiz_id, members), locale
        )
    except BaseException:
        picture.cancel()
        raise
    name = render.file_name(session.quiz_id, f"group-{session.id}", form)
    return Report(summary, data, name, await picture)


async def quiz_report(services: Services, quiz: Quiz, form: str, locale: Locale) -> Report | None:
    """Every learner's latest finished attempt at a quiz (a homework's too): the grid as a
    picture and the file; None if nobody finished it."""
    attempts = await services.storage.reports.latest_attempts(quiz.id)
    if not attempts:
        return None

    # every learner of a popular quiz: the grid and the file off the event loop, the picture
    # drawn while the file is written
    marks = await asyncio.to_thread(render.attempts_grid, quiz, attempts, locale)
    picture = asyncio.ensure_future(grid_picture(marks, locale.plain(quiz.title), locale))

    def written() -> bytes:
        table = render.quiz_table(quiz, attempts, locale, marks)
        return to_xlsx(table, quiz.id) if form == "xlsx" else to_csv(table)

    try:
        data = await asyncio.to_thread(written)
        title = locale.text(quiz.title, MAX_TITLE_LENGTH)
        summary = locale.t("report_quiz_caption", title=title, n=len(attempts))
        summary = _with_leeches(summary, quiz, await _leeches(services, quiz.id), locale)
    except BaseException:
        picture.cancel()
        raise
    stamp = int(services.clock())
    return Report(summary, data, render.file_name(quiz.id, str(stamp), form), await picture)


async def grid_picture(marks: Grid, title: str, locale: Locale) -> charts.Chart | None:
    """Who got what, as a picture: the whole grid when it fits a phone, else the hardest
    questions and the lowest totals, saying how many more are in the file."""
    if not marks.learners or not marks.questions:
        return None
    # 10,000 learners' totals ranked: off the event loop
    shown = await asyncio.to_thread(
        marks.fitted, charts.MAX_GRID_LEARNERS, charts.MAX_GRID_QUESTIONS
    )
    left_out = [
        locale.t(key, n=n)
        for key, n in (
            ("chart_grid_more_learners", shown.learners_left_out),
            ("chart_grid_more_questions", shown.questions_left_out),
        )
        if n
    ]
    labels = charts.GridLabels(
        title=locale.t("chart_grid_title", title=title),
        total=locale.t("chart_grid_total"),
        share=locale.t("chart_grid_share"),
        deleted=locale.t("deleted_learner"),
        left_out=locale.t("chart_grid_in_file", what=", ".join(left_out)) if left_out else "",
        alt=locale.t(
            "chart_grid_alt",
            learners=locale.t("n_learners", n=len(shown.grid.learners)),
            questions=locale.t("n_questions", n=len(shown.grid.questions)),
        ),
    )
    return await charts.render(charts.learner_grid, shown, labels)


async def _leeches(
    services: Services, quiz_id: str, among: set[int] | None = None
) -> list[tuple[int, str, str, int]]:
    """The quiz's leeches, per learner and question; only `among` these learners if given."""
    rows = await services.storage.learners.leeches(quiz_id, LEECH_LAPSES)
    return [row for row in rows if among is None or row[0] in among]


def _with_leeches(
    summary: str, quiz: Quiz | None, rows: list[tuple[int, str, str, int]], locale: Locale
) -> str:
    listed = render.leeches(quiz, rows, LEECH_LAPSES, locale)
    return summary if listed is None else f"{summary}\n\n{listed}"


async def send_report(bot: Bot, chat_id: int, report: Report) -> None:
    """Into a private chat: the summary, then the file."""
    await bot.send_message(chat_id, report.summary)
    if report.chart is not None:
        await bot.send_photo(chat_id, report.chart.png, caption=report.chart.alt)
    await bot.send_document(chat_id, report.data, filename=report.file_name)


# what the dashboard is lent (bot/app.py hands these over): a session's report as a file, or
# sent into a private chat as /report sends it


async def report_file(
    services: Services, session: GroupSession, locale: Locale, form: str
) -> tuple[str, bytes]:
    built = await session_report(services, session, locale, form)
    return built.file_name, built.data


async def send_session_report(
    bot: Bot, services: Services, chat_id: int, session: GroupSession, locale: Locale, form: str
) -> None:
    await send_report(bot, chat_id, await session_report(services, session, locale, form))
