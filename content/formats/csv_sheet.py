"""CSV: the table of content/formats/table.py, UTF-8 with or without a byte order mark,
separated by commas (semicolons or tabs when the header uses them, as Excel does in some
languages). A CSV holds no quiz fields: the id and title come from --id/--title or the
file name. Written with a byte order mark, so that Excel opens it as UTF-8."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping

from content.formats.base import (
    ConversionError,
    Draft,
    ReadOptions,
    WriteOptions,
    Written,
    decode_text,
    quiz_fields_left_out,
)
from content.formats.table import (
    FORMULA_STARTS,
    NUMBER,
    header_for,
    numbers_left_out,
    question_row,
    read_table,
)
from content.model import Quiz


def guarded(text: str) -> str:
    """A cell as CSV writes it: text that a spreadsheet would run as a formula (it starts with
    `=`, `+`, `-`, `@`, a tab or a carriage return, after any `'`) gets a leading `'`, which
    spreadsheets show and our reader takes away; a plain number such as `-3` is left alone.
    `unguarded(guarded(text)) == text` for every text."""
    bare = text.lstrip("'")
    if bare.startswith(FORMULA_STARTS) and (bare != text or not NUMBER.fullmatch(text)):
        return "'" + text
    return text


def unguarded(cell: str) -> str:
    """A cell as our reader takes it: the `'` that `guarded` put before a formula start
    removed."""
    if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


def _delimiter(text: str) -> str:
    first = text.split("\n", 1)[0]
    if "," in first:
        return ","
    return ";" if ";" in first else "\t" if "\t" in first else ","


def read_csv(data: bytes, options: ReadOptions) -> Draft:
    text = decode_text(data)
    draft = Draft(bank={})
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)

    def rows() -> Iterator[tuple[str, list[str]]]:
        line = 1
        try:
            for cells in reader:
                yield f"line {line}", [unguarded(cell) for cell in cells]
                line = reader.line_num + 1
        except csv.Error as error:
            raise ConversionError([f"line {reader.line_num}: {error}"]) from None

    read_table(rows(), options.language, draft.problems, draft)
    return draft


def write_csv(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    header = header_for(quiz, options.language)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for question in quiz.questions:
        writer.writerow(
            [
                "" if cell is None else guarded(cell) if isinstance(cell, str) else cell
                for cell in question_row(question, header, options.language)
            ]
        )
    warnings = [
        "CSV has no quiz id or title: they come back from the file name or from --id and --title"
    ]
    if dropped := quiz_fields_left_out(quiz):
        warnings.append(
            f"CSV cannot hold {', '.join(dropped)}: left out (an .xlsx has a quiz sheet for them)"
        )
    warnings.extend(numbers_left_out(quiz))
    named = {image.location for q in quiz.questions for image in q.images if not image.is_url}
    return Written(
        ("\ufeff" + buffer.getvalue()).encode(),
        {name: images[name] for name in sorted(named)},
        tuple(warnings),
    )
