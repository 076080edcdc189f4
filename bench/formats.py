"""How long the converter takes on the largest inputs it accepts, and on hostile ones.

    .venv/bin/python -m bench.formats          # everything
    .venv/bin/python -m bench.formats growth   # only how the hostile inputs grow

Each input is built here: 500 questions of full-length texts in two languages (the bank's
limits) in every input format, filled up to that format's size limit where the format allows;
and inputs made to hurt a parser (a 512 KiB answer section, a sheet reaching Excel's last
row, a zip bomb). Prints one line per input: its size and the best of three runs. Then every
hostile input of bench/hostile.py at n and 2n with the ratio of their times (the medians of
five runs of CPU time): about 2 where the work is linear, 4 where it is quadratic.
"""

from __future__ import annotations

import io
import random
import statistics
import string
import sys
import time
import zipfile
from collections.abc import Callable
from typing import Any

from openpyxl import Workbook

from bench.hostile import HOSTILE, Hostile, every_part_at_its_limit, png_of_zeros, sheet
from bot.core.telegram_html import split_blocks, visible_length
from content.formats.base import ConversionError, ReadOptions, WriteOptions
from content.formats.convert import Loaded, read_quiz, write_quiz
from content.formats.html_text import html_to_text, split_languages
from content.formats.registry import FORMATS
from content.images import ImageError, inspect_image
from content.markup import parse_markup
from content.model import Level, LocalizedText, MultipleAnswer, Question, Quiz
from content.schema import MAX_QUESTIONS

LIMIT = 512 * 1024
rng = random.Random(15)


