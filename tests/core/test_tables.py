"""Report tables: text someone typed never becomes a formula; numbers stay numbers."""

from __future__ import annotations

import io
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from bot.core.tables import (
    FORMULA_STARTS,
    Table,
    answer_cell,
    neutralize,
    rows_of,
    to_csv,
    to_xlsx,
)
from content.model import MultipleAnswer, Question, SingleAnswer, TrueFalseAnswer, TypedAnswer
from tests.support.quizzes import make_question, text


@given(st.text())
def test_neutralized_text_never_starts_a_formula(text: str) -> None:
    shown = neutralize(text)
    if shown.startswith(FORMULA_STARTS):  # left alone: only a plain number may
        float(shown)
        assert shown == text
    assert shown in (text, "'" + text)
    assert neutralize(shown) == shown  # once is enough


@given(st.sampled_from(FORMULA_STARTS), st.text())
def test_a_formula_start_gets_a_quote_unless_a_number(start: str, rest: str) -> None:
    text = start + rest
    try:
        float(text)
        is_number = text.strip() == text and "_" not in text and text[-1:].isdigit()
    except ValueError:
        is_number = False
    if not is_number:
        assert neutralize(text) == "'" + text


def test_the_known_attacks_and_numbers() -> None:
    assert neutralize('=HYPERLINK("http://x","y")') == '\'=HYPERLINK("http://x","y")'
    assert neutralize("@SUM(A1)") == "'@SUM(A1)"
    assert neutralize("+1+cmd|' /C calc'!A0") == "'+1+cmd|' /C calc'!A0"
    assert neutralize("\t=1") == "'\t=1" and neutralize("\r=1") == "'\r=1"
    assert (
        neutralize("-3") == "-3" and neutralize("+2.5") == "+2.5" and neutralize("-1e3") == "-1e3"
    )
    assert neutralize("- 3") == "'- 3" and neutralize("Ada") == "Ada"


TYPED = st.text(st.characters(blacklist_categories=("Cs", "Cc")))


@settings(deadline=None, max_examples=40)
@given(
    st.lists(st.tuples(TYPED, st.integers(-(2**53), 2**53)), max_size=5)
)  # a sheet number: a double
def test_csv_and_xlsx_read_back_as_written(rows: list[tuple[str, int]]) -> None:
    table = Table(("name", "points"), tuple(rows))
    written = table.cells()
    assert rows_of(to_csv(table)) == [[str(cell) for cell in row] for row in written]
    sheet = load_workbook(io.BytesIO(to_xlsx(table))).active
    assert sheet is not None
    read = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert read == [[cell if cell != "" else None for cell in row] for row in written]


def test_xlsx_drops_what_a_sheet_cannot_hold() -> None:
    sheet = load_workbook(io.BytesIO(to_xlsx(Table(("a",), (("x\x00y\x1b",),))))).active
    assert sheet is not None and sheet["A2"].value == "xy"


def test_an_answer_cell_shows_every_type_as_its_letters() -> None:
    single = make_question("s", "Q?", ["a", "b", "c"], 1)
    multiple = Question(
        "m", text("Q?"), tuple(text(o) for o in "abcd"), key=MultipleAnswer(frozenset({0, 2}))
    )
    true_false = Question("t", text("Q?"), (), key=TrueFalseAnswer(False))
    assert answer_cell(single, 1, 1.0) == "B ✓"
    assert answer_cell(multiple, 0b0101, 1.0) == "A, C ✓"
    assert answer_cell(multiple, 0b0011, 0.0) == "A, B ✗"
    assert answer_cell(multiple, 0b0111, 0.5) == "A, B, C 50%"
    assert answer_cell(true_false, 1, 1.0) == "B ✓"
    assert answer_cell(None, 3, 0.0) == "3 ✗"
    assert answer_cell(single, 7, 0.0) == "7 ✗"  # the question has fewer options now


def test_an_answer_cell_shows_what_a_weighted_answer_counts_for_and_a_reply() -> None:
    weighted = Question(
        "w", text("Q?"), tuple(text(o) for o in "abc"),
        key=SingleAnswer(0, (Decimal(100), Decimal(50), Decimal(-100))),
    )  # fmt: skip
    assert answer_cell(weighted, 1, 0.5) == "B 50%"
    assert answer_cell(weighted, 2, -1.0) == "C -100%"
    typed = Question("t", text("Q?"), (), key=TypedAnswer((text("bubble"),)))
    assert answer_cell(typed, -1, 1.0, "The bubble") == "The bubble ✓"
