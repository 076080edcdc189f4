"""How right an answer is, for every question type: the one place the bot grades.

An answer arrives in one typed form, whatever brought it (a tap, a poll vote, a selection, a
reply, a stored row): a `Choice` (single, true/false: the choice in the bank's order, True
being choice 0 and False choice 1), a `Selection` (multiple), a `NumberReply` or a
`TextReply`. `grade(question, response)` gives its `Grade`: the credit, exact, and what the
screens need (each choice's mark, the feedback that applies). The grade is computed once per
answer and travels: to storage (`correct` is fully right; the credit where the question
scores in parts), to the reveal and the toasts, to points, reports and FSRS (only a fully
right answer rates Good).

The rules, as Moodle scores them:
- `single`: the right option 1, another 0; with weights, the chosen option's weight (negative
  allowed: that is how Moodle marks down a wrong choice).
- `multiple`: with weights, the sum of the chosen options' weights, clamped to 0..1; without,
  the same with the weights Moodle's own export gives such a question (a right option
  +1/k, a wrong one -1/k for k right options): max(0, (right picks - wrong picks) / k).
- `true_false`: 1 or 0.
- `numeric`: the right number (within its tolerance) 1; otherwise the first of the question's
  other numbers that takes the reply (Moodle takes the first matching answer, in order): its
  weight, and its feedback; no match 0.
- `typed`: an accepted answer 1, else 0.
A weight written as Moodle writes a third (33.33333) counts as exactly a third: a weight
within 0.001 percentage points of a fraction with a denominator up to 12 is that fraction,
as Moodle's importer matches a fraction to its list of grades.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from enum import StrEnum
from fractions import Fraction

from content.answers import (
    MAX_EXPONENT,
    DigitGrouping,
    NotANumber,
    Number,
    accepted_forms,
    normalize,
    read_number,
)
from content.model import (
    LocalizedText,
    MultipleAnswer,
    NumericAnswer,
    OtherNumber,
    Question,
    QuestionType,
    SingleAnswer,
    TrueFalseAnswer,
    TypedAnswer,
)

# --- what an answer is ---------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One choice, in the bank's order (a true/false question: True is 0, False is 1)."""

    choice: int


@dataclass(frozen=True)
class Selection:
    """The options of a multiple question submitted together, in the bank's order."""

    options: frozenset[int]


@dataclass(frozen=True)
class NumberReply:
    """A reply read as a number (`content.answers.read_number`)."""

    text: str
    value: Decimal


@dataclass(frozen=True)
class TextReply:
    """A reply to a typed question."""

    text: str


Response = Choice | Selection | NumberReply | TextReply


@dataclass(frozen=True)
class EmptyReply:
    """A reply with nothing left to compare (only spaces and punctuation): not an answer."""


Unreadable = DigitGrouping | NotANumber | EmptyReply

# How storage holds a response (`answers.chosen`, `group_answers.chosen`): the choice, a bit
# per option of a selection (`1 << option`), or this for a reply (its text is `reply`).
NO_CHOICE = -1


def chosen_column(response: Response) -> int:
    """The response as the `chosen` column stores it."""
    match response:
        case Choice(choice):
            return choice
        case Selection(options):
            return sum(1 << option for option in options)
    return NO_CHOICE


def stored_response(question: Question, chosen: int, reply: str | None = None) -> Response:
    """A stored answer read back into its one typed form (the question says how to read it)."""
    match question.type:
        case QuestionType.MULTIPLE:
            return Selection(frozenset(i for i in range(chosen.bit_length()) if chosen >> i & 1))
        case QuestionType.SINGLE | QuestionType.TRUE_FALSE:
            return Choice(chosen)
    text = reply or ""
    if question.type is QuestionType.NUMERIC:
        unit = question.key.unit if isinstance(question.key, NumericAnswer) else None
        reading = read_number(text, unit)
        if isinstance(reading, Number):
            return NumberReply(text, reading.value)
    return TextReply(text)


def read_reply(question: Question, text: str) -> NumberReply | TextReply | Unreadable:
    """A learner's text message to a numeric or typed question, or why it is no answer (they
    may try again)."""
    match question.key:
        case NumericAnswer(unit=unit):
            reading = read_number(text, unit)
            return NumberReply(text, reading.value) if isinstance(reading, Number) else reading
        case TypedAnswer(strict_diacritics=strict):
            return TextReply(text) if normalize(text, strict) else EmptyReply()
    raise TypeError(f"question {question.id} is {question.type}: it takes no typed reply")


def choices_of(response: Response) -> frozenset[int]:
    """The choices a response holds (none for a reply)."""
    match response:
        case Choice(choice):
            return frozenset({choice})
        case Selection(options):
            return options
    return frozenset()


# --- the grade -----------------------------------------------------------------------------


class Mark(StrEnum):
    """How a choice stands after an answer, as the reveal shows it."""

    RIGHT = "right"  # chosen, and it counts for the answer
    PARTIAL = "partial"  # chosen, worth part of a single question's marks
    MISSED = "missed"  # a right one, not chosen
    WRONG = "wrong"  # chosen, and it is not right
    NONE = "none"  # neither


