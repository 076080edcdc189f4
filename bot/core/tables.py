"""Report tables (a header and rows) as CSV or Excel files, safe to open in a spreadsheet.

A report holds text other people typed: names, answers, titles. A spreadsheet reads a cell
that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a formula,
so such text gets a leading `'` (`neutralize`) and is written as text. A number stays a
number. For reports only: the bank formats (content/formats) must round-trip what was typed.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from bot.core.render import choice_count, letter, letters
from content.grid import Grid, GridRow
from content.model import Question, QuestionType, clip

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")

Cell = str | int | float | None


def neutralize(text: str) -> str:
    """Text as a spreadsheet shows it, never run as a formula: a leading `'` before a formula
    start; a number such as `-3` is left as it is."""
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


@dataclass(frozen=True)
class Table:
    """A report: one header row, then rows of cells (text is neutralized when written)."""

    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def cells(self) -> list[list[Cell]]:
        return [
            [neutralize(cell) if isinstance(cell, str) else cell for cell in row]
            for row in (self.header, *self.rows)
        ]


def to_csv(table: Table) -> bytes:
    """UTF-8 with a byte-order mark, which spreadsheets need to read it as UTF-8."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in table.cells():
        writer.writerow(["" if cell is None else cell for cell in row])
    return buffer.getvalue().encode("utf-8-sig")


def to_xlsx(table: Table, sheet_title: str = "report") -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = sheet_title[:31]
    for row in table.cells():
        # control characters have no place in a sheet's XML (openpyxl refuses them)
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", c) if isinstance(c, str) else c for c in row])
    for row_cells in sheet.iter_rows():
        for cell in row_cells:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text, whatever it starts with
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    for number, name in enumerate(table.header, 1):
        sheet.column_dimensions[get_column_letter(number)].width = max(10, min(40, len(name) + 2))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def answer_cell(question: Question | None, chosen: int, correct: bool) -> str:
    """A chosen option as its letter (the bank's order; True is A, False B), a multiple
    question's options as theirs ("A, C": `chosen` has a bit per option), and ✓ or ✗."""
    count = choice_count(question) if question is not None else 0
    if question is not None and question.type is QuestionType.MULTIPLE and chosen > 0:
        shown = letters([i for i in range(count) if chosen >> i & 1]) or str(chosen)
    else:
        shown = letter(chosen) if 0 <= chosen < count else str(chosen)
    return f"{shown} {'✓' if correct else '✗'}"


def grid_header(grid: Grid) -> tuple[str, ...]:
    """The grid's columns in a file: the credit in all, then a question's mark each, headed
    by its number and the start of its text."""
    return ("credit", *(f"{q.number}. {clip(q.text, 60)}" for q in grid.questions))


def grid_cells(row: GridRow) -> tuple[Cell, ...]:
    """A learner's total and marks in a file: numbers (the credit, 0 to 1), empty where the
    question was not answered."""
    return (_number(row.total), *(None if m is None else _number(m) for m in row.marks))


def answers_header(grid: Grid) -> tuple[str, ...]:
    """The columns of the answers given, after the grid's: one per question."""
    return tuple(f"answer {q.number}" for q in grid.questions)


def _number(value: float) -> int | float:
    return int(value) if value == int(value) else round(value, 2)


def rows_of(data: bytes) -> list[list[str]]:
    """A CSV report read back (for tests and tools)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
