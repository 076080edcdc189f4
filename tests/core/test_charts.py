"""Charts: PNGs a phone shows well, Yoruba's letters drawn (no glyph missing), drawn off the
event loop."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import warnings
from datetime import date, timedelta

import pytest
from PIL import Image

from bot.core import charts
from content import grid

YORUBA = "Ìdáhùn lójoojúmọ́: ẹ̀kọ́, ọ̀rọ̀, ṣé, Ṣàngó, Ọ̀ṣun, Ẹ̀kọ́"


def _labels(title: str = "Answers per day") -> charts.ProgressLabels:
    return charts.ProgressLabels(
        answers_title=title, right="ẹ̀tọ́", wrong="àṣìṣe $5", mastery_title="Ìmọ̀ $x$",
        alt="what it shows",
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
    readable(chart)
    width, height = _size(chart.png)
    assert width == 900 and 900 <= height <= 1400
    assert 10_000 < len(chart.png) < 400_000
    active = sum(1 for i in range(30) if i % 4 or i % 3)
    right, wrong = sum(i % 4 for i in range(30)), sum(i % 3 for i in range(30))
    assert chart.alt == "what it shows"
    assert charts.day_totals(_days()) == (right, wrong, active)


def test_many_quizzes_stay_one_readable_column() -> None:
    mastery = [(f"Quiz {n}", n * 3) for n in range(30)]
    width, height = _size(charts.progress(_days(), mastery, _labels()).png)
    assert width == 900 and height / width < 3  # at most MAX_ROWS bars: still a phone's page


MARKUP = ("```", "`", "<b>", "</", "&lt;", "&amp;", "\\$")


def readable(chart: charts.Chart) -> None:
    """What a phone shows well: at most 1,280 px wide (the PNG as the chart says), every text
    at least 2.5 % of the width tall, and plain (no code fences, backticks, HTML or escapes
    left in a label)."""
    assert (chart.width, chart.height) == _size(chart.png)
    assert chart.width <= 1280
    assert chart.texts
    for drawn in chart.texts:
        assert drawn.height >= 0.025 * chart.width, drawn
        assert not any(mark in drawn.text for mark in MARKUP), drawn


def test_progress_chart_is_readable() -> None:
    mastery = [("```python\nstats()\n```", 40), ("Tiny `quiz` $x$", 100)]
    readable(charts.progress(_days(), mastery, _labels("Answers `per` day")))


def test_stats_chart_fits_its_titles_shows_n_and_leaves_out_what_nobody_answered() -> None:
    fenced = "```python\nstats = collect(everything)\n```"
    quizzes = [
        charts.QuizShares(
            f"A very long quiz title that a phone cannot hold on one line, number {k}",
            [(f"{n}. {fenced}", n % 3, 4) for n in range(1, 20)] + [("20. never", 0, 0)],
        )
        for k in range(8)
    ]
    chart = charts.hardest_first(quizzes, f"{charts.TITLE_SLOT}: hardest", "alt")
    readable(chart)
    assert chart.width == 900 and chart.height < 2 * chart.width  # was 900 × 2,475
    texts = [d.text for d in chart.texts]
    assert sum("% · n=4" in t for t in texts) == charts.MAX_PANELS * charts.PANEL_ROWS
    assert not any("never" in t for t in texts)
    assert "3. stats = collect(everything)" in texts  # the fences gone, the code kept
    titles = [t for t in texts if t.startswith("A very long")]
    assert len(titles) == charts.MAX_PANELS  # cut to the width, not by the picture's edge
    assert all(len(t) <= 45 and "…: hardest" in t for t in titles), titles


def _grid(learners: int, questions: int) -> grid.Grid:
    people = [
        grid.Learner(
            f"Learner {n}" if n else "",
            n if n else None,
            {f"q{k}": ((n + k) % 4) / 3 for k in range(questions) if (n * k) % 5 != 1},
        )
        for n in range(learners)
    ]
    return grid.build([(f"q{k}", f"```x```{k}") for k in range(questions)], people)


def _labels_for_grid(left_out: str = "") -> charts.GridLabels:
    return charts.GridLabels("Tiny `quiz`: who got what", "Total", "% credit", "(deleted)",
                             left_out, "alt")  # fmt: skip


def test_the_grid_picture_is_readable_and_says_what_it_left_out() -> None:
    small = _grid(3, 4).fitted(charts.MAX_GRID_LEARNERS, charts.MAX_GRID_QUESTIONS)
    chart = charts.learner_grid(small, _labels_for_grid())
    readable(chart)
    texts = [d.text for d in chart.texts]
    assert {"Learner 1", "Learner 2", "(deleted)", "1", "2", "3", "4", "Total"} <= set(texts)
    assert {"✓", "✗", "–"} <= set(texts) and ".67" in texts  # partial credit: its value
    big = _grid(45, 30).fitted(charts.MAX_GRID_LEARNERS, charts.MAX_GRID_QUESTIONS)
    assert (big.learners_left_out, big.questions_left_out) == (
        45 - charts.MAX_GRID_LEARNERS, 30 - charts.MAX_GRID_QUESTIONS,
    )  # fmt: skip
    chart = charts.learner_grid(big, _labels_for_grid("25 more learner(s): in the file."))
    readable(chart)
    assert "25 more learner(s): in the file." in [d.text for d in chart.texts]


def _drawn_where() -> charts.Chart:
    return charts.Chart(str(os.getpid()).encode(), "")


async def test_charts_are_drawn_in_a_process_of_their_own_made_again_if_it_dies() -> None:
    first = int((await charts.render(_drawn_where)).png)
    assert first != os.getpid()
    assert int((await charts.render(_drawn_where)).png) == first  # made once
    os.kill(first, signal.SIGKILL)
    again = int((await asyncio.to_thread(charts.drawn, _drawn_where)).png)
    assert again not in (first, os.getpid())
    chart = await charts.render(charts.learner_grid, _grid(3, 4).fitted(20, 11), _labels_for_grid())
    readable(chart)
    charts.stop_drawing()


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
