"""Charts as PNG images, readable on a phone: one column, large type, few words.

Drawn with matplotlib's object API on the Agg backend (no display, no pyplot state), in a
worker thread (`render`) so the event loop never waits on it; one drawing at a time (a lock:
matplotlib's font cache is shared). The font is DejaVu Sans, which ships with matplotlib and
has Yoruba's letters (ẹ ọ ṣ, and the tone marks, precomposed or combining). Each chart comes
with its alt text, sent as the photo's caption. Pure otherwise: data and labels in, bytes out.
"""

from __future__ import annotations

import asyncio
import io
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, ParamSpec

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

FONT = "DejaVu Sans"
WIDTH_INCHES = 6.0
DPI = 150  # 900 pixels wide
BASE_SIZE = 15
RIGHT_COLOUR = "#2e7d32"
WRONG_COLOUR = "#c62828"
BAR_COLOUR = "#1565c0"
MAX_ROWS = 12  # bars in one panel: more would not read on a phone
LABEL_CHARS = 40
ROW_INCHES = 0.75  # a bar and its name above it
MAX_CAPTION = 1024

_drawing = threading.Lock()
P = ParamSpec("P")


@dataclass(frozen=True)
class Chart:
    png: bytes
    alt: str  # what the chart shows, in words: the photo's caption


async def render(draw: Callable[P, Chart], *args: P.args, **kwargs: P.kwargs) -> Chart:
    """Draw a chart in a worker thread."""
    return await asyncio.to_thread(draw, *args, **kwargs)


def _label(text: str) -> str:
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _plain(text: str) -> str:
    """A legend's label, where `$` would start math: shown as a dollar sign."""
    return text.replace("$", r"\$")


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _figure(height: float) -> Figure:
    figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
    return figure


def _style(axes: Any, title: str) -> None:
    axes.set_title(title, fontsize=BASE_SIZE + 2, fontfamily=FONT, loc="left", parse_math=False)
    axes.tick_params(labelsize=BASE_SIZE - 2)
    for label in (*axes.get_xticklabels(), *axes.get_yticklabels()):
        label.set_fontfamily(FONT)
    axes.spines[["top", "right"]].set_visible(False)


def _caption(text: str) -> str:
    return text if len(text) <= MAX_CAPTION else text[: MAX_CAPTION - 1] + "…"


def _percent_bars(axes: Any, rows: Sequence[tuple[str, int]]) -> None:
    """One bar per row, top to bottom, 0-100 %, each named above its bar across the full
    width (names beside the bars would squeeze the chart on a phone)."""
    count = len(rows)
    for place, (name, value) in enumerate(rows):
        y = count - 1 - place
        axes.barh(y, value, height=0.45, color=BAR_COLOUR)
        axes.text(
            0, y + 0.3, _label(name), va="bottom", fontsize=BASE_SIZE - 1, fontfamily=FONT,
            parse_math=False,
        )  # fmt: skip
        inside = value > 85  # the number inside the bar's end, in white
        axes.text(
            value - 1.5 if inside else value + 1.5, y, f"{value}%", va="center",
            ha="right" if inside else "left", color="white" if inside else "black",
            fontsize=BASE_SIZE - 2, fontfamily=FONT,
        )  # fmt: skip
    axes.set_xlim(0, 100)
    axes.set_ylim(-0.5, count - 0.2)
    axes.set_yticks([])
    axes.spines["left"].set_visible(False)


# a learner's progress


@dataclass(frozen=True)
class Day:
    day: date
    right: int
    wrong: int


@dataclass(frozen=True)
class Due:
    """Reviews due on one day ahead."""

    day: date
    count: int


@dataclass(frozen=True)
class ProgressLabels:
    answers_title: str
    right: str
    wrong: str
    mastery_title: str
    alt: Callable[[int, int, int, Sequence[tuple[str, int]]], str]  # right, wrong, days, mastery
    forecast_title: str = ""


MIN_SLOTS = 7  # a panel of days is at least a week wide: one day is a bar, not a wall


def active_days(days: Sequence[Day]) -> list[Day]:
    """The days from the first with an answer on: the empty range before it is left out."""
    first = next((i for i, d in enumerate(days) if d.right or d.wrong), len(days))
    return list(days[first:])


def due_days(forecast: Sequence[Due]) -> list[Due]:
    """The days up to the last with a review due: the empty range after it is left out."""
    last = max((i for i, d in enumerate(forecast) if d.count), default=-1)
    return list(forecast[: last + 1])


def _day_axis(axes: Any, dates: Sequence[date], from_end: bool) -> None:
    """A tick every day for a week or less, else every 7 days counted from the last day (past
    days) or from the first (days ahead); room for at least a week."""
    count = len(dates)
    step = 1 if count <= MIN_SLOTS else 7
    ticks = [i for i in range(count) if ((count - 1 - i) if from_end else i) % step == 0]
    axes.set_xticks(ticks, [dates[i].strftime("%d.%m") for i in ticks])
    axes.set_xlim(-0.6, max(count, MIN_SLOTS) - 0.4)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))


