"""Charts as PNG images, readable on a phone: one column, large type, few words.

Drawn with matplotlib's object API on the Agg backend (no display, no pyplot state), in a
drawing process of its own (`render`), made once when the first chart is asked for, with
matplotlib loaded and its fonts read once there: drawn in a thread of the bot's process, a
chart held the event loop 60 to 250 ms at a time (the interpreter lock: Agg, the PNG encoder
and the garbage collector's passes over what the drawing makes; docs/performance.md). Every
argument of a drawing is plain data (it is pickled); one drawing at a time (a lock:
matplotlib's font cache is shared). The font is DejaVu Sans, which ships with matplotlib and
has Yoruba's letters (ẹ ọ ṣ, and the tone marks, precomposed or combining). Each chart comes
with its alt text, sent as the photo's caption. Pure otherwise: data and labels in, bytes out.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import date
from typing import Any, ParamSpec

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from content.grid import Condensed, Mark
from content.markup import flatten

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
class Drawn:
    """A text the chart draws, as drawn: for the checks that every label is plain and tall
    enough to read on a phone."""

    text: str
    height: float  # pixels: the font's size


@dataclass(frozen=True)
class Chart:
    png: bytes
    alt: str  # what the chart shows, in words: the photo's caption
    width: int = 0  # pixels
    height: int = 0
    texts: tuple[Drawn, ...] = ()


_artist: ProcessPoolExecutor | None = None
_artist_lock = threading.Lock()


def _drawing_process() -> ProcessPoolExecutor:
    """The drawing process, made on first use (a fresh interpreter: nothing of the bot's
    state, threads or open files is copied into it)."""
    global _artist
    with _artist_lock:
        if _artist is None:
            _artist = ProcessPoolExecutor(
                1, multiprocessing.get_context("spawn"), initializer=_warm_up
            )
        return _artist


def _forget(artist: ProcessPoolExecutor) -> None:
    global _artist
    with _artist_lock:
        if _artist is artist:
            _artist = None
    artist.shutdown(wait=False, cancel_futures=True)


async def render(draw: Callable[P, Chart], *args: P.args, **kwargs: P.kwargs) -> Chart:
    """Draw a chart in the drawing process (a worker thread waits for it: starting the
    process, the first time, is off the event loop too)."""
    return await asyncio.to_thread(drawn, draw, *args, **kwargs)


def drawn(draw: Callable[P, Chart], /, *args: P.args, **kwargs: P.kwargs) -> Chart:
    """Draw a chart in the drawing process, and wait for it (from a worker thread); if that
    process died (killed, out of memory), a new one draws it."""
    for attempt in range(2):
        artist = _drawing_process()
        try:
            return artist.submit(draw, *args, **kwargs).result()
        except BrokenProcessPool:
            _forget(artist)
            if attempt:
                raise
    raise AssertionError("unreachable")


def stop_drawing() -> None:
    """End the drawing process (a later chart starts a new one)."""
    with _artist_lock:
        artist = _artist
    if artist is not None:
        _forget(artist)


def _warm_up() -> None:
    """In the drawing process, at its start: the fonts read and a first figure drawn, so the
    first chart costs what every other does."""
    figure = Figure(figsize=(1.0, 1.0))
    figure.add_axes((0, 0, 1, 1)).text(0, 0, "ẹ̀kọ́ 0", fontfamily=FONT)
    _png(figure)


_FENCES = re.compile(r"```[A-Za-z0-9_+-]*|`")


def _label(text: str, limit: int = LABEL_CHARS) -> str:
    """A label as plain text: code fences and backticks gone (their code kept), one line,
    at most `limit` characters."""
    text = _FENCES.sub("", flatten(text))  # a fence not at a line's start is no code block
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _chart(figure: Figure, alt: str) -> Chart:
    """The figure as a PNG with its alt text, its size and every text it draws."""
    png = _png(figure)
    width, height = (round(inches * DPI) for inches in figure.get_size_inches())
    texts = tuple(
        Drawn(text.get_text(), float(text.get_fontsize()) * DPI / 72)
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text()
    )
    return Chart(png, _caption(alt), width, height, texts)


def _figure(height: float) -> Figure:
    figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
    return figure


def _fits(size: float, width: float = WIDTH_INCHES * DPI) -> int:
    """About how many characters of type `size` (points) fit `width` pixels."""
    return int(width / (size * DPI / 72 * 0.6))


def _style(axes: Any, title: str) -> None:
    """The panel's title, plain and cut to fit the picture's width, and its ticks."""
    title = _label(title, _fits(BASE_SIZE + 2))
    axes.set_title(title, fontsize=BASE_SIZE + 2, fontfamily=FONT, loc="left", parse_math=False)
    axes.tick_params(labelsize=BASE_SIZE - 2)
    for label in (*axes.get_xticklabels(), *axes.get_yticklabels()):
        label.set_fontfamily(FONT)
    axes.spines[["top", "right"]].set_visible(False)


def _caption(text: str) -> str:
    return text if len(text) <= MAX_CAPTION else text[: MAX_CAPTION - 1] + "…"


def _percent_bars(axes: Any, rows: Sequence[tuple[str, int]], counts: Sequence[int] = ()) -> None:
    """One bar per row, top to bottom, 0-100 %, each named above its bar across the full
    width (names beside the bars would squeeze the chart on a phone); with `counts`, how
    many answered beside each percentage ("40% of 12")."""
    count = len(rows)
    for place, (name, value) in enumerate(rows):
        shown = f"{value}%" if not counts else f"{value}% · n={counts[place]}"
        y = count - 1 - place
        axes.barh(y, value, height=0.45, color=BAR_COLOUR)
        axes.text(
            0, y + 0.3, _label(name), va="bottom", fontsize=BASE_SIZE - 1, fontfamily=FONT,
            parse_math=False,
        )  # fmt: skip
        inside = value > (70 if counts else 85)  # the number inside the bar's end, in white
        axes.text(
            value - 1.5 if inside else value + 1.5, y, shown, va="center",
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
    alt: str
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
            axes.bar(xs, right, color=RIGHT_COLOUR, label=_label(labels.right))
            axes.bar(xs, wrong, bottom=right, color=WRONG_COLOUR, label=_label(labels.wrong))
            _day_axis(axes, [d.day for d in answered], from_end=True)
            axes.set_ylim(0, max(r + w for r, w in zip(right, wrong, strict=True)) * 1.3)
            legend = axes.legend(
                loc="upper left", ncol=2, frameon=False,
                prop={"family": FONT, "size": BASE_SIZE - 2},
            )  # fmt: skip
            for entry in legend.get_texts():
                entry.set_parse_math(False)  # a `$` in a label is a dollar sign
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
        return _chart(progress_figure(days, mastery, labels, forecast), labels.alt)


def day_totals(days: Sequence[Day]) -> tuple[int, int, int]:
    """The answers right and wrong over these days, and the days with an answer."""
    right = sum(d.right for d in days)
    wrong = sum(d.wrong for d in days)
    return right, wrong, sum(1 for d in days if d.right or d.wrong)


# a quiz's questions, hardest first


@dataclass(frozen=True)
class QuizShares:
    title: str
    questions: Sequence[tuple[str, int, int]]  # label, right, answered


MAX_PANELS = 2  # quizzes in /stats' chart: a phone's page or two
PANEL_ROWS = 6  # the hardest questions of each


TITLE_SLOT = "\x00"  # where a panel's title text puts the quiz's title


def hardest_first(quizzes: Sequence[QuizShares], title: str, alt: str) -> Chart:
    """Per quiz, the share of right answers per question, hardest first (the hardest
    `PANEL_ROWS` of each, of the first `MAX_PANELS` quizzes), how many answered beside each;
    questions nobody answered are left out. `title` is a panel's title, the quiz's title at
    its `TITLE_SLOT`."""
    answered = [QuizShares(q.title, [r for r in q.questions if r[2]]) for q in quizzes]
    panels = [q for q in answered if q.questions][:MAX_PANELS]
    rows = [
        sorted(q.questions, key=lambda row: (row[1] / row[2], row[0]))[:PANEL_ROWS] for q in panels
    ]
    with _drawing:
        heights = [ROW_INCHES * len(r) + 0.6 for r in rows] or [1.0]
        figure = _figure(sum(heights) + 0.3)
        axes_list = figure.subplots(len(heights), 1, height_ratios=heights, squeeze=False)[:, 0]
        for axes, quiz, shown in zip(axes_list, panels, rows, strict=False):
            _percent_bars(
                axes, [(label, round(100 * r / n)) for label, r, n in shown], [n for *_, n in shown]
            )
            room = _fits(BASE_SIZE + 2) - len(title) + 1  # the quiz's title within its panel's
            _style(axes, title.replace(TITLE_SLOT, _label(quiz.title, max(room, 12))))
        return _chart(figure, alt)


# who got what: the learner × question grid (content/grid.py)

# Okabe and Ito's colours, told apart with every kind of colour blindness; each mark also
# carries its sign (✓ ✗ – or the credit), so colour is never the only way to read it
GRID_RIGHT = "#0072B2"  # blue
GRID_WRONG = "#D55E00"  # vermillion
GRID_PARTLY = "#F0E442"  # yellow
GRID_NONE = "#E8E8E8"  # light grey
GRID_WIDTH = 960  # pixels, at most
GRID_CELL = 54
GRID_NAME = 240
GRID_TOTAL = 120
GRID_MARGIN = 18
GRID_FONT = 13  # points: 27 px at 150 dpi, above 2.5 % of the width (24 px)
MAX_GRID_QUESTIONS = (GRID_WIDTH - GRID_NAME - GRID_TOTAL - 2 * GRID_MARGIN) // GRID_CELL
MAX_GRID_LEARNERS = 20


@dataclass(frozen=True)
class GridLabels:
    title: str
    total: str  # the totals column's head
    share: str  # the last row's head: the share of credit per question
    deleted: str  # the name of a learner who asked to be forgotten
    left_out: str  # "… 12 more learners and 3 more questions: in the file" ("" if none)
    alt: str


def _mark_cell(mark: Mark) -> tuple[str, str, str]:
    """(sign, fill, ink) of a mark."""
    if mark is None:
        return "–", GRID_NONE, "#333333"
    if mark >= 1:
        return "✓", GRID_RIGHT, "white"
    if mark <= 0:
        return "✗", GRID_WRONG, "white"
    return f"{mark:.2f}".lstrip("0"), GRID_PARTLY, "black"


def learner_grid(shown: Condensed, labels: GridLabels) -> Chart:
    """The grid as a picture: names on rows, question numbers on columns, each mark a
    coloured cell with its sign, each learner's total on the right, each question's share
    of credit at the bottom; what was left out said under it."""
    grid = shown.grid
    columns, rows = len(grid.questions), len(grid.learners)
    # as wide as its columns need (a phone shows a narrow picture larger), at least 600 px
    width = max(600, GRID_NAME + columns * GRID_CELL + GRID_TOTAL + 2 * GRID_MARGIN)
    top = GRID_MARGIN + 2 * GRID_CELL  # the title, then the question numbers
    body = (rows + 1) * GRID_CELL  # the learners, then the shares
    footer = GRID_CELL if labels.left_out else 0
    height = top + body + footer + GRID_MARGIN
    size = GRID_FONT
    with _drawing:
        figure = Figure(figsize=(width / DPI, height / DPI))
        axes = figure.add_axes((0, 0, 1, 1))
        axes.set_xlim(0, width)
        axes.set_ylim(height, 0)
        axes.axis("off")

        def write(x: float, y: float, text: str, **style: Any) -> None:
            axes.text(x, y, text, fontsize=style.pop("size", size), fontfamily=FONT,
                      parse_math=False, va="center", **style)  # fmt: skip

        chars = int(width / (size * DPI / 72 * 0.62))  # what fits the width at that size
        write(GRID_MARGIN, GRID_MARGIN + GRID_CELL / 2, _label(labels.title, chars),
              size=size + 2, weight="bold")  # fmt: skip
        x0 = GRID_MARGIN + GRID_NAME
        header = top - GRID_CELL / 2
        for column, question in enumerate(grid.questions):
            write(x0 + (column + 0.5) * GRID_CELL, header, str(question.number), ha="center")
        x_total = x0 + columns * GRID_CELL + GRID_TOTAL - 8
        write(x_total, header, labels.total, ha="right", weight="bold")
        for row, learner in enumerate(grid.learners):
            y = top + row * GRID_CELL
            name = labels.deleted if learner.user_id is None else learner.name
            write(GRID_MARGIN, y + GRID_CELL / 2, _label(name, 14))
            for column, mark in enumerate(learner.marks):
                sign, fill, ink = _mark_cell(mark)
                x = x0 + column * GRID_CELL
                axes.add_patch(Rectangle((x + 2, y + 2), GRID_CELL - 4, GRID_CELL - 4,
                                         facecolor=fill, edgecolor="white"))  # fmt: skip
                write(x + GRID_CELL / 2, y + GRID_CELL / 2, sign, ha="center", color=ink)
            total = shown.totals[row]
            shown_total = f"{total:g}" if total == int(total) else f"{total:.1f}"
            write(x_total, y + GRID_CELL / 2, shown_total, ha="right")
        shares = top + rows * GRID_CELL + GRID_CELL / 2
        write(GRID_MARGIN, shares, _label(labels.share, 14), weight="bold")
        for column in range(columns):
            share = round(100 * grid.difficulty(column))
            write(x0 + (column + 0.5) * GRID_CELL, shares, f"{share}", ha="center", size=size - 1)
        if labels.left_out:
            write(GRID_MARGIN, top + body + GRID_CELL / 2, _label(labels.left_out, chars))
        return _chart(figure, labels.alt)
