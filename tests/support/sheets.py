"""Excel workbooks for the format tests: built from rows, and with their first sheet's XML
rewritten (to pad it or to smuggle a declaration into it)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

from openpyxl import Workbook

SHEET_XML = "xl/worksheets/sheet1.xml"


ONE_QUESTION: list[list[object]] = [
    ["question", "option1", "option2", "answer"],
    ["Q?", "a", "b", "A"],
]


def book_of(rows: list[list[object]]) -> Workbook:
    """A workbook whose first sheet holds `rows` (to be changed further, then `saved`)."""
    book = Workbook()
    sheet = book.worksheets[0]
    for row in rows:
        sheet.append(row)
    return book


def saved(book: Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def workbook_bytes(rows: list[list[object]], quiz: list[list[object]] | None = None) -> bytes:
    """An .xlsx whose first sheet holds `rows` and, when given, a sheet `quiz` holding `quiz`."""
    book = book_of(rows)
    if quiz is not None:
        quiz_sheet = book.create_sheet("quiz")
        for row in quiz:
            quiz_sheet.append(row)
    return saved(book)


def with_sheet_xml(data: bytes, change: Callable[[bytes], bytes]) -> bytes:
    """The same .xlsx (deflated) with `change` applied to its first sheet's XML."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            target.writestr(
                info.filename, change(content) if info.filename == SHEET_XML else content
            )
    return buffer.getvalue()
