"""Draws docs/images/progress-chart.png, the README's example of the chart /progress sends
(the same code as the bot: bot/core/charts.py), for a learner whose interface is Yoruba.

    .venv/bin/python docs/images/make_progress_chart.py
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from bot.core import charts
from bot.core.i18n import Locale

HERE = Path(__file__).resolve().parent


def main() -> None:
    locale = Locale("yo", "en")
    start = date(2026, 11, 4)
    pattern = [(3, 1), (0, 0), (5, 2), (4, 0), (0, 0), (2, 3), (6, 1)]
    days = [charts.Day(start + timedelta(days=n), *pattern[n % len(pattern)]) for n in range(30)]
    mastery = [("Awoṣe ati Pipeline Parallelism adanwo", 62), ("Ọ̀rọ̀ Yorùbá: ẹ̀kọ́ kìíní", 35)]
    today = start + timedelta(days=29)
    due = [4, 2, 0, 3, 0, 1, 0, 0, 2, 0, 0, 0, 1] + [0] * 17
    ahead = [charts.Due(today + timedelta(days=n), count) for n, count in enumerate(due)]
    labels = charts.ProgressLabels(
        answers_title=locale.t("chart_answers_title"),
        right=locale.t("chart_right"),
        wrong=locale.t("chart_wrong"),
        mastery_title=locale.t("chart_mastery_title"),
        alt=lambda right, wrong, active, shown: "",
        forecast_title=locale.t("chart_forecast_title"),
    )
    chart = charts.progress(days, mastery, labels, ahead)
    (HERE / "progress-chart.png").write_bytes(chart.png)


if __name__ == "__main__":
    main()
