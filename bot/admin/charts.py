"""The chart `/stats` sends besides its text: per quiz, the share of right answers per
question, hardest first."""

from __future__ import annotations

import asyncio
import html

from bot.core import charts
from bot.core.context import Services
from bot.core.i18n import Locale
from content.model import Quiz, clip
from storage.content_store import QuestionStat


async def stats_chart(services: Services, locale: Locale) -> charts.Chart | None:
    stats = await services.storage.content.question_stats()
    # every question of a large catalog: off the event loop (then drawn in the drawing process)
    return await asyncio.to_thread(_chart, list(services.catalog), stats, locale)


def _chart(quizzes: list[Quiz], stats: list[QuestionStat], locale: Locale) -> charts.Chart | None:
    by_question = {(s.quiz_id, s.question_id): s for s in stats if s.answers}
    panels = []
    hardest = []
    for quiz in quizzes:
        rows = []
        for number, question in enumerate(quiz.questions, 1):
            stat = by_question.get((quiz.id, question.id))
            if stat is not None:
                label = f"{number}. {clip(locale.label(question.text), 60)}"
                rows.append((label, stat.correct, stat.answers, number))
        if not rows:
            continue
        title = locale.plain(quiz.title)
        panels.append(charts.QuizShares(title, [(label, r, n) for label, r, n, _ in rows]))
        label, right, answered, number = min(rows, key=lambda row: (row[1] / row[2], row[3]))
        percent = round(100 * right / answered)
        hardest.append(
            locale.t("chart_stats_quiz", title=html.escape(title), k=number, percent=percent)
        )
    if not panels:
        return None
    alt = locale.t("chart_stats_alt", hardest=" ".join(hardest[:6]))
    title = locale.t("chart_stats_title", title=charts.TITLE_SLOT)
    return charts.drawn(charts.hardest_first, panels[: charts.MAX_PANELS], title, alt)
