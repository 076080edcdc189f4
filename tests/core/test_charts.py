"""Charts: PNGs a phone shows well, Yoruba's letters drawn (no glyph missing), drawn off the
event loop."""

from __future__ import annotations

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
