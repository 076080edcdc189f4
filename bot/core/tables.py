"""Report tables (a header and rows) as CSV or Excel files, safe to open in a spreadsheet.

A report holds text other people typed: names, answers, titles. A spreadsheet reads a cell
that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a formula,
so such text gets a leading `'` (`neutralize`) and is written as text. A number stays a
number. For reports only: the bank formats (content/formats) must round-trip what was typed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from bot.core.render import choice_count, letters
from content.formats.table import FORMULA_STARTS, NUMBER
from content.grading import NumberReply, TextReply, choices_of, stored_response
from content.grid import Grid, GridRow
from content.model import Question, clip

Cell = str | int | float | None
MAX_REPLY_IN_CELL = 60  # characters of a typed reply shown in a report


def neutralize(text: str) -> str:
    """Text as a spreadsheet shows it, never run as a formula: a leading `'` before a formula
    start; a number such as `-3` is left as it is."""
    if text.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(text):
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
    for row in (table.header, *table.rows):  # one pass over the cells (a million, at most)
        writer.writerow(
            [neutralize(cell) if isinstance(cell, str) else "" if cell is None else cell
             for cell in row]
        )  # fmt: skip
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


def answer_cell(
    question: Question | None, chosen: int, credit: float, reply: str | None = None
) -> str:
    """A stored answer as a report shows it: the chosen options as their letters (the bank's
    order; True is A, False B), or the reply; then ✓ (fully right), ✗ (no credit) or what it
    counts for (`50%`, `-100%`)."""
    mark = "✓" if credit == 1 else "✗" if credit == 0 else f"{round(100 * credit)}%"
    if question is None:
        return f"{reply if reply is not None else chosen} {mark}"
    response = stored_response(question, chosen, reply)
    if isinstance(response, NumberReply | TextReply):
        return f"{clip(response.text, MAX_REPLY_IN_CELL)} {mark}"
    picked = choices_of(response)
    if any(not 0 <= choice < choice_count(question) for choice in picked):
        return f"{chosen} {mark}"  # the question has fewer options now
    return f"{letters(picked)} {mark}"


class AnswerCells:
    """`answer_cell`, each distinct answer worked out once: a report of 10,000 learners over
    50 questions asks for the same few cells 500,000 times (2 s of its 5 s). Questions are
    told apart by identity: one instance for one table's questions, which outlive it."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, int, float, str | None], str] = {}

    def __call__(
        self, question: Question | None, chosen: int, credit: float, reply: str | None = None
    ) -> str:
        key = (id(question), chosen, credit, reply)
        cell = self._known.get(key)
        if cell is None:
            cell = self._known[key] = answer_cell(question, chosen, credit, reply)
        return cell


def number_cell(value: float) -> int | float:
    """A score as a cell: 7, or 7.5 with partial credit (no floating-point dust)."""
    rounded = round(value, 2)
    return int(rounded) if rounded == int(rounded) else rounded


def grid_header(grid: Grid) -> tuple[str, ...]:
    """The grid's columns in a file: the credit in all, then a question's mark each, headed
    by its number and the start of its text."""
    return ("credit", *(f"{q.number}. {clip(q.text, 60)}" for q in grid.questions))


def grid_cells(row: GridRow) -> tuple[Cell, ...]:
    """A learner's total and marks in a file: numbers (the credit, -1 to 1), empty where the
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