@dataclass(frozen=True)
class Grade:
    """How right one answer is: `credit` from -1 to 1 (below 0 only where a weight marks a
    choice down), each choice's mark in the bank's order (none for a reply), and the feedback
    that applies (a numeric answer's other number)."""

    response: Response
    credit: Fraction
    marks: tuple[Mark, ...] = ()
    feedback: LocalizedText | None = None
    weighted: bool = False  # scored by the question's own weights: no exam penalty

    @property
    def fully_right(self) -> bool:
        """Only a fully right answer is `correct`, and rates Good in FSRS."""
        return self.credit == 1

    @property
    def partly_right(self) -> bool:
        return 0 < self.credit < 1


def share(weight: Decimal) -> Fraction:
    """A weight in percent as a share of the marks: 50 is 1/2, 33.33333 is 1/3."""
    exact = Fraction(weight) / 100
    near = exact.limit_denominator(12)
    return near if abs(near - exact) < Fraction(1, 100_000) else exact


def right_choices(question: Question) -> frozenset[int]:
    """The right choices in the bank's order (True is choice 0, False choice 1): a multiple
    question's positive-weight options; none for the types answered with a reply."""
    match question.key:
        case SingleAnswer(option):
            return frozenset({option})
        case MultipleAnswer(options):
            return options
        case TrueFalseAnswer(value):
            return frozenset({0 if value else 1})
    return frozenset()


def scored_in_parts(question: Question) -> bool:
    """Whether an answer to the question can be worth other than all or nothing (its credit
    is then stored beside `correct`)."""
    match question.key:
        case MultipleAnswer():
            return True
        case SingleAnswer(weights=weights):
            return weights is not None
        case NumericAnswer(others=others):
            return any(other.weight for other in others)
    return False


def _choice_marks(
    chosen: Collection[int], right: Collection[int], count: int, partial: Collection[int] = ()
) -> tuple[Mark, ...]:
    marks = []
    for choice in range(count):
        if choice in chosen:
            marks.append(
                Mark.RIGHT if choice in right else Mark.PARTIAL if choice in partial else Mark.WRONG
            )
        else:
            marks.append(Mark.MISSED if choice in right else Mark.NONE)
    return tuple(marks)


def _multiple_shares(key: MultipleAnswer, count: int) -> Sequence[Fraction]:
    if key.weights is not None:
        return [share(weight) for weight in key.weights]
    part = Fraction(1, len(key.options))
    return [part if option in key.options else -part for option in range(count)]


def _within(value: Decimal, target: Decimal, tolerance: Decimal) -> bool:
    with localcontext() as context:
        context.prec = 2 * MAX_EXPONENT + 200
        return abs(value - target) <= tolerance


def _number_grade(reply: NumberReply, key: NumericAnswer) -> Grade:
    if _within(reply.value, key.value, key.tolerance):
        return Grade(reply, Fraction(1))
    matched: OtherNumber | None = next(
        (other for other in key.others if _within(reply.value, other.value, other.tolerance)),
        None,
    )
    if matched is None:
        return Grade(reply, Fraction(0))
    return Grade(reply, share(matched.weight), feedback=matched.feedback)


def grade(question: Question, response: Response) -> Grade:
    """The grade of `response` to `question` (a response of another kind than the question
    takes is a TypeError: the boundary that read it checked it)."""
    count = 2 if question.type is QuestionType.TRUE_FALSE else len(question.options)
    match question.key, response:
        case SingleAnswer(option, None), Choice(choice):
            credit = Fraction(choice == option)
            return Grade(response, credit, _choice_marks({choice}, {option}, count))
        case SingleAnswer(option, weights), Choice(choice) if weights is not None:
            partial = {i for i, weight in enumerate(weights) if weight > 0 and i != option}
            marks = _choice_marks({choice}, {option}, count, partial)
            return Grade(response, share(weights[choice]), marks, weighted=True)
        case MultipleAnswer() as key, Selection(options):
            shares = _multiple_shares(key, count)
            credit = min(
                Fraction(1), max(Fraction(0), sum((shares[i] for i in options), Fraction(0)))
            )
            marks = _choice_marks(options, key.options, count)
            return Grade(response, credit, marks, weighted=key.weights is not None)
        case TrueFalseAnswer(value), Choice(choice):
            right = 0 if value else 1
            return Grade(response, Fraction(choice == right), _choice_marks({choice}, {right}, 2))
        case NumericAnswer() as key, NumberReply() as reply:
            return _number_grade(reply, key)
        case TypedAnswer() as key, TextReply(text):
            normalized = normalize(text, key.strict_diacritics)
            return Grade(response, Fraction(bool(normalized) and normalized in accepted_forms(key)))
    raise TypeError(f"question {question.id} is {question.type}: no grade for {response!r}")


def with_penalty(grade: Grade, penalty: Fraction) -> Fraction:
    """The grade's credit in an exam that takes `penalty` for each wrong answer: a wrong
    answer (no credit at all) loses it, unless the question has its own weights (they are its
    penalty); a partly right one keeps its credit."""
    if grade.weighted or grade.credit > 0:
        return grade.credit
    return grade.credit - penalty
