"""CSV and Excel (issue 15): the columns of the contract on files of every construct, with and
without a byte order mark, quoted commas and line breaks, other languages and images; bad
rows answered with their place (the table of them: tests/content/test_formats_refusals.py); an
.xlsx that is too big, a zip bomb or no spreadsheet refused before openpyxl unpacks it; round
trips YAML -> CSV -> YAML equal on what CSV carries (XLSX: test_formats_round_trips.py); the
template; properties."""

from __future__ import annotations

import contextlib
import io
import random
import time
import zipfile
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from bench.formats import big_quiz
from bench.hostile import sheet
from content.export import bank_data
from content.formats.base import ConversionError, ReadOptions
from content.formats.convert import Loaded
from content.formats.table import COLUMNS, split_answers
from content.formats.xlsx_sheet import MAX_XLSX_BYTES, read_xlsx, template
from content.model import LocalizedText
from tests.support.formats import HERE, projected, read, refused, trip
from tests.support.images import png
from tests.support.sheets import ONE_QUESTION, book_of, saved, with_sheet_xml, workbook_bytes


def csv_questions(data: bytes) -> dict[str, dict[str, object]]:
    loaded = read(data, "csv", "constructs.csv", folder=HERE)
    return {q["id"]: q for q in bank_data(loaded.quiz)["questions"]}


CONSTRUCTS = (HERE / "constructs.csv").read_bytes()


def test_csv_rows_of_every_type() -> None:
    questions = csv_questions(CONSTRUCTS)
    assert list(questions) == ["s1", "m2", "t3", "n4", "y5"]
    s1 = questions["s1"]
    assert s1["text"] == {
        "en": "Which split puts consecutive layers on different GPUs, one after another?",
        "yo": "Èwo ni?",
    }
    assert s1["options"] == [
        {"en": "Tensor", "yo": "Tensor-yo"},
        {"en": "Pipeline"},
        {"en": "Data"},
    ]
    assert s1["answer"] == 1
    assert s1["explanation"] == {"en": 'Pipeline: "groups" of layers, in order.'}
    assert (s1["image"], s1["image_alt"]) == ("images/square.png", {"en": "A square"})
    assert questions["m2"]["answer"] == [0, 1]
    assert questions["t3"]["text"] == {"en": "Data parallelism copies\nthe whole model."}
    assert questions["t3"]["answer"] is True
    assert questions["t3"]["explanation_image"] == "images/square.png"
    n4 = questions["n4"]
    assert (n4["answer"], n4["tolerance"], n4["unit"]) == (14, 0.5, {"en": "GB"})
    y5 = questions["y5"]
    assert y5["answer"] == [
        {"en": "bubble"},
        {"en": "pipeline bubble"},
        {"en": "the bubble", "yo": "òfo"},
        {"en": "a|b"},
    ]
    assert y5["strict_diacritics"] is True


def test_csv_without_a_byte_order_mark_and_with_semicolons() -> None:
    assert csv_questions(CONSTRUCTS.removeprefix(b"\xef\xbb\xbf")) == csv_questions(CONSTRUCTS)
    semicolons = b"id;question;option1;option2;answer\nq1;Which, then?;a;b;B\n"
    loaded = read(semicolons, "csv")
    assert loaded.quiz.questions[0].text == LocalizedText({"en": "Which, then?"})


def test_the_quiz_of_a_csv_is_named_after_the_file_or_the_options() -> None:
    loaded = read(CONSTRUCTS, "csv", "Week 3 quiz.csv", folder=HERE)
    assert (loaded.quiz.id, loaded.quiz.title) == (
        "week-3-quiz",
        LocalizedText({"en": "Week 3 quiz"}),
    )
    loaded = read(CONSTRUCTS, "csv", "x.csv", folder=HERE, quiz_id="pipes", title="Pipes")
    assert (loaded.quiz.id, loaded.quiz.title) == ("pipes", LocalizedText({"en": "Pipes"}))


def test_a_field_of_another_type_is_refused_by_the_validator_at_its_row() -> None:
    rows = "question,option1,option2,answer,tolerance\nWhich?,a,b,A,0.5\n"
    problems = refused(rows.encode(), "csv")
    assert problems == (
        "line 2, field tolerance: not a field of a single question "
        "(it belongs to numeric questions)",
    )


