"""Charts: PNGs a phone shows well, Yoruba's letters drawn (no glyph missing), drawn off the
event loop."""

from __future__ import annotations

import dataclasses
import threading
import warnings
from datetime import date, timedelta

import pytest
from PIL import Image

from bot.core import charts

YORUBA = "Ìdáhùn lójoojúmọ́: ẹ̀kọ́, ọ̀rọ̀, ṣé, Ṣàngó, Ọ̀ṣun, Ẹ̀kọ́"


def _labels(title: str = "Answers per day") -> charts.ProgressLabels:
    return charts.ProgressLabels(
        answers_title=title, right="ẹ̀tọ́", wrong="àṣìṣe $5", mastery_title="Ìmọ̀ $x$",
        alt=lambda right, wrong, days, mastery: f"{right} right, {wrong} wrong, {days} days",
    )  # fmt: skip


def _size(png: bytes) -> tuple[int, int]:
    import io

    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.size


def _days() -> list[charts.Day]:
    return [charts.Day(date(2026, 11, 4) + timedelta(days=i), i % 4, i % 3) for i in range(30)]


@pytest.fixture(autouse=True)
def _no_missing_glyphs() -> object:
    """matplotlib warns once per glyph a font lacks: here that fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_progress_chart_is_a_phone_sized_png_with_its_alt_text() -> None:
    chart = charts.progress(_days(), [(YORUBA, 40), ("Tiny $quiz$", 100)], _labels(YORUBA))
    width, height = _size(chart.png)
    assert width == 900 and 900 <= height <= 1400
    assert 10_000 < len(chart.png) < 400_000
    active = sum(1 for i in range(30) if i % 4 or i % 3)
    right, wrong = sum(i % 4 for i in range(30)), sum(i % 3 for i in range(30))
    assert chart.alt == f"{right} right, {wrong} wrong, {active} days"


def test_many_quizzes_stay_one_readable_column() -> None:
    mastery = [(f"Quiz {n}", n * 3) for n in range(30)]
    width, height = _size(charts.progress(_days(), mastery, _labels()).png)
    assert width == 900 and height / width < 3  # at most MAX_ROWS bars: still a phone's page


def test_hardest_first_and_score_distribution() -> None:
    quiz = charts.QuizShares(
        YORUBA, [("1. " + YORUBA, 1, 4), ("2. Capital?", 3, 3), ("3. x", 0, 2)]
    )
    chart = charts.hardest_first([quiz], lambda title: title, "alt")
    width, height = _size(chart.png)
    assert width == 900 and 300 < height < 1200 and chart.alt == "alt"
    spread = charts.score_distribution([0, 500, 1824, 2650], "Points $", "points", "ọmọ ẹgbẹ́", "a")
    assert _size(spread.png)[0] == 900


async def test_charts_are_drawn_in_a_worker_thread() -> None:
    seen: list[int] = []

    def draw() -> charts.Chart:
        seen.append(threading.get_ident())
        return charts.Chart(b"", "")

    await charts.render(draw)
    assert seen and seen[0] != threading.get_ident()


def _text_sizes_in_pixels(figure: object) -> list[float]:
    from matplotlib.text import Text

    texts = [t for t in figure.findobj(Text) if t.get_text().strip() and t.get_visible()]  # type: ignore[attr-defined]
    return [t.get_fontsize() * charts.DPI / 72 for t in texts]


def test_the_progress_chart_reads_on_a_phone_with_the_reviews_ahead() -> None:
    """At most 1,280 pixels wide, every text at least 2.5 % of the width, the three panels."""
    ahead = [charts.Due(date(2026, 12, 4) + timedelta(days=i), (7 - i) % 3) for i in range(30)]
    labels = dataclasses.replace(_labels(), forecast_title="Reviews due, next 30 days")
    figure = charts.progress_figure(_days(), [(YORUBA, 40)], labels, ahead)
    width = figure.get_figwidth() * charts.DPI
    assert width <= 1280
    sizes = _text_sizes_in_pixels(figure)
    assert len(sizes) > 10 and min(sizes) >= 0.025 * width, (min(sizes), width)
    titles = [axes.get_title(loc="left") for axes in figure.axes]
    assert titles == ["Reviews due, next 30 days", "Answers per day", "Ìmọ̀ $x$"]
    png = charts.progress(_days(), [(YORUBA, 40)], labels, ahead).png
    assert _size(png)[0] <= 1280


def test_empty_ranges_and_empty_panels_are_left_out() -> None:
    """Day one: one day of answers, not 29 empty ones before it; the reviews ahead end at the
    last day with one due; nothing ahead, no panel."""
    start = date(2026, 11, 4)
    days = [charts.Day(start + timedelta(days=i), 0, 0) for i in range(29)]
    days.append(charts.Day(start + timedelta(days=29), 3, 1))
    ahead = [charts.Due(start + timedelta(days=29 + i), 1 if i in (0, 3) else 0) for i in range(30)]
    assert [d.day for d in charts.active_days(days)] == [start + timedelta(days=29)]
    assert len(charts.due_days(ahead)) == 4
    labels = dataclasses.replace(_labels(), forecast_title="Ahead")
    figure = charts.progress_figure(days, [], labels, ahead)
    forecast, answers = figure.axes
    assert len(forecast.patches) == 4 and len(answers.patches) == 2  # right and wrong, one day
    assert [axes.get_title(loc="left") for axes in figure.axes] == ["Ahead", "Answers per day"]
    nothing_ahead = charts.progress_figure(days, [], labels, ())
    assert [axes.get_title(loc="left") for axes in nothing_ahead.axes] == ["Answers per day"]