def progress_figure(
    days: Sequence[Day],
    mastery: Sequence[tuple[str, int]],
    labels: ProgressLabels,
    forecast: Sequence[Due] = (),
) -> Figure:
    """The panels that have something to show, in one column: the reviews due ahead (Anki's
    "Future due"), answers per day (right and wrong stacked), mastery per quiz. Empty ranges
    of days are left out, and a panel with nothing in it."""
    shown = list(mastery[:MAX_ROWS])
    answered = active_days(days)
    ahead = due_days(forecast)
    panels: list[tuple[str, float]] = []
    if ahead:
        panels.append(("forecast", 3.2))
    if answered:
        panels.append(("answers", 3.4))
    if shown:
        panels.append(("mastery", ROW_INCHES * len(shown) + 0.6))
    heights = [height for _, height in panels] or [1.0]
    figure = _figure(sum(heights) + 0.6)
    axes_list = figure.subplots(len(heights), 1, height_ratios=heights, squeeze=False)[:, 0]
    for axes, (panel, _) in zip(axes_list, panels, strict=False):
        if panel == "forecast":
            xs = list(range(len(ahead)))
            counts = [d.count for d in ahead]
            axes.bar(xs, counts, color=BAR_COLOUR)
            _day_axis(axes, [d.day for d in ahead], from_end=False)
            axes.set_ylim(0, max(counts) * 1.25)
            _style(axes, labels.forecast_title)
        elif panel == "answers":
            xs = list(range(len(answered)))
            right = [d.right for d in answered]
            wrong = [d.wrong for d in answered]
            axes.bar(xs, right, color=RIGHT_COLOUR, label=_plain(labels.right))
            axes.bar(xs, wrong, bottom=right, color=WRONG_COLOUR, label=_plain(labels.wrong))
            _day_axis(axes, [d.day for d in answered], from_end=True)
            axes.set_ylim(0, max(r + w for r, w in zip(right, wrong, strict=True)) * 1.3)
            axes.legend(
                loc="upper left", ncol=2, frameon=False,
                prop={"family": FONT, "size": BASE_SIZE - 2},
            )  # fmt: skip
            _style(axes, labels.answers_title)
        else:
            _percent_bars(axes, shown)
            _style(axes, labels.mastery_title)
    return figure


def progress(
    days: Sequence[Day],
    mastery: Sequence[tuple[str, int]],
    labels: ProgressLabels,
    forecast: Sequence[Due] = (),
) -> Chart:
    """`progress_figure` as a PNG, with its alt text."""
    with _drawing:
        png = _png(progress_figure(days, mastery, labels, forecast))
    right = sum(d.right for d in days)
    wrong = sum(d.wrong for d in days)
    alt = labels.alt(right, wrong, sum(1 for d in days if d.right or d.wrong), mastery)
    return Chart(png, _caption(alt))


# a quiz's questions, hardest first


@dataclass(frozen=True)
class QuizShares:
    title: str
    questions: Sequence[tuple[str, int, int]]  # label, right, answered


def hardest_first(quizzes: Sequence[QuizShares], title: Callable[[str], str], alt: str) -> Chart:
    """Per quiz, the share of right answers per question, hardest first (the hardest
    `MAX_ROWS` of each)."""
    panels = [q for q in quizzes if q.questions][:6]
    rows = [
        sorted(q.questions, key=lambda row: (row[1] / row[2] if row[2] else 1.0, row[0]))[:MAX_ROWS]
        for q in panels
    ]
    with _drawing:
        heights = [ROW_INCHES * len(r) + 0.6 for r in rows] or [1.0]
        figure = _figure(sum(heights) + 0.3)
        axes_list = figure.subplots(len(heights), 1, height_ratios=heights, squeeze=False)[:, 0]
        for axes, quiz, shown in zip(axes_list, panels, rows, strict=False):
            _percent_bars(axes, [(label, round(100 * r / n) if n else 0) for label, r, n in shown])
            _style(axes, title(_label(quiz.title)))
        png = _png(figure)
    return Chart(png, _caption(alt))


# a group quiz's scores


def score_distribution(
    points: Sequence[int], title: str, x_label: str, y_label: str, alt: str
) -> Chart:
    """How many members scored how many points."""
    with _drawing:
        figure = _figure(4.5)
        axes = figure.subplots()
        bins = min(10, max(1, len(set(points))))
        axes.hist(points, bins=bins, color=BAR_COLOUR, edgecolor="white")
        axes.set_xlabel(x_label, fontsize=BASE_SIZE - 1, fontfamily=FONT, parse_math=False)
        axes.set_ylabel(y_label, fontsize=BASE_SIZE - 1, fontfamily=FONT, parse_math=False)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        _style(axes, title)
        png = _png(figure)
    return Chart(png, _caption(alt))
