"""A question added step by step (`/addquestion`): the draft, the steps of each type, and the
parsers of each step's answer. Pure (no Telegram, no I/O): text in, a value or a refusal
(`Reply`) out; `flow.save_draft` validates and stores the finished draft."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from bot.core.arguments import ascii_number, echo
from bot.core.render import LETTERS, Reply, letter
from content.answers import DigitGrouping, Number, normalize, read_number
from content.model import QuestionType, utf16_length
from content.schema import (
    LANGUAGE_CODE,
    MAX_ACCEPTED_ANSWERS,
    MAX_ACCEPTED_LENGTH,
    MAX_EXPLANATION_LENGTH,
    MAX_NUMBER_EXPONENT,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_QUESTION_LENGTH,
    MAX_UNIT_LENGTH,
    MIN_OPTIONS,
)

# a question added step by step: its type (buttons under the first prompt; one right option
# unless another is tapped), its text, what its type needs (options, the right one(s), a
# number with its tolerance and unit, the accepted replies), an explanation (or /skip), a
# translation (or /skip); each step's answer is checked before the next is asked

TEXT, OPTIONS, ANSWER, TOLERANCE, UNIT, EXPLANATION, TRANSLATION = range(7)
STEPS = 7
SKIPPABLE = frozenset({TOLERANCE, UNIT, EXPLANATION, TRANSLATION})
_STEPS_OF: dict[QuestionType, tuple[int, ...]] = {
    QuestionType.SINGLE: (TEXT, OPTIONS, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.MULTIPLE: (TEXT, OPTIONS, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.TRUE_FALSE: (TEXT, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.NUMERIC: (TEXT, ANSWER, TOLERANCE, UNIT, EXPLANATION, TRANSLATION),
    QuestionType.TYPED: (TEXT, ANSWER, EXPLANATION, TRANSLATION),
}
DRAFT_TYPES = tuple(QuestionType)  # the type buttons, in this order


@dataclass
class Draft:
    """An admin's question in the making; lives in the conversation, never half-stored.
    `answer` is what its type takes: an option, options, a bool, a number, accepted replies."""

    quiz_id: str
    nonce: int
    text: str = ""
    options: list[str] = field(default_factory=list)
    answer: int | list[int] | bool | Decimal | list[str] = 0
    explanation: str | None = None
    language: str | None = None
    translated: list[str] = field(default_factory=list)  # text, options..., [explanation]
    kind: QuestionType = QuestionType.SINGLE
    tolerance: Decimal | None = None
    unit: str | None = None

    def next_step(self, step: int) -> int | None:
        """The step after `step` for this draft's type; None after the last."""
        steps = _STEPS_OF[self.kind]
        following = steps.index(step) + 1
        return steps[following] if following < len(steps) else None

    def question_data(self, default_language: str) -> dict[str, Any]:
        """The question as bank data (without an id), translation included."""
        n = len(self.options)

        def localized(base: str, index: int) -> dict[str, str]:
            value = {default_language: base}
            if self.language and index < len(self.translated):
                value[self.language] = self.translated[index]
            return value

        data: dict[str, Any] = {"text": localized(self.text, 0)}
        if self.kind is not QuestionType.SINGLE:
            data["type"] = self.kind.value
        if self.kind in (QuestionType.SINGLE, QuestionType.MULTIPLE):
            data["options"] = [localized(option, 1 + i) for i, option in enumerate(self.options)]
        data["answer"] = _bank_value(self.answer)
        if self.tolerance is not None:
            data["tolerance"] = _bank_value(self.tolerance)
        if self.unit is not None:
            data["unit"] = {default_language: self.unit}
        if self.explanation is not None:
            data["explanation"] = localized(self.explanation, 1 + n)
        return data

    def take(self, step: int, text: str) -> Reply | None:
        """The answer to `step` put into the draft; or why it is refused (nothing changed)."""
        parsers: dict[int, Callable[[str], object]] = {
            TEXT: lambda text: check_text(text, MAX_QUESTION_LENGTH),
            OPTIONS: parse_options,
            ANSWER: self._parse_answer,
            TOLERANCE: parse_tolerance,
            UNIT: lambda text: check_text(text, MAX_UNIT_LENGTH),
            EXPLANATION: lambda text: check_text(text, MAX_EXPLANATION_LENGTH),
            TRANSLATION: lambda text: parse_translation(text, self),
        }
        value = parsers[step](text)
        if isinstance(value, Reply):
            return value
        if step == TRANSLATION:
            self.language, self.translated = cast(tuple[str, list[str]], value)
        else:
            names = ("text", "options", "answer", "tolerance", "unit", "explanation")
            setattr(self, names[step], value)
        return None

    def _parse_answer(self, text: str) -> object:
        match self.kind:
            case QuestionType.MULTIPLE:
                return parse_answers(text, len(self.options))
            case QuestionType.TRUE_FALSE:
                return parse_true_false(text)
            case QuestionType.NUMERIC:
                return parse_number(text)
            case QuestionType.TYPED:
                return parse_accepted(text)
        return parse_answer(text, len(self.options))

    def question(self, step: int) -> Reply:
        """What is asked for `step` (the text is asked by `/addquestion` itself)."""
        n = len(self.options)
        if step == ANSWER and self.kind is not QuestionType.SINGLE:
            return Reply(f"draft_answer_{self.kind.value}", {"last": letter(max(n, 1) - 1)})
        return {
            OPTIONS: Reply("draft_options"),
            ANSWER: Reply("draft_answer", {"last": letter(max(n, 1) - 1)}),
            TOLERANCE: Reply("draft_tolerance"),
            UNIT: Reply("draft_unit"),
            EXPLANATION: Reply("draft_explanation"),
            TRANSLATION: Reply("draft_translation", {"n": n}),
        }[step]


