"""Excel workbooks for the format tests: built from rows, and with their first sheet's XML
rewritten (to pad it or to smuggle a declaration into it)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

from openpyxl import Workbook

SHEET_XML = "xl/worksheets/sheet1.xml"


def workbook_bytes(rows: list[list[object]], quiz: list[list[object]] | None = None) -> bytes:
    """An .xlsx whose first sheet holds `rows` and, when given, a sheet `quiz` holding `quiz`."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    if quiz is not None:
        quiz_sheet = book.create_sheet("quiz")
        for row in quiz:
            quiz_sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


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
