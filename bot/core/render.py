"""Rendering shared by every feature: pure, data in, `(HTML text, inline keyboard)` out.

Content is plain text and is escaped here, once (its code shown as code: `Locale.rich`);
interface strings are HTML templates. Each feature draws its own messages
(`bot/<feature>/render.py`) from these pieces, which know every question type: the choices a
question shows (its options, or True and False), which of them are right and what each is
worth, the hint under a question that takes a typed reply, the right answer of a numeric or
typed question, and an answer's toast from its grade. Nothing here grades: a `Grade`
(content/grading.py) comes in, computed once where the answer was taken.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import telegram_html
from bot.core.callbacks import Tap
from bot.core.display import NAME_LIMIT, isolate
from bot.core.i18n import Locale
from content.grading import Grade, Mark, Response, choices_of, right_choices
from content.model import (
    LocalizedText,
    MultipleAnswer,
    NumericAnswer,
    Question,
    QuestionType,
    TypedAnswer,
    clip,
)
from content.schema import MAX_EXPLANATION_LENGTH, MAX_OPTION_LENGTH

MAX_ALT_LENGTH = 300  # image_alt, as the bank format bounds it
MAX_UNIT_LENGTH = 30
MAX_REPLY_SHOWN = 200  # characters of a learner's typed reply echoed in a reveal

MAX_MESSAGE_LENGTH = 4096
MAX_BUTTON_LABEL = 48
LETTERS = "ABCDEFGHIJ"
MEDALS = ("🥇", "🥈", "🥉")


@dataclass(frozen=True)
class Rendered:
    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True)
class Reply:
    """An interface string (key and already-escaped values) to send back; a value that is a
    Reply itself is put into the same language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def text(self, locale: Locale) -> str:
        values = {
            name: value.text(locale) if isinstance(value, Reply) else value
            for name, value in self.values.items()
        }
        return locale.t(self.key, **values)


def person(name: str, locale: Locale) -> str:
    """Someone's Telegram name inside a message: cleaned, shortened, isolated, escaped."""
    return html.escape(isolate(name, NAME_LIMIT)) or locale.t("no_name")


def shorten(text: str, limit: int) -> str:
    """Cut plain text to `limit` characters at a word boundary where one is near."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"


def clock_text(seconds: float) -> str:
    """A duration as a clock shows it: 12:41, or 1:02:03 from an hour on (seconds rounded
    up while time is left, so 0:00 means none)."""
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def place_mark(place: int) -> str:
    """How a ranking shows its `place` (1 first): a medal for the first three, then "4."."""
    return MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."


def letter(place: int) -> str:
    """The letter of an option's place on screen: A, B, C..."""
    return LETTERS[place]


def choice_count(question: Question) -> int:
    """How many choices the question shows: its options, 2 for true/false, none for the
    types answered with a typed reply."""
    if question.type is QuestionType.TRUE_FALSE:
        return 2
    return len(question.options)


def takes_reply(question: Question) -> bool:
    """Whether the question is answered with a typed reply (numeric, typed), not a button."""
    return question.type in (QuestionType.NUMERIC, QuestionType.TYPED)


def choices(question: Question, locale: Locale) -> tuple[str, ...]:
    """Each choice as HTML, in the bank's order: the options (their code as code), or True
    and False."""
    if question.type is QuestionType.TRUE_FALSE:
        return (locale.t("true"), locale.t("false"))
    return tuple(locale.rich(option, MAX_OPTION_LENGTH) for option in question.options)


def choice_labels(question: Question, locale: Locale) -> tuple[str, ...]:
    """Each choice as a button shows it: plain text, code flattened."""
    if question.type is QuestionType.TRUE_FALSE:
        return (locale.t("true"), locale.t("false"))
    return tuple(locale.label(option) for option in question.options)


def screen_order(question: Question, order: Sequence[int] | None) -> Sequence[int]:
    """The choices' order on screen: place i shows choice `order[i]` (the bank's order when
    there is no shuffle)."""
    return range(choice_count(question)) if order is None else order


def letters(places: Sequence[int] | frozenset[int]) -> str:
    """Places on screen as letters: "A, C"."""
    return ", ".join(letter(place) for place in sorted(places))


def option_button(
    place: int, option: LocalizedText | str, tap: Tap, locale: Locale
) -> list[InlineKeyboardButton]:
    """One option's row of a keyboard: its letter and as much of its text as a button holds
    (a choice's label, or an option whose code is flattened)."""
    label = option if isinstance(option, str) else locale.label(option)
    text = f"{letter(place)}. {shorten(label, MAX_BUTTON_LABEL)}"
    return [InlineKeyboardButton(text, callback_data=tap.encode())]


def option_lines(question: Question, locale: Locale, reveal: bool) -> str:
    """The choices, one a line; on a reveal the right ones marked, and what each is worth
    when the question has weights (a posted question, a draft's preview)."""
    right = right_choices(question)
    lines = []
    for i, choice in enumerate(choices(question, locale)):
        mark = ("✅ " if i in right else "▫️ ") if reveal else ""
        worth = weight_note(question, i) if reveal else ""
        lines.append(f"{mark}<b>{letter(i)}.</b> {choice}{worth}")
    return "\n".join(lines)


