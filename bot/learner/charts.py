"""The chart `/progress` sends besides its text: the reviews due per day over the next 30 days
(Anki's "Future due"), answers per day over the last 30 days (right and wrong stacked) and
mastery per quiz; a panel with nothing to show is left out, and so are empty ranges of days.
A learner with no answers gets text only."""

from __future__ import annotations

import html
from datetime import date, datetime, timedelta

from bot.core import charts
from bot.core.context import Services
from bot.core.i18n import Locale
from content.progress import Mastery
from content.rules import zone
from content.study import forecast, local_date
from storage import User

DAYS = 30
EPOCH = date(1970, 1, 1)


async def progress_chart(
    services: Services, learner: User, mastery: dict[str, Mastery], locale: Locale
) -> charts.Chart | None:
    now = services.clock()
    tz = zone(learner.timezone or services.settings.default_timezone)
    utc_offset = datetime.fromtimestamp(now, tz).utcoffset()
    offset = int(utc_offset.total_seconds()) if utc_offset is not None else 0
    today = int((now + offset) // 86400)
    since = (today - DAYS + 1) * 86400 - offset
    counts = await services.storage.reports.daily_answers(learner.user_id, since, offset)
    if not counts and not any(m.seen for m in mastery.values()):
        return None
    days = [
        charts.Day(EPOCH + timedelta(days=day), *counts.get(day, (0, 0)))
        for day in range(today - DAYS + 1, today + 1)
    ]
    cards = await services.storage.learners.cards(learner.user_id)
    first = local_date(now, tz)
    ahead = [
        charts.Due(first + timedelta(days=offset), count)
        for offset, count in enumerate(forecast((card.due for card in cards), now, tz))
    ]
    rows = [
        (locale.plain(quiz.title), mastery[quiz.id].percent)
        for quiz in services.catalog
        if quiz.id in mastery
    ]

    right, wrong, active = charts.day_totals(days)
    listed = "; ".join(f"{html.escape(title)} {percent}%" for title, percent in rows)
    answers = locale.t("chart_progress_alt", right=right, wrong=wrong, n=active, mastery=listed)
    alt = f"{answers} {_forecast_alt(ahead, locale)}"
    labels = charts.ProgressLabels(
        answers_title=locale.t("chart_answers_title"),
        right=locale.t("chart_right"),
        wrong=locale.t("chart_wrong"),
        mastery_title=locale.t("chart_mastery_title"),
        alt=alt,
        forecast_title=locale.t("chart_forecast_title"),
    )
    return await charts.render(charts.progress, days, rows, labels, ahead)


def _forecast_alt(ahead: list[charts.Due], locale: Locale) -> str:
    """The forecast in words: how many reviews in the next 30 days, and the busiest day."""
    total = sum(due.count for due in ahead)
    if not total:
        return locale.t("chart_forecast_none")
    busiest = max(ahead, key=lambda due: due.count)  # the first of the busiest days
    return locale.t(
        "chart_forecast_alt", n=total, day=busiest.day.strftime("%d.%m"), most=busiest.count
    )