def _bank_value(value: object) -> object:
    """A draft's answer as a bank holds it (numbers as YAML reads them: int, else float)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def check_text(text: str | None, limit: int) -> str | Reply:
    value = (text or "").strip()
    if not value:
        return Reply("draft_empty")
    if utf16_length(value) > limit:
        return Reply("draft_too_long", {"n": utf16_length(value), "limit": limit})
    return value


def parse_options(text: str | None) -> list[str] | Reply:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not MIN_OPTIONS <= len(lines) <= MAX_OPTIONS:
        return Reply("draft_options_count", {"n": len(lines)})
    for line in lines:
        if utf16_length(line) > MAX_OPTION_LENGTH:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": MAX_OPTION_LENGTH})
    return lines


def parse_answer(text: str | None, options: int) -> int | Reply:
    """The right option: its letter, or its number from 1 in ASCII digits."""
    value = (text or "").strip().upper().rstrip(".")
    if len(value) == 1 and value in LETTERS[:options]:
        return LETTERS.index(value)
    number = ascii_number(value)
    if number is not None and 1 <= number <= options:
        return number - 1
    return Reply("draft_bad_answer", {"last": letter(options - 1)})


def parse_answers(text: str | None, options: int) -> list[int] | Reply:
    """The right options of a multiple question: letters (or numbers from 1), separated by
    commas or spaces; at least one, each once."""
    parts = [part for part in re.split(r"[\s,;]+", (text or "").strip()) if part]
    found = [parse_answer(part, options) for part in parts]
    if not found or any(isinstance(item, Reply) for item in found):
        return Reply("draft_bad_answers", {"last": letter(options - 1)})
    return sorted({cast(int, item) for item in found})


_TRUE = frozenset({"true", "t", "yes", "1", "òótọ́", "ootọ", "ooto", "bẹ́ẹ̀ni"})
_FALSE = frozenset({"false", "f", "no", "0", "irọ́", "irọ", "iro", "rárá"})


def parse_true_false(text: str | None) -> bool | Reply:
    value = unicodedata.normalize("NFC", (text or "").strip().rstrip(".").casefold())
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    return Reply("draft_bad_true_false")


def parse_number(text: str | None) -> Decimal | Reply:
    """A number as learners may write one (`14`, `14,5`, `1.4e1`), within a bank's range."""
    reading = read_number(text or "")
    if isinstance(reading, DigitGrouping):
        return Reply("draft_digit_grouping", {"number": reading.ungrouped})
    if not isinstance(reading, Number) or (
        reading.value and abs(reading.value.adjusted()) > MAX_NUMBER_EXPONENT
    ):
        return Reply("draft_not_a_number")
    return reading.value


def parse_tolerance(text: str | None) -> Decimal | Reply:
    value = parse_number(text)
    if isinstance(value, Decimal) and value < 0:
        return Reply("draft_bad_tolerance")
    return value


def parse_accepted(text: str | None) -> list[str] | Reply:
    """The accepted replies of a typed question, one a line."""
    lines = list(dict.fromkeys(line.strip() for line in (text or "").splitlines() if line.strip()))
    if not 1 <= len(lines) <= MAX_ACCEPTED_ANSWERS:
        return Reply("draft_accepted_count", {"got": len(lines), "n": MAX_ACCEPTED_ANSWERS})
    for line in lines:
        if utf16_length(line) > MAX_ACCEPTED_LENGTH:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": MAX_ACCEPTED_LENGTH})
        if not normalize(line):  # a bank refuses it: no reply could ever match it
            return Reply("draft_accepted_punctuation", {"text": echo(line)})
    return lines


def parse_translation(text: str | None, draft: Draft) -> tuple[str, list[str]] | Reply:
    """`code`, question, the options, optionally the explanation: one per line."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    n = len(draft.options)
    wanted = {1 + 1 + n} | ({2 + 1 + n} if draft.explanation is not None else set())
    if len(lines) not in wanted:
        return Reply("draft_bad_translation", {"n": n})
    code = lines[0].lower()
    if not LANGUAGE_CODE.match(code):
        return Reply("draft_bad_language", {"code": echo(lines[0])})
    limits = [MAX_QUESTION_LENGTH] + [MAX_OPTION_LENGTH] * n + [MAX_EXPLANATION_LENGTH]
    for line, limit in zip(lines[1:], limits, strict=False):
        if utf16_length(line) > limit:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": limit})
    return code, lines[1:]