def weight_note(question: Question, choice: int) -> str:
    """What a choice is worth, after it on a reveal, when the question has weights: ` (50%)`."""
    if question.weights is None:
        return ""
    return f" <i>({number_text(question.weights[choice])}%)</i>"


def fraction_text(credit: Fraction) -> str:
    """An answer's credit: 1/2, 2/3, -1."""
    return str(credit.numerator) if credit.denominator == 1 else f"{credit}"


def chosen_letters(response: Response, order: Sequence[int] | None = None) -> str:
    """An answer's choices as the letters of their places on screen: "B", "A, C"."""
    chosen = choices_of(response)
    return letters(chosen if order is None else [list(order).index(c) for c in chosen])


def explanation(question: Question, locale: Locale) -> str | None:
    """The explanation under a reveal; a long one shows its first sentence and folds the rest
    (`telegram_html.folded`), so that an answered question fits a phone's screen."""
    if question.explanation is None:
        return None
    text = clip(locale.plain(question.explanation), MAX_EXPLANATION_LENGTH)
    return locale.t("explanation", text=telegram_html.folded(text))


def right_letters(question: Question, order: Sequence[int] | None = None) -> str:
    """The right choices as the letters of their places on screen: "B", "A, C"."""
    places = list(screen_order(question, order))
    return letters([places.index(choice) for choice in right_choices(question)])


def answer_toast(
    question: Question, grade: Grade, locale: Locale, order: Sequence[int] | None = None
) -> str:
    """An answer by buttons told to the one who gave it: right, partly right (its credit) or
    wrong, and what was right, as letters of the places on screen."""
    if grade.fully_right:
        return locale.t("correct_toast")
    if grade.partly_right:
        return locale.t("partial_toast", score=partial_text(question, grade, locale))
    right = right_letters(question, order)
    if question.type is QuestionType.MULTIPLE:
        return locale.t("wrong_options_toast", letters=right)
    if question.type is QuestionType.TRUE_FALSE:  # its buttons say True and False, no letter
        (right_choice,) = right_choices(question)
        return locale.t("wrong_toast", letter=choice_labels(question, locale)[right_choice])
    if grade.credit < 0:
        return locale.t("marked_down_toast", score=fraction_text(grade.credit), letter=right)
    return locale.t("wrong_toast", letter=right)


def partial_text(question: Question, grade: Grade, locale: Locale) -> str:
    """A partly right answer's credit, and how it was counted where a rule counted it: a
    multiple question without weights says "2 of 3 right, 1 wrong: 1/3"."""
    score = fraction_text(grade.credit)
    if question.type is not QuestionType.MULTIPLE or question.weights is not None:
        return score
    right = sum(1 for mark in grade.marks if mark is Mark.RIGHT)
    wrong = sum(1 for mark in grade.marks if mark is Mark.WRONG)
    missed = sum(1 for mark in grade.marks if mark is Mark.MISSED)
    if not wrong:
        return locale.t("partial_counted_none_wrong", right=right, of=right + missed, score=score)
    return locale.t("partial_counted", right=right, of=right + missed, wrong=wrong, score=score)


def answer_hint(question: Question, locale: Locale) -> str | None:
    """What to do, under a question that is not answered with one tap."""
    match question.key:
        case MultipleAnswer():
            return locale.t("hint_multiple")
        case NumericAnswer(unit=unit) if unit is not None:
            return locale.t("hint_number_unit", unit=locale.text(unit, MAX_UNIT_LENGTH))
        case NumericAnswer():
            return locale.t("hint_number")
        case TypedAnswer():
            return locale.t("hint_typed")
    return None


def number_text(value: Decimal) -> str:
    """A number as people write it: 20, 0.5, 0.001; an exponent only for very large or very
    small numbers."""
    normal = value.normalize()
    if -12 <= normal.adjusted() <= 15:
        return format(normal, "f")
    return format(normal, "E")


def right_reply(question: Question, locale: Locale) -> str:
    """The right answer of a numeric question ("20 % (± 0.5)"), or the accepted answers of a
    typed one, in the learner's language, as HTML."""
    match question.key:
        case NumericAnswer(value, tolerance, unit):
            shown = number_text(value)
            if unit is not None:
                shown += " " + locale.text(unit, MAX_UNIT_LENGTH)
            if tolerance:
                shown = locale.t("within_tolerance", answer=shown, tolerance=number_text(tolerance))
            return shown
        case TypedAnswer(accepted):
            forms = dict.fromkeys(locale.plain(answer) for answer in accepted)
            return ", ".join(f"<b>{html.escape(form)}</b>" for form in forms)
    raise TypeError(f"question {question.id} is {question.type}: it takes no typed reply")


def picture_line(question: Question, locale: Locale) -> str | None:
    """A question's picture in words, for people who cannot see it: its alt text."""
    if question.image is None:
        return None
    if question.image_alt is None:
        return locale.t("picture_no_alt")
    return locale.t("picture", alt=f"<i>{locale.text(question.image_alt, MAX_ALT_LENGTH)}</i>")


def split_blocks(blocks: Sequence[str], limit: int = MAX_MESSAGE_LENGTH) -> list[str]:
    """Join blocks with blank lines into as few messages as fit `limit` (as Telegram counts,
    after entity parsing); see `telegram_html.split_blocks`."""
    return telegram_html.split_blocks(blocks, limit)
