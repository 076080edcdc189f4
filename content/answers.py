"""How a learner's reply is read: numbers and typed text, pure functions over plain data. The
grading module (content/grading.py) calls these; it alone says how right an answer is.

Numbers (numeric questions). A reply is read as one number, with the question's unit after
it or without: `14`, `14.0`, `14,0`, `1.4e1`, `+14`, `−14` (Unicode minus), `14 GB`, `14GB`.
`.` and `,` are both decimal marks. Digit grouping is refused with its own result, so the
learner can be told to write the number without it: `1 000`, `1.000.000`, `1,000.5` and
`12'000` are grouping. A lone `,` followed by exactly three digits after one to three digits
that do not start with 0 (`1,000`, `12,500`) could be either, so it is refused as grouping
too; with `.` it is a decimal (`3.142`, `1.000`), as in English and in code; `0,500` and
`1000,000` cannot be grouping and are decimals. The number is exact (decimal, not binary
floating point).

Typed text (typed questions). Reply and accepted answers are compared after Unicode NFKC,
case folding, collapsing and trimming spaces, dropping punctuation at either end, and
dropping diacritics unless the question asks for them (`strict_diacritics`), so `Ọkọ.`
matches `oko`, and with strict diacritics only `ọkọ`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from content.model import LocalizedText, TypedAnswer

MAX_NUMBER_REPLY = 100  # characters; longer is not a number
# Exponents beyond this are no answer anyone means (and keep the exact arithmetic small).
MAX_EXPONENT = 400


# --- numbers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    value: Decimal


@dataclass(frozen=True)
class DigitGrouping:
    """A number written with digit grouping: not taken, the learner may try again."""

    ungrouped: str  # the same number without grouping: "1000" for "1,000"
    as_decimal: str | None = None  # the other reading of an ambiguous reply: "1.000" for "1,000"


@dataclass(frozen=True)
class NotANumber:
    """Not a number (or another unit): not taken, the learner may try again."""


NumberReading = Number | DigitGrouping | NotANumber

_NUMBER = re.compile(r"([+-]?)(\d+(?:[.,]\d*)?|[.,]\d+)(?:e([+-]?\d{1,5}))?")
_AMBIGUOUS = re.compile(r"([+-]?)([1-9]\d{0,2}),(\d{3})")
_GROUPED = re.compile(r"([+-]?)(\d{1,3}(?:[,.' _]\d{3})+)(?:[.,](\d+))?")


def _number_text(text: str) -> str:
    """NFKC (full-width digits become ASCII), every decimal digit in ASCII, Unicode minus as
    `-`, spaces collapsed, case folded."""
    text = unicodedata.normalize("NFKC", text).replace("\u2212", "-")
    text = "".join(str(unicodedata.decimal(char)) if char.isdecimal() else char for char in text)
    return " ".join(text.split()).casefold()


def _without_unit(text: str, spellings: Collection[str]) -> tuple[str, bool]:
    for spelling in sorted(spellings, key=len, reverse=True):  # "km" before "m"
        if spelling and text.endswith(spelling) and len(text) > len(spelling):
            return text[: -len(spelling)].rstrip(), True
    return text, False


def read_number(reply: str, unit: LocalizedText | None = None) -> NumberReading:
    """One number from a learner's reply; never raises."""
    if len(reply) > MAX_NUMBER_REPLY:
        return NotANumber()
    units = unit.translations.values() if unit is not None else ()
    as_written = " ".join(unicodedata.normalize("NFC", reply).split()).casefold()
    as_written, stripped = _without_unit(
        as_written, {" ".join(unicodedata.normalize("NFC", u).split()).casefold() for u in units}
    )
    # NFKC would read superscripts and fractions (10², ½) as plain digits; a unit may have them
    if any(unicodedata.category(char) == "No" for char in as_written):
        return NotANumber()
    text = _number_text(as_written)
    if not stripped:  # a unit written in compatibility characters (full-width letters)
        text, _ = _without_unit(text, {_number_text(u) for u in units})
    if (match := _NUMBER.fullmatch(text)) is not None:
        if (ambiguous := _AMBIGUOUS.fullmatch(text)) is not None:
            sign, head, tail = ambiguous.groups()
            sign = sign.replace("+", "")
            return DigitGrouping(f"{sign}{head}{tail}", f"{sign}{head}.{tail}")
        sign, digits, exponent = match.groups()
        value = Decimal(f"{sign}{digits.replace(',', '.')}e{exponent or 0}")
        if not value:
            return Number(Decimal(0))
        if abs(value.adjusted()) > MAX_EXPONENT:
            return NotANumber()
        return Number(value)
    if (grouped := _GROUPED.fullmatch(text)) is not None:
        sign, whole, fraction = grouped.groups()
        ungrouped = sign.replace("+", "") + re.sub(r"\D", "", whole)
        return DigitGrouping(ungrouped + (f".{fraction}" if fraction else ""))
    return NotANumber()


# --- typed text ----------------------------------------------------------------------------

# Dropped at either end of a typed answer: sentence punctuation and quotes, not symbols or
# brackets (`C++`, `C#`, `f(x)` keep theirs).
_EDGE_PUNCTUATION = frozenset(".,;:!?…¡¿\"'`«»‹›“”„‘’‚·、。")


def _edge(char: str) -> bool:
    return char.isspace() or char in _EDGE_PUNCTUATION or unicodedata.category(char) in ("Pi", "Pf")


def normalize(text: str, strict_diacritics: bool = False) -> str:
    """The form in which typed answers are compared (idempotent: tests/test_content_answers)."""
    # NFKC again after case folding, which can leave text that NFKC would change
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if not strict_diacritics:
        decomposed = unicodedata.normalize("NFD", folded)
        kept = "".join(char for char in decomposed if unicodedata.category(char) != "Mn")
        folded = unicodedata.normalize("NFKC", kept)
    words = " ".join(folded.split())
    start, end = 0, len(words)
    while start < end and _edge(words[start]):
        start += 1
    while end > start and _edge(words[end - 1]):
        end -= 1
    return words[start:end]


def accepted_forms(key: TypedAnswer) -> frozenset[str]:
    """Every accepted answer, in every language, normalized."""
    return frozenset(
        normalize(text, key.strict_diacritics)
        for accepted in key.accepted
        for text in accepted.translations.values()
    )
