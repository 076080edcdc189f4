"""What a group quiz leaves behind.

- A member's review of what they missed: the questions of that session they got wrong or did
  not answer, asked now in private as a review session (their FSRS cards updated like any
  review), whatever their due times.
- Reports: a group session's answers member by member, or every learner's latest attempt at
  a quiz, as a file and a short summary, sent into a private chat."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Bot

from bot.core import charts
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.core.tables import to_csv, to_xlsx
from bot.reports import render
from content.group_rules import rank
from content.model import Quiz
from content.schema import MAX_TITLE_LENGTH
from storage import REVIEW, review_item
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
    bot: Bot, services: Services, chat_id: int, user_id: int, found: Missed, locale: Locale
) -> None:
    """Congratulate a member who missed nothing; else start (or resume) their review."""
    quiz = services.catalog.get(found.session.quiz_id)
    if quiz is None or not found.items:
        if quiz is None:
            await bot.send_message(chat_id, locale.t("quiz_gone"))
        else:
            await bot.send_message(chat_id, render.nothing_missed(quiz, locale))
        return
    learners = services.storage.learners
    attempt = await learners.start_attempt(
        user_id, missed_attempt_id(found.session.id), found.items, services.clock(), kind=REVIEW
    )
    if not (await learners.answers(attempt.id)):
        await bot.send_message(chat_id, render.missed_intro(quiz, len(found.items), locale))
    assert services.open_attempt is not None  # the learner feature lends it at start
    await services.open_attempt(bot, services, chat_id, attempt, locale)


# reports


@dataclass(frozen=True)
class Report:
    """A report as it is sent: a short HTML summary, then the file."""

    summary: str
    data: bytes
    file_name: str
    chart: charts.Chart | None = None


REPORT_FORMS = ("csv", "xlsx")


async def session_report(
    services: Services, session: GroupSession, locale: Locale, form: str = "csv"
) -> Report:
    """A group session: every member's answers as a CSV (or XLSX) file, and the summary."""
    quiz = services.catalog.get(session.quiz_id)
    title = locale.plain(quiz.title) if quiz is not None else session.quiz_id
    asked = await services.storage.reports.asked_positions(session.id)
    scores = rank(await services.storage.groups.session_scores(session.id))
    answers = await services.storage.reports.session_answers(session.id)
    table = render.session_table(quiz, asked, scores, answers, locale)
    worst = render.hardest(quiz, asked, answers, locale)
    summary = render.session_summary(title, scores, asked, worst, locale)
    name = render.file_name(session.quiz_id, f"group-{session.id}", form)
    chart = None
    if scores:
        points = [row.points for row in scores]
        alt = locale.t(
            "chart_scores_alt",
            members=locale.t("n_members", n=len(points)),
            low=min(points),
            high=locale.t("n_points", n=max(points)),
        )
        chart = await charts.render(
            charts.score_distribution,
            points,
            f"{title}: {locale.t('chart_scores_title')}",
            locale.t("chart_points"),
            locale.t("chart_members"),
            alt,
        )
    data = to_xlsx(table, session.quiz_id) if form == "xlsx" else to_csv(table)
    return Report(summary, data, name, chart)


async def quiz_report(services: Services, quiz: Quiz, form: str, locale: Locale) -> Report | None:
    """Every learner's latest finished attempt at a quiz; None if nobody finished it."""
    attempts = await services.storage.reports.latest_attempts(quiz.id)
    if not attempts:
        return None
    table = render.quiz_table(quiz, attempts, locale)
    title = locale.text(quiz.title, MAX_TITLE_LENGTH)
    summary = locale.t("report_quiz_caption", title=title, n=len(attempts))
    stamp = int(services.clock())
    data = to_xlsx(table, quiz.id) if form == "xlsx" else to_csv(table)
    return Report(summary, data, render.file_name(quiz.id, str(stamp), form))


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
