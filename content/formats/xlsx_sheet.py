"""Excel (.xlsx): the questions' table (content/formats/table.py) on the first sheet, and a
sheet `quiz` with the bank's own fields as key/value rows: id, title, description, level,
guide (its URL), guide_title, shuffle_options, and `title:yo`, `description:yo`,
`guide_title:yo` for other languages. A sheet `help` is for people and not read.

An .xlsx is untrusted input and a zip: its size is checked before it is opened (5 MiB), the
zip's entries are checked like a bundle's (count, declared sizes, how far each expands, 40 MiB
unpacked in all) and the elements of its XML parts counted (content/formats/xlsx_parts.py)
before openpyxl sees it, openpyxl opens it read-only, and the rows and columns read are
bounded.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from content.formats.base import (
    ConversionError,
    Draft,
    Problems,
    ReadOptions,
    WriteOptions,
    Written,
    exam_left_out,
    no_quiz_id,
    quiz_slug,
)
from content.formats.table import (
    COLUMNS,
    MAX_COLUMNS,
    TYPES,
    cell_text,
    header_for,
    numbers_left_out,
    question_row,
    read_table,
)
from content.formats.xlsx_parts import count_parts
from content.images import MIB
from content.model import Level, LocalizedText, Quiz
from content.schema import LANGUAGE_CODE

MAX_XLSX_BYTES = 5 * MIB
MAX_UNPACKED = 40 * MIB  # sheet XML compresses about ten times; a 5 MiB file of text fits
MAX_ENTRIES = 1000
MAX_RATIO = 100
RATIO_FLOOR = 64 * 1024
EXCEL_MAX_ROWS = 1_048_576  # rows beyond Excel's last are not read
# Rows in the file times the sheet's width: 500 questions of 40 columns are 20,000. A row of
# one empty cell still costs its width (openpyxl fills it), about 0.15 µs a cell.
MAX_CELLS = 2_000_000
QUIZ_SHEET = "quiz"
HELP_SHEET = "help"
QUIZ_KEYS = ("id", "title", "description", "level", "guide", "guide_title", "shuffle_options")
LOCALIZED_KEYS = frozenset({"title", "description", "guide_title"})
_CENTRAL_ENTRY = b"PK\x01\x02"


def check_zip(data: bytes) -> None:
    """Refuse an .xlsx that is too big or a zip bomb, before anything is unpacked."""
    if len(data) > MAX_XLSX_BYTES:
        raise ConversionError([f"{len(data):,} bytes; an .xlsx may have at most 5 MiB"])
    if data.count(_CENTRAL_ENTRY) > MAX_ENTRIES:
        raise ConversionError([f"more than {MAX_ENTRIES} parts; not a question sheet"])
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception:  # zipfile raises many kinds on crafted headers
        raise ConversionError(["not an .xlsx file (it is not a readable zip)"]) from None
    with archive:
        declared = 0
        for info in archive.infolist():
            name = info.filename[:60]
            if info.flag_bits & 0x1:
                raise ConversionError([f"{name}: encrypted; save the sheet without a password"])
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ConversionError([f"{name}: compressed with a method other than deflate"])
            if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(
                info.compress_size, 1
            ):
                ratio = info.file_size // max(info.compress_size, 1)
                raise ConversionError(
                    [f"{name}: expands {ratio:,} times; at most {MAX_RATIO} (a zip bomb?)"]
                )
            declared += info.file_size
            if declared > MAX_UNPACKED:
                raise ConversionError(
                    [
                        f"more than {MAX_UNPACKED // MIB} MiB unpacked; a question sheet is far smaller"
                    ]
                )
        count_parts(archive)


def _rows(sheet: Any, width: int) -> Iterator[tuple[str, Sequence[Any]]]:
    """The sheet's rows up to Excel's last; rows missing from the file come as empty rows.

    openpyxl fills each missing row with one shared tuple of Nones: seen once, it is passed
    on without looking at its cells again, so a sheet whose one cell sits in Excel's last
    row costs a million cheap steps, not a million times its width."""
    filler: object = None
    cells = 0
    for number, row in enumerate(
        sheet.iter_rows(max_row=EXCEL_MAX_ROWS, max_col=width, values_only=True), 1
    ):
        if row is filler:
            continue
        if filler is None and not any(cell is not None for cell in row):
            filler = row
        cells += width  # each row in the file is made as wide as the sheet: what it costs
        if cells > MAX_CELLS:
            raise ConversionError(
                [
                    f"row {number}: the sheet has more than {MAX_CELLS:,} cells "
                    f"({width} columns a row); a sheet of questions is far smaller"
                ]
            )
        yield f"row {number}", row


def read_xlsx(data: bytes, options: ReadOptions) -> Draft:
    check_zip(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds on damaged files
        raise ConversionError([f"not a readable .xlsx file ({type(error).__name__})"]) from None
    draft = Draft(bank={})
    problems = draft.problems
    try:
        names = workbook.sheetnames
        questions = workbook[names[0]]
        width = questions.max_column or MAX_COLUMNS
        if width > MAX_COLUMNS:
            raise ConversionError(
                [f"the sheet has {width:,} columns; a question sheet has at most {MAX_COLUMNS}"]
            )
        read_table(_rows(questions, width), options.language, problems, draft)
        if QUIZ_SHEET in names[1:]:
            _quiz_sheet(workbook[QUIZ_SHEET], options.language, problems, draft)
        for name in names[1:]:
            if name not in (QUIZ_SHEET, HELP_SHEET):
                draft.warnings.append(
                    f"sheet {name[:30]!r} is not read (only the first, {QUIZ_SHEET!r} and {HELP_SHEET!r})"
                )
    except ConversionError:
        raise
    except Exception as error:  # a damaged part found while reading rows
        raise ConversionError([f"not a readable .xlsx file ({type(error).__name__})"]) from None
    finally:
        workbook.close()
    return draft


def _quiz_sheet(sheet: Any, language: str, problems: Problems, draft: Draft) -> None:
    place_of = f"sheet {QUIZ_SHEET}"
    texts: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    for number, row in enumerate(sheet.iter_rows(max_row=200, max_col=2, values_only=True), 1):
        place = f"{place_of}, row {number}"
        try:
            key = cell_text(row[0]).lower() if row else ""
            value = cell_text(row[1]) if len(row) > 1 else ""
        except TypeError as error:
            problems.error(place, f"{error}; write it as text")
            continue
        if not key and not value:
            continue
        base, _, code = key.partition(":")
        if base not in QUIZ_KEYS or (code and base not in LOCALIZED_KEYS):
            problems.error(
                place,
                f"unknown key {key[:30]!r}; the keys are {', '.join(QUIZ_KEYS)} and title:yo, description:yo, guide_title:yo",
            )
            continue
        if code and not LANGUAGE_CODE.match(code):
            problems.error(place, f"{code[:10]!r} is not a language code such as 'yo'")
            continue
        if key in seen:
            problems.error(place, f"{key!r} is there twice")
            continue
        seen.add(key)
        if not value:
            continue
        draft.field_origins.setdefault("guide" if base == "guide_title" else base, place)
        if base in LOCALIZED_KEYS:
            texts.setdefault(base, {})[code or language] = value
        elif base == "shuffle_options":
            if value.lower() not in ("true", "false"):
                problems.error(place, "shuffle_options is true or false")
                continue
            draft.bank["shuffle_options"] = value.lower() == "true"
        elif base == "id":  # slugified as a Moodle category's idnumber is
            if (quiz_id := quiz_slug(value)) is None:
                draft.warnings.append(f"{place}: {no_quiz_id('the id', value)}")
                continue
            draft.bank["id"] = quiz_id
        else:
            draft.bank[base] = value
    for base, translations in texts.items():
        if base != "guide_title":
            draft.bank[base] = translations
    if "guide" in draft.bank or "guide_title" in texts:
        draft.bank["guide"] = {
            "title": texts.get("guide_title", {}),
            "url": draft.bank.get("guide", ""),
        }
        if not texts.get("guide_title"):
            problems.error(place_of, "a guide has a guide_title and a guide (its URL)")


# --- writing -------------------------------------------------------------------------------


def _quiz_rows(quiz: Quiz, language: str) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [("id", quiz.id)]

    def localized(key: str, value: LocalizedText | None) -> None:
        if value is None:
            return
        for code, text in value.translations.items():
            rows.append((key if code == language else f"{key}:{code}", text))

    localized("title", quiz.title)
    localized("description", quiz.description)
    rows.append(("level", quiz.level.value))
    if quiz.guide is not None:
        rows.append(("guide", quiz.guide.url))
        localized("guide_title", quiz.guide.title)
    rows.append(("shuffle_options", "true" if quiz.shuffle_options else "false"))
    return rows


def _workbook(
    header: Sequence[str], rows: Sequence[Sequence[Any]], quiz_rows: Sequence[tuple[str, Any]]
) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "questions"
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    if "type" in header:
        letter = get_column_letter(header.index("type") + 1)
        validation = DataValidation(
            type="list",
            formula1=f'"{",".join(TYPES)}"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="type",
            error=f"The types are {', '.join(TYPES)} (empty: single).",
        )
        validation.add(f"{letter}2:{letter}1001")
        sheet.add_data_validation(validation)
    for number, name in enumerate(header, 1):
        width = 40 if name.split(":")[0] in ("question", "explanation") else 16
        sheet.column_dimensions[get_column_letter(number)].width = width
    quiz_sheet = workbook.create_sheet(QUIZ_SHEET)
    for key, value in quiz_rows:
        quiz_sheet.append([key, value])
    quiz_sheet.column_dimensions["A"].width = 18
    quiz_sheet.column_dimensions["B"].width = 60
    levels = DataValidation(type="list", formula1=f'"{",".join(level.value for level in Level)}"')
    keys = [key for key, _ in quiz_rows]
    if "level" in keys:
        levels.add(f"B{keys.index('level') + 1}")
        quiz_sheet.add_data_validation(levels)
    for each in (sheet, quiz_sheet):
        _as_text(each)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _as_text(sheet: Any) -> None:
    """Every text cell written as text: openpyxl makes text that starts with `=` a formula,
    which a spreadsheet would run when the file is opened (bot/core/tables.py does the same
    for reports)."""
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = "s"


def write_xlsx(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    header = header_for(quiz, options.language)
    rows = [question_row(question, header, options.language) for question in quiz.questions]
    data = _workbook(header, rows, _quiz_rows(quiz, options.language))
    named = {image.location for q in quiz.questions for image in q.images if not image.is_url}
    warnings = [*numbers_left_out(quiz), *exam_left_out(quiz, "An Excel workbook")]
    return Written(data, {name: images[name] for name in sorted(named)}, tuple(warnings))


TEMPLATE_ROWS: tuple[dict[str, Any], ...] = (
    {
        "id": "q1",
        "type": "single",
        "question": "Which split puts consecutive layers on different GPUs?",
        "option1": "Tensor parallelism",
        "option2": "Pipeline parallelism",
        "option3": "Data parallelism",
        "answer": "B",
        "explanation": "Pipeline parallelism gives each GPU a group of consecutive layers.",
    },
    {
        "id": "q2",
        "type": "multiple",
        "question": "Which of these lower the memory each GPU needs for the weights?",
        "option1": "Tensor parallelism",
        "option2": "Pipeline parallelism",
        "option3": "Plain data parallelism",
        "answer": "A,B",
        "weights": "50|50|-100",
    },
    {
        "id": "q3",
        "type": "true_false",
        "question": "Data parallelism copies the whole model to every GPU.",
        "answer": "true",
    },
    {
        "id": "q4",
        "type": "numeric",
        "question": "7 billion fp16 parameters take how many GB?",
        "answer": 14,
        "tolerance": 0.5,
        "unit": "GB",
    },
    {
        "id": "q5",
        "type": "typed",
        "question": "What is the idle time at the ends of a pipeline called?",
        "answer": "bubble|pipeline bubble",
    },
)


def template() -> bytes:
    """An empty quiz sheet to fill: every column, one example row per type, data validation on
    `type`, and the quiz sheet with its keys."""
    header = list(COLUMNS)
    rows = [[row.get(name) for name in header] for row in TEMPLATE_ROWS]
    quiz_rows = [
        ("id", "my-quiz"),
        ("title", "My quiz"),
        ("description", "What this quiz is about."),
        ("level", "medium"),
        ("guide", ""),
        ("guide_title", ""),
        ("shuffle_options", "true"),
    ]
    return _workbook(header, rows, quiz_rows)
