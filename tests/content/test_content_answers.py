"""How a reply is read (content.answers): numbers typed by a learner, typed text. Examples for
every rule, and properties of the parser and the normalizer; how right an answer is, is
tests/content/test_grading.py's."""

from __future__ import annotations

import unicodedata
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from content.answers import DigitGrouping, NotANumber, Number, normalize, read_number
from content.model import LocalizedText

GB = LocalizedText({"en": "GB", "yo": "GB"})

# --- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("14", "14"),
        ("14.0", "14"),
        ("14,0", "14"),
        ("1.4e1", "14"),
        ("1,4E1", "14"),
        ("140e-1", "14"),
        ("+14", "14"),
        ("−14", "-14"),  # U+2212, the minus sign
        ("-14", "-14"),
        ("  14  ", "14"),
        ("14.", "14"),
        (".5", "0.5"),
        (",5", "0.5"),
        ("１４", "14"),  # full-width digits
        ("١٤", "14"),  # Arabic-Indic digits
        ("14 GB", "14"),
        ("14GB", "14"),
        ("14 gb", "14"),
        ("14\u00a0GB", "14"),  # a no-break space
        ("1.000", "1"),  # with `.` three decimals are decimals (3.142)
        ("3.142", "3.142"),
        ("0,500", "0.5"),  # a group never starts with 0
        ("1000,000", "1000"),  # nor has four digits
        ("1,0", "1"),
        ("1,0000", "1"),
        ("0", "0"),
        ("-0", "0"),
        ("0e99999", "0"),
    ],
)
def test_numbers_are_read(reply: str, value: str) -> None:
    assert read_number(reply, GB) == Number(Decimal(value))


@pytest.mark.parametrize(
    ("reply", "ungrouped", "as_decimal"),
    [
        ("1,000", "1000", "1.000"),  # ambiguous: a thousand, or one with three decimals
        ("12,500", "12500", "12.500"),
        ("-1,000", "-1000", "-1.000"),
        ("+1,000 GB", "1000", "1.000"),
        ("1 000", "1000", None),
        ("1\u202f000", "1000", None),  # narrow no-break space (French)
        ("1.000.000", "1000000", None),
        ("1,000,000", "1000000", None),
        ("1,000.5", "1000.5", None),
        ("1.000,5", "1000.5", None),
        ("12'000", "12000", None),
        ("1_000", "1000", None),
        ("1 000 000 GB", "1000000", None),
    ],
)
def test_digit_grouping_is_refused_with_the_ungrouped_number(
    reply: str, ungrouped: str, as_decimal: str | None
) -> None:
    assert read_number(reply, GB) == DigitGrouping(ungrouped, as_decimal)


@pytest.mark.parametrize(
    "reply",
    [
        "",
        " ",
        "abc",
        "fourteen",
        "14 MB",  # another unit
        "GB",
        "10²",  # NFKC would make it 102
        "½",
        "1/2",
        "14 14",
        "1..2",
        "--1",
        "1e",
        "e5",
        "1e99999",
        "1e-99999",
        "1" * 101,
        "14 GB GB",
        "0x10",
        "inf",
        "NaN",
    ],
)
def test_what_is_not_a_number(reply: str) -> None:
    assert read_number(reply, GB) == NotANumber()


def test_a_unit_is_only_taken_when_the_question_has_it() -> None:
    assert read_number("14 GB") == NotANumber()
    assert read_number("14 m²", LocalizedText({"en": "m²"})) == Number(Decimal(14))
    assert read_number("14 ｍ", LocalizedText({"en": "m"})) == Number(Decimal(14))
    assert read_number("14 km", LocalizedText({"en": "m", "fr": "km"})) == Number(Decimal(14))


@given(st.text(max_size=120))
@example("1" * 100 + "e5")
@example("9e400")
def test_reading_a_number_never_raises(reply: str) -> None:
    assert isinstance(read_number(reply, GB), Number | DigitGrouping | NotANumber)


@given(st.text(max_size=60))
def test_a_number_read_reads_again_from_its_own_spelling(reply: str) -> None:
    reading = read_number(reply)
    if isinstance(reading, Number):
        assert read_number(str(reading.value)) == reading


decimals = st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**12), max_value=10**12)


@given(decimals, st.sampled_from(["", " ", "\u00a0"]), st.booleans())
def test_every_decimal_reads_back_in_each_spelling(value: Decimal, space: str, unit: bool) -> None:
    text = format(value, "f")
    suffix = f"{space}GB" if unit else ""
    assert read_number(text + suffix, GB) == Number(value)
    assert read_number(text.replace("-", "\u2212") + suffix, GB) == Number(value)
    assert read_number(format(value, "e"), GB) == Number(value)
    if "." in text and not (
        len(text.split(".")[1]) == 3
        and 1 <= len(text.split(".")[0].lstrip("-")) <= 3
        and text.lstrip("-")[0] != "0"
    ):
        assert read_number(text.replace(".", ","), GB) == Number(value)


@given(st.integers(min_value=1000, max_value=10**15), st.sampled_from([",", " ", ".", "_", "'"]))
def test_grouped_integers_are_refused_with_the_plain_number(number: int, separator: str) -> None:
    grouped = f"{number:,}".replace(",", separator)
    reading = read_number(grouped)
    if separator == "." and grouped.count(".") == 1:
        assert reading == Number(Decimal(grouped))  # `.` with one group is a decimal mark
    else:
        assert isinstance(reading, DigitGrouping)
        assert reading.ungrouped == str(number)


# --- typed text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("  The   Bubble. ", "the bubble"),
        ("“bubble”!", "bubble"),
        ("'pipeline bubble'?", "pipeline bubble"),
        ("ＢＵＢＢＬＥ", "bubble"),  # full width
        ("ﬁle", "file"),  # a ligature
        ("Straße", "strasse"),
        ("Ọkọ", "oko"),
        ("naïve café", "naive cafe"),
        ("C++", "c++"),  # symbols stay
        ("C#", "c#"),
        ("f(x)", "f(x)"),  # brackets stay
        ("...", ""),
        ("a\tb\nc", "a b c"),
    ],
)
def test_typed_text_is_normalized(text: str, normal: str) -> None:
    assert normalize(text) == normal


@given(st.text(max_size=40), st.booleans())
@example("\u0345", False)  # ypogegrammeni: case folding turns a combining mark into a letter
@example("ǅ\u0301", False)
@example(" \u00a8", False)  # NFKC turns ¨ into a space and a mark
def test_normalizing_is_idempotent(text: str, strict: bool) -> None:
    once = normalize(text, strict)
    assert normalize(once, strict) == once


@given(st.text(max_size=40), st.booleans())
def test_normal_form_has_no_edge_spaces_or_runs_of_them(text: str, strict: bool) -> None:
    normal = normalize(text, strict)
    assert normal == normal.strip()
    assert "  " not in normal
    assert not any(char.isspace() and char != " " for char in normal)


@given(st.text(max_size=40))
def test_loose_form_has_no_diacritics_and_is_the_loose_form_of_the_strict_one(text: str) -> None:
    loose = normalize(text)
    assert not any(unicodedata.category(char) == "Mn" for char in loose)
    assert normalize(normalize(text, strict_diacritics=True)) == loose


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=30))
def test_ascii_case_does_not_matter(text: str) -> None:
    assert normalize(text.upper()) == normalize(text.lower())