def test_typed_answers_split_on_unescaped_bars() -> None:
    assert split_answers("a|b\\|c|d\\\\|e") == ["a", "b|c", "d\\", "e"]


# --- Excel ----------------------------------------------------------------------------------


def test_an_xlsx_with_its_quiz_sheet() -> None:
    data = workbook_bytes(
        [
            ["id", "type", "question", "option1", "option2", "answer", "tolerance"],
            ["q1", None, "Which?", "a", "b", "B", None],
            ["q2", "true_false", "Is it?", None, None, True, None],  # Excel's TRUE
            ["q3", "numeric", "How many?", None, None, 14.5, 0.25],  # numbers as numbers
            [7, "typed", "Say it", None, None, "x|y", None],  # an id typed as a number
        ],
        [
            ["id", "weekly"],
            ["title", "Weekly quiz"],
            ["title:yo", "Àdánwò"],
            ["description", "Every week."],
            ["level", "hard"],
            ["guide", "https://example.org/g"],
            ["guide_title", "Guide"],
            ["shuffle_options", "false"],
        ],
    )
    loaded = read(data, "xlsx", "sheet.xlsx")
    quiz = loaded.quiz
    assert quiz.id == "weekly"
    assert quiz.title == LocalizedText({"en": "Weekly quiz", "yo": "Àdánwò"})
    assert (quiz.level.value, quiz.shuffle_options) == ("hard", False)
    assert quiz.guide is not None and quiz.guide.url == "https://example.org/g"
    assert [q.id for q in quiz.questions] == ["q1", "q2", "q3", "7"]
    data_ = bank_data(quiz)["questions"]
    assert (data_[1]["answer"], data_[2]["answer"], data_[2]["tolerance"]) == (True, 14.5, 0.25)


def test_an_unknown_key_of_the_quiz_sheet_is_refused_at_its_row() -> None:
    data = workbook_bytes(
        ONE_QUESTION,
        [["id", "x"], ["colour", "red"]],
    )
    problems = refused(data, "xlsx")
    assert problems[0].startswith("sheet quiz, row 2: unknown key 'colour'")


def test_a_date_in_a_cell_is_refused_with_its_place() -> None:
    import datetime

    data = workbook_bytes(
        [["question", "option1", "option2", "answer"], ["Q?", datetime.date(2024, 1, 2), "b", "A"]]
    )
    problems = refused(data, "xlsx")
    assert problems == ("row 2: column 2: a date or a time; write it as text",)


def test_other_sheets_are_named_not_read() -> None:
    book = book_of(ONE_QUESTION)
    book.create_sheet("notes").append(["anything"])
    loaded = read(saved(book), "xlsx")
    assert loaded.warnings == ("sheet 'notes' is not read (only the first, 'quiz' and 'help')",)


def test_fifty_megabytes_are_refused_before_opening() -> None:
    problems = refused(b"PK\x03\x04" + b"\0" * (50 * 1024 * 1024), "xlsx")
    assert problems == ("52,428,804 bytes; an Excel file may have at most 5,242,880 bytes",)


def zip_bomb() -> bytes:
    """A valid .xlsx whose sheet is padded with 30 MiB of spaces: 30 KiB packed."""
    data = workbook_bytes(ONE_QUESTION)
    return with_sheet_xml(
        data, lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b" " * (30 * 1024 * 1024))
    )


def test_a_zip_bomb_is_refused_from_its_declared_sizes() -> None:
    bomb = zip_bomb()
    assert len(bomb) < 100 * 1024
    started = time.perf_counter()
    problems = refused(bomb, "xlsx")
    assert time.perf_counter() - started < 1  # nothing was unpacked
    assert problems[0].startswith("xl/worksheets/sheet1.xml: expands ")
    assert problems[0].endswith("times; at most 100 (a zip bomb?)")


def test_a_zip_that_lies_about_its_sizes_is_refused_as_damaged() -> None:
    data = bytearray(workbook_bytes([["question", "answer"], ["Q?", "A"]]))
    # shrink every declared size in the central directory: zipfile then reads past none of them
    position = data.find(b"PK\x01\x02")
    while position >= 0:
        data[position + 24 : position + 28] = (1).to_bytes(4, "little")
        position = data.find(b"PK\x01\x02", position + 4)
    problems = refused(bytes(data), "xlsx")
    assert problems[0].endswith("damaged (BadZipFile)")  # found while its parts are counted