def words(length: int) -> str:
    out: list[str] = []
    while sum(len(word) + 1 for word in out) < length:
        out.append("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9))))
    return " ".join(out)[:length].strip()


def text(length: int) -> LocalizedText:
    return LocalizedText({"en": words(length), "yo": words(length)})


def big_quiz(text_length: int, option_length: int, explanation_length: int) -> Quiz:
    questions = []
    for number in range(MAX_QUESTIONS):
        options = tuple(text(option_length) for _ in range(10))
        if number % 2:
            questions.append(
                Question(
                    f"q{number}",
                    text(text_length),
                    options,
                    key=MultipleAnswer(frozenset({1, 3})),
                    explanation=text(explanation_length),
                )
            )
        else:
            questions.append(
                Question(f"q{number}", text(text_length), options, 2, text(explanation_length))
            )
    return Quiz("big", LocalizedText({"en": "Big"}), Level.HARD, tuple(questions))


def sized(fmt: str, limit: int) -> bytes:
    """The largest file of this format under the limit, from the biggest quiz that fits."""
    low, high = 10, 800
    best = b""
    while low <= high:  # the longest texts whose file stays under the limit
        middle = (low + high) // 2
        quiz = big_quiz(middle, min(middle // 4, 180), middle)
        data = write_quiz(quiz, {}, FORMATS[fmt], WriteOptions()).data
        if len(data) <= limit:
            best, low = data, middle + 1
        else:
            high = middle - 1
    return best


def random_sheet() -> bytes:
    """500 rows of incompressible text: an .xlsx near its 5 MiB limit."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    header = [
        "id",
        "question",
        "question:yo",
        *[f"option{n}" for n in range(1, 11)],
        "answer",
        "explanation",
        "explanation:yo",
    ]
    sheet.append(header)
    alphabet = string.ascii_letters + string.digits
    for number in range(MAX_QUESTIONS):
        noise = [
            "".join(rng.choice(alphabet) for _ in range(size)) for size in (800, 800, *[180] * 10)
        ]
        sheet.append(
            [
                f"q{number}",
                *noise,
                "A",
                "".join(rng.choice(alphabet) for _ in range(1000)),
                "".join(rng.choice(alphabet) for _ in range(1000)),
            ]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def far_row_sheet() -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["question", "option1", "option2", "answer"])
    sheet.cell(row=1_048_576, column=16_384, value="far")
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (1 << 30))
    return buffer.getvalue()


def timed(label: str, action: Callable[[], object], size: int) -> None:
    best = float("inf")
    outcome = "ok"
    for _ in range(3):
        started = time.perf_counter()
        try:
            action()
        except ConversionError as error:
            outcome = f"refused: {error.problems[0][:60]}"
        best = min(best, time.perf_counter() - started)
    print(f"{label:<44} {size / 1024:>8.0f} KiB  {best * 1000:>8.0f} ms  {outcome}")


def read(fmt: str, data: bytes) -> Callable[[], Loaded]:
    return lambda: read_quiz(data, FORMATS[fmt], ReadOptions(name=f"big.{fmt}"))


def main() -> None:
    yaml = sized("yaml", LIMIT)  # the biggest bank: 500 questions whose YAML is just under 512 KiB
    largest = read_quiz(yaml, FORMATS["yaml"], ReadOptions(name="big.yaml")).quiz
    timed("YAML: the largest bank (500 questions)", read("yaml", yaml), len(yaml))
    for fmt in ("gift", "xml", "csv", "xlsx"):
        data = write_quiz(largest, {}, FORMATS[fmt], WriteOptions()).data
        timed(f"{FORMATS[fmt].label}: the largest bank", read(fmt, data), len(data))
    xml = write_quiz(largest, {}, FORMATS["xml"], WriteOptions()).data
    image = "".join(rng.choice(string.ascii_letters) for _ in range(64)).encode() * (
        (28 * 1024 * 1024 - len(xml) - 200) // 64
    )
    padded = xml.replace(
        b"</questiontext>",
        b'<file name="big.png" path="/" encoding="base64">' + image + b"</file></questiontext>",
        1,
    )
    timed("Moodle XML: the largest bank and 28 MiB of base64", read("xml", padded), len(padded))
    for fmt in ("gift", "csv"):
        data = sized(fmt, LIMIT)
        timed(
            f"{FORMATS[fmt].label}: 512 KiB (longer texts than a bank takes)",
            read(fmt, data),
            len(data),
        )
    noise = random_sheet()
    timed("Excel: 500 rows of incompressible text", read("xlsx", noise), len(noise))
    far = far_row_sheet()
    timed("Excel: a cell in Excel's last row and column", read("xlsx", far), len(far))
    bomb = zip_bomb()
    timed("Excel: a zip bomb (1 GiB of spaces)", read("xlsx", bomb), len(bomb))
    one_section = b"::q:: Which? {" + b"~a " * ((LIMIT - 20) // 3) + b"}"
    timed("GIFT: one answer section of 512 KiB", read("gift", one_section), len(one_section))
    escapes = b"::q:: " + b"\\{" * ((LIMIT - 20) // 2) + b" {T}"
    timed("GIFT: 512 KiB of escapes", read("gift", escapes), len(escapes))
    text = (
        b"<quiz><question><name><text>"
        + b"&lt;b&gt;" * (5 * 1024 * 1024 // 9)
        + b"</text></name></question></quiz>"
    )
    timed("Moodle XML: 5 MiB of text in one element", read("xml", text), len(text))
    deep = b"<quiz>" + b"<a>" * 1_000_000 + b"</a>" * 1_000_000 + b"</quiz>"
    timed("Moodle XML: nested a million deep", read("xml", deep), len(deep))
    at_limits = every_part_at_its_limit()
    timed(
        "Excel: styles, shared text, sheet at their limits", read("xlsx", at_limits), len(at_limits)
    )
    picks = random.Random(590)
    formats = b"".join(b'<xf numFmtId="%d"/>' % picks.randrange(200) for _ in range(590_000))
    bloated = sheet(styles=formats)
    timed("Excel: 590,000 cell formats in styles.xml", read("xlsx", bloated), len(bloated))
    many = b" ".join(b'a%d="1"' % i for i in range(2_500_000))
    attributes = (b"<quiz><question " + many)[: 28 * 1024 * 1024]
    timed("Moodle XML: 28 MiB of attributes a1 a2 …", read("xml", attributes), len(attributes))
    png_bomb = png_of_zeros(5000, 5000, depth=16, colour=6)
    timed(
        "PNG: 5000 x 5000 16-bit RGBA (inflates 191 MiB)",
        lambda: _refused_image(png_bomb),
        len(png_bomb),
    )
    timed(
        "Anki: write the largest bank",
        lambda: write_quiz(largest, {}, FORMATS["apkg"], WriteOptions()),
        0,
    )
    print()
    growth()


def _refused_image(data: bytes) -> None:
    try:
        inspect_image(data)
    except ImageError as error:
        raise ConversionError([str(error)]) from None


# --- how the work grows: each hostile input at n and 2n ---------------------------------

GROWTH_SIZE = 256 * 1024  # n: 2n is the text formats' limit, 512 KiB


def _action(hostile: Hostile) -> Callable[[bytes | str], object]:
    functions: dict[str, Callable[[Any], object]] = {
        "html": html_to_text,
        "languages": split_languages,
        "markup": parse_markup,
        "telegram_html": lambda text: (visible_length(text), split_blocks([text], 4096)),
    }
    if hostile.target in functions:
        return functions[hostile.target]
    reader = FORMATS[hostile.target].reader
    assert reader is not None
    return lambda data: reader(data, ReadOptions(skip_unsupported=True))  # type: ignore[arg-type]


def _cpu(action: Callable[[Any], object], value: object) -> tuple[float, str]:
    """The CPU time of one run, and what came of it: read, or the start of the refusal."""
    started = time.process_time()
    outcome = "read"
    try:
        action(value)
    except ConversionError as error:
        outcome = f"refused: {error.problems[0][:40]}"
    return time.process_time() - started, outcome


def _cell(text: str) -> str:
    """Text as a cell of a Markdown table (docs/performance.md takes the table as printed)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("|", "\\|")


def growth(runs: int = 5) -> None:
    """Each hostile input of bench/hostile.py at n = 256 KiB and 2n, the CPU time of its
    reader (the medians of `runs`, n and 2n interleaved) and their ratio: about 2 for
    linear work, 4 for quadratic."""
    print("| hostile input, n = 256 KiB | n | 2n | ratio | 2n: |")
    print("| --- | ---: | ---: | ---: | --- |")
    for hostile in HOSTILE:
        action = _action(hostile)
        small, large = hostile.build(GROWTH_SIZE), hostile.build(2 * GROWTH_SIZE)
        times: tuple[list[float], list[float]] = ([], [])
        outcome = ""
        for _ in range(runs):
            times[0].append(_cpu(action, small)[0])
            took, outcome = _cpu(action, large)
            times[1].append(took)
        n, twice = statistics.median(times[0]), statistics.median(times[1])
        print(
            f"| {_cell(hostile.name)} | {n * 1000:.1f} ms | {twice * 1000:.1f} ms | "
            f"{twice / max(n, 1e-6):.2f} | {_cell(outcome)} |"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["growth"]:
        growth()
    else:
        main()