def test_a_file_that_is_not_a_spreadsheet() -> None:
    problems = refused(b"id,question\n", "xlsx")
    assert problems == ("not an .xlsx file (it is not a readable zip)",)
    plain_zip = io.BytesIO()
    with zipfile.ZipFile(plain_zip, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(ConversionError) as caught:
        read(plain_zip.getvalue(), "xlsx")
    assert caught.value.problems[0].startswith("not a readable .xlsx file")


def test_a_sheet_reaching_the_last_excel_row_is_read_in_bounded_time() -> None:
    book = book_of(ONE_QUESTION)
    book.worksheets[0].cell(row=1_048_576, column=1, value="far")
    started = time.perf_counter()
    problems = refused(saved(book), "xlsx")
    assert time.perf_counter() - started < 10
    # the far row is a question too, and says what it lacks: nothing was dropped silently
    assert problems[0] == "row 1048576: answer '': the right option's letter, such as A"


# --- round trips ----------------------------------------------------------------------------


def test_yaml_to_csv_to_yaml_is_equal_on_what_csv_carries(sample_bank: Loaded) -> None:
    loaded = sample_bank
    back, output = trip(loaded, "csv", quiz_id=loaded.quiz.id)
    expected = projected(
        loaded.quiz, bank_fields=False, title=LocalizedText({"en": loaded.quiz.id})
    )
    assert back.quiz == expected
    assert output.warnings[0].startswith("CSV has no quiz id or title")
    if loaded.quiz.description is not None:
        assert "CSV cannot hold the description" in output.warnings[1]


def test_the_template_reads_as_a_quiz_of_every_type() -> None:
    data = template()
    loaded = read(data, "xlsx", "quiz.xlsx")
    assert [q.type.value for q in loaded.quiz.questions] == [
        "single",
        "multiple",
        "true_false",
        "numeric",
        "typed",
    ]
    assert loaded.quiz.id == "my-quiz"
    book = load_workbook(io.BytesIO(data))
    sheet = book["questions"]
    assert [cell.value for cell in sheet[1]] == list(COLUMNS)
    validations = sheet.data_validations.dataValidation
    assert len(validations) == 1
    assert validations[0].formula1 == '"single,multiple,true_false,numeric,typed"'
    assert str(validations[0].sqref) == "B2:B1001"


# --- properties -----------------------------------------------------------------------------


VALID_XLSX = workbook_bytes(ONE_QUESTION, [["id", "x"]])


@given(st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_damaged_xlsx_gives_a_conversion_error(data: st.DataObject) -> None:
    damaged = bytearray(VALID_XLSX)
    for _ in range(data.draw(st.integers(1, 8))):
        position = data.draw(st.integers(0, len(damaged) - 1))
        damaged[position] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(len(damaged) // 2, len(damaged)))
    with contextlib.suppress(ConversionError):
        read_xlsx(bytes(damaged[:cut]), ReadOptions())


def test_images_in_a_bundle_with_the_sheet() -> None:
    from content.bundle import write_bundle
    from content.formats.convert import read_bundle_quiz

    sheet = workbook_bytes(
        [["question", "option1", "option2", "answer", "image"], ["Q?", "a", "b", "A", "pics/a.png"]]
    )
    bundle = write_bundle("quiz/sheet.xlsx", sheet, {"pics/a.png": png()})
    loaded = read_bundle_quiz(bundle, ReadOptions())
    assert loaded.quiz.id == "sheet"
    assert dict(loaded.images) == {"pics/a.png": png()}


def test_a_sheet_wider_than_a_question_sheet_is_refused() -> None:
    data = workbook_bytes([["question", "option1", "option2", "answer"], [None] * 16_383 + ["far"]])
    problems = refused(data, "xlsx")
    assert problems == ("the sheet has 16,384 columns; a question sheet has at most 500",)


def test_a_conversion_that_would_not_fit_a_bank_is_refused() -> None:
    row = "q{n},{text},a,b,A\n"
    rows = "id,question,option1,option2,answer\n" + "".join(
        row.format(n=n, text="x" * 790) for n in range(500)
    )
    data = rows.encode()
    assert len(data) < 512 * 1024
    loaded = read(data, "csv")  # 500 questions of 790 characters: a bank just fits
    assert len(loaded.quiz) == 500
    wider = "id,question,question:yo,option1,option2,answer\n" + "".join(
        f"q{n},{'x' * 500},{'y' * 500},a,b,A\n" for n in range(500)
    )
    problems = refused(wider.encode(), "csv")
    assert problems[0].startswith("the bank would take ")
    assert problems[0].endswith(" bytes as YAML; a bank has at most 524,288")


def test_entities_inside_an_xlsx_are_refused() -> None:
    """openpyxl parses through defusedxml when it is installed (it is a dependency), and the
    parts are counted before it sees them: a sheet declaring entities is refused, not
    expanded."""
    import openpyxl.xml

    assert openpyxl.xml.DEFUSEDXML
    data = workbook_bytes(ONE_QUESTION)
    declared = with_sheet_xml(
        data,
        lambda xml: xml.replace(
            b"<worksheet",
            b'<!DOCTYPE w [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><worksheet',
            1,
        ).replace(b"<sheetData>", b"<sheetData>&lol2;", 1),
    )
    problems = refused(declared, "xlsx")
    assert problems == ("a DTD or an entity declaration; a spreadsheet has none",)


# --- parts that cost openpyxl more than their size says ----------------------------------


def _formats(count: int) -> bytes:
    """Cell formats as a bloated workbook holds them: each a little different (about 15:1
    packed, as the 2.6 MB styles.xml of 590,000 formats that took openpyxl 21 s)."""
    rng = random.Random(count)
    return b"".join(b'<xf numFmtId="%d"/>' % rng.randrange(200) for _ in range(count))


@pytest.mark.parametrize("count", [30_000, 590_000])
def test_a_styles_part_of_too_many_cell_formats_is_refused_before_openpyxl(count: int) -> None:
    data = sheet(styles=_formats(count))
    assert len(data) < MAX_XLSX_BYTES
    started = time.process_time()
    problems = refused(data, "xlsx")
    assert time.process_time() - started < 1
    assert problems[0].startswith("xl/styles.xml: ")
    assert "a sheet of questions needs a few: copy the questions into a new workbook" in problems[0]


def test_too_much_shared_text_is_refused_before_openpyxl() -> None:
    rng = random.Random(1)
    data = sheet(strings=tuple(b"%d" % rng.randrange(10**6) for _ in range(60_000)))
    assert refused(data, "xlsx") == (
        "xl/sharedStrings.xml: more than 80,000 elements of shared text; a bank of 500 "
        "questions takes about 25,000",
    )


def test_rows_of_empty_cells_in_a_sheet_without_dimension_are_refused_by_their_cost() -> None:
    """A row of one empty cell is made as wide as the sheet (500 columns without a
    <dimension>): 40,000 such rows took openpyxl 3 s."""
    rows = b"".join(b'<row r="%d"><c r="A%d"/></row>' % (n, n) for n in range(2, 30_002))
    started = time.process_time()
    problems = refused(sheet(rows=rows), "xlsx")
    assert time.process_time() - started < 1
    assert problems == (
        "row 4001: the sheet has more than 2,000,000 cells (500 columns a row); a sheet of "
        "questions is far smaller",
    )


def test_a_dtd_in_any_part_is_refused_before_anything_expands() -> None:
    laughs = b'<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    data = sheet(strings=(b"&b;",))
    data = _replace_part(data, "xl/sharedStrings.xml", lambda xml: laughs + xml)
    assert refused(data, "xlsx") == ("a DTD or an entity declaration; a spreadsheet has none",)


def _replace_part(data: bytes, name: str, change: Callable[[bytes], bytes]) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            part = source.read(info)
            target.writestr(info.filename, change(part) if info.filename == name else part)
    return buffer.getvalue()


def test_a_largest_bank_in_two_languages_still_reads_as_excel() -> None:
    quiz = big_quiz(86, 21, 86)  # 500 questions of ten options, just under 512 KiB as YAML
    back, _ = trip(Loaded(quiz), "xlsx")
    assert back.quiz == quiz
