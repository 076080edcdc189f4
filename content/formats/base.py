"""What every format shares: the converter's one error, the draft a reader fills, what a
writer gives back, and small helpers (ids from names, numbers, localized text).

A reader turns bytes into a `Draft`: the bank as the plain data a YAML bank holds (the
schema in content/schema.py validates it afterwards, exactly as for a YAML bank), the place of
each question in the source, the image files the input carried, and what it skipped or
dropped. A writer turns a validated `Quiz` into a `Written`: the file's bytes, the image files
that must travel beside it, and warnings naming what the format cannot carry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from content.answers import MAX_EXPONENT
from content.grading import share
from content.model import LocalizedText, NumericAnswer, Question, Quiz, TypedAnswer
from content.schema import LANGUAGE_CODE, MAX_QUESTION_ID_LENGTH, MAX_QUIZ_ID_LENGTH, SLUG

MAX_SHOWN_PROBLEMS = 50  # an error message lists at most this many places, then a count
_QUESTION_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


class ConversionError(ValueError):
    """The input cannot be converted. `problems` says what and where, one line each (plain
    text: a line number, a row, a question's name); the message lists them.

    `good_questions` is how many questions --skip-unsupported would convert, when every
    problem is a question's own (None when the file itself is wrong: skipping cannot help).
    The caller words that hint; it is not one of the problems."""

    def __init__(self, problems: Sequence[str], good_questions: int | None = None) -> None:
        self.problems = tuple(problems) or ("the input cannot be converted",)
        self.good_questions = good_questions
        shown = list(self.problems[:MAX_SHOWN_PROBLEMS])
        if len(self.problems) > MAX_SHOWN_PROBLEMS:
            shown.append(f"... and {len(self.problems) - MAX_SHOWN_PROBLEMS} more")
        super().__init__("\n".join(shown))


@dataclass(frozen=True)
class ReadOptions:
    """What the caller says about an input: the language of its texts (for formats without
    languages), the quiz id and title when given, and whether to skip the questions that
    cannot be taken (else the file is refused)."""

    language: str = "en"
    quiz_id: str | None = None
    title: str | None = None
    skip_unsupported: bool = False
    name: str = "quiz"  # the input's file name without its folder: ids and titles default to it


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in an input, at its place. `question` numbers the question it costs
    (in the order read; None: the file's own, which no skipping gets round), `drafted` how
    many questions were drafted before it (so that problems and the validator's findings
    about drafted questions are said in the file's order)."""

    place: str
    message: str
    question: int | None
    drafted: int

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


@dataclass
class Problems:
    """What a reader found wrong, in the order found. A problem met while a question is read
    (inside `question()`) costs that question only: the question is not drafted, and
    --skip-unsupported lists it and converts the rest; any other problem refuses the file."""

    found: list[Problem] = field(default_factory=list)
    drafted: int = 0  # questions drafted so far (Draft.add counts them)
    _open: int | None = None
    _opened: int = 0
    _found_before: int = 0

    def error(self, place: str, message: str) -> None:
        """A mistake: the question's, inside `question()`, else the file's."""
        self.found.append(Problem(place, message, self._open, self.drafted))

    def unsupported_part(self, place: str, what: str) -> None:
        """Something of the question being read that a bank cannot hold."""
        self.error(place, what)

    @contextmanager
    def question(self) -> Iterator[None]:
        """Reading one question: what goes wrong inside costs this question only."""
        self.open_question()
        try:
            yield
        finally:
            self.close_question()

    def open_question(self) -> None:
        """From here, problems are the question's (for a reader that reads line by line)."""
        self._opened += 1
        self._open = self._opened
        self._found_before = len(self.found)

    def close_question(self) -> None:
        self._open = None

    @property
    def question_ok(self) -> bool:
        """Whether the question being read has no problem so far."""
        return len(self.found) == self._found_before

    @property
    def file_errors(self) -> list[Problem]:
        return [problem for problem in self.found if problem.question is None]


@dataclass
class Warnings:
    """Warnings, the same kind said once with its places (a Moodle export repeats the same
    setting on every question)."""

    _by_kind: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, place: str = "") -> None:
        self._by_kind.setdefault(kind, []).append(place)

    def lines(self) -> list[str]:
        found = []
        for kind, places in self._by_kind.items():
            named = [place for place in places if place]
            if not named:
                found.append(kind)
                continue
            shown = ", ".join(named[:5]) + (f" and {len(named) - 5} more" if len(named) > 5 else "")
            found.append(f"{kind} ({shown})")
        return found


@dataclass
class Draft:
    """A bank read from another format, before validation."""

    bank: dict[str, Any]  # quiz-level fields found in the file (id, title, level, ...)
    questions: list[dict[str, Any]] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)  # where each question is in the source
    # where the quiz's own fields are in the source, by field (`title`: "line 1 $CATEGORY")
    field_origins: dict[str, str] = field(default_factory=dict)
    images: dict[str, bytes] = field(default_factory=dict)  # files the input itself carried
    problems: Problems = field(default_factory=Problems)
    warnings: list[str] = field(default_factory=list)

    def add(self, question: dict[str, Any], origin: str) -> None:
        self.questions.append(question)
        self.origins.append(origin)
        self.problems.drafted += 1


@dataclass(frozen=True)
class WriteOptions:
    language: str = "en"  # the language written where a format holds one


@dataclass(frozen=True)
class Written:
    """A converted file: its bytes, the image files that travel beside it (by path relative
    to it), and what the format could not carry."""

    data: bytes
    images: Mapping[str, bytes] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def decode_text(data: bytes) -> str:
    """UTF-8 text, with or without a byte order mark, newlines made `\\n`; an undecodable
    byte is an error at its line."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ConversionError([f"line {line}: not UTF-8 text (save the file as UTF-8)"]) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ConversionError([f"line {line}: a NUL character; this is not a text file"])
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- ids and names -------------------------------------------------------------------------


def _ascii_words(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    return re.findall(r"[a-z0-9]+", plain.lower())


def _joined(words: Iterable[str], limit: int) -> str:
    kept: list[str] = []
    length = 0
    for word in words:
        extra = len(word) + (1 if kept else 0)
        if length + extra > limit:
            if not kept:
                kept.append(word[:limit])
            break
        kept.append(word)
        length += extra
    return "-".join(kept)


def quiz_slug(name: str) -> str | None:
    """A quiz id (a slug) from a file's text: its letters and digits, lower-case, joined by
    dashes (`Week_3 / Pipes` is `week-3-pipes`); None when it has none."""
    return _joined(_ascii_words(name), MAX_QUIZ_ID_LENGTH) or None


def no_quiz_id(what: str, text: str) -> str:
    """The warning for a file's id that no slug can be made of."""
    return (
        f"{what} {text[:30]!r} has no letter or digit a quiz id can take: "
        "the quiz id comes from the file name (or --id)"
    )


def quiz_id_from(name: str) -> str:
    """A quiz id (a slug) from a file name or a title; `quiz` when nothing is left."""
    return quiz_slug(name) or "quiz"


def question_id_from(name: str) -> str | None:
    """A question id from a question's name: the name itself when it is a valid id, else a
    slug of it; None when nothing is left."""
    name = name.strip()
    if _QUESTION_ID.match(name) and len(name) <= MAX_QUESTION_ID_LENGTH:
        return name
    return _joined(_ascii_words(name), MAX_QUESTION_ID_LENGTH) or None


def title_from(name: str) -> str:
    """A title from a file name: the name without its extension."""
    stem = name.rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem[1:] else stem
    return stem.strip() or "Quiz"


def assign_ids(draft: Draft) -> None:
    """Every question gets an id: its own, made unique (`q1-2`), or `q<number>`."""
    taken: set[str] = set()
    renamed = Warnings()
    for question in draft.questions:
        given = question.get("id")
        if isinstance(given, str) and given:
            taken.add(given)
    seen: set[str] = set()
    for number, (question, origin) in enumerate(
        zip(draft.questions, draft.origins, strict=True), 1
    ):
        given = question.get("id")
        if isinstance(given, str) and given and given not in seen:
            seen.add(given)
            continue
        base = given if isinstance(given, str) and given else f"q{number}"
        candidate, suffix = base, 2
        while candidate in taken or candidate in seen:
            candidate = f"{base[: MAX_QUESTION_ID_LENGTH - 1 - len(str(suffix))]}-{suffix}"
            suffix += 1
        if given:
            renamed.add(
                f"two questions are named {given!r}: the later one became {candidate}", origin
            )
        question["id"] = candidate
        seen.add(candidate)
        taken.add(candidate)
    draft.warnings.extend(renamed.lines())


def check_language(code: str) -> str:
    if not LANGUAGE_CODE.match(code):
        raise ConversionError([f"{code!r} is not a language code such as 'en' or 'yo'"])
    return code


def check_quiz_id(quiz_id: str) -> str:
    """A quiz id given by hand (`--id`): refused with a hint when it is not one."""
    if not re.fullmatch(SLUG, quiz_id) or len(quiz_id) > MAX_QUIZ_ID_LENGTH:
        raise ConversionError(
            [
                f"--id {quiz_id[:60]!r} is not a quiz id: lower-case letters and digits, words "
                f"joined by single dashes, at most {MAX_QUIZ_ID_LENGTH} characters "
                f"(such as {quiz_id_from(quiz_id)})"
            ]
        )
    return quiz_id


def moodle_language(code: str) -> str | None:
    """A language code as we write it, from Moodle's (`pt_br` is `pt-br`); None if invalid."""
    normalized = code.strip().lower().replace("_", "-")
    return normalized if LANGUAGE_CODE.match(normalized) else None


# --- numbers -------------------------------------------------------------------------------


def read_decimal(text: str) -> Decimal | None:
    """A plain number (`14`, `-0.5`, `1.5e3`) as an exact decimal, or None."""
    text = text.strip()
    if len(text) > 60 or not _NUMBER.match(text):
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid numbers
        return None
    if number and abs(number.adjusted()) > MAX_EXPONENT:
        return None
    return number


def yaml_number(value: Decimal) -> int | float | None:
    """The number as YAML gives it to the schema (an int, or a float that is exactly this
    decimal), or None when no float spells it (more than about 15 significant digits)."""
    if value == value.to_integral_value() and abs(value) < 10**15:
        return int(value)
    as_float = float(value)
    if Decimal(repr(as_float)) == value.normalize() or Decimal(repr(as_float)) == value:
        return as_float
    return None


def put_number(
    question: dict[str, Any], value: Decimal, tolerance: Decimal, problems: Problems, place: str
) -> bool:
    """Make the draft question numeric with this answer and tolerance (the tolerance left out
    when zero); False, with the error at its place, when a number has no YAML spelling."""
    answer, margin = yaml_number(value), yaml_number(tolerance)
    if answer is None or margin is None:
        problems.error(place, "a number with more than 15 significant digits")
        return False
    question["type"] = "numeric"
    question["answer"] = answer
    if tolerance:
        question["tolerance"] = margin
    return True


@dataclass(frozen=True)
class NumberAnswer:
    """One answer of a numeric question as Moodle writes it: its fraction (percent), number,
    tolerance and feedback (plain text, or a map of language to text)."""

    weight: Decimal
    value: Decimal
    tolerance: Decimal
    feedback: str | dict[str, str] | None


def put_numbers(
    question: dict[str, Any], answers: Sequence[NumberAnswer], problems: Problems, place: str
) -> NumberAnswer | None:
    """Make the draft question numeric from Moodle's answers, which Moodle tries in order
    (the first that takes a reply grades it): the one worth 100% is the answer, the others
    become `numbers` after it. That keeps Moodle's grading when no answer before the right
    one takes a reply the right one takes; otherwise, or with a negative fraction, or more
    than one right number, the question is refused by name. The right answer, or None."""
    right = [answer for answer in answers if answer.weight == 100]
    if len(right) != 1:
        if right:
            problems.unsupported_part(place, "several right numbers in one question")
        else:
            problems.error(place, "no number worth 100%")
        return None
    answer = right[0]
    if negative := [other for other in answers if other.weight < 0]:
        problems.unsupported_part(
            place, f"a negative fraction ({number_text(negative[0].weight)}%) for a number"
        )
        return None
    low, high = answer.value - answer.tolerance, answer.value + answer.tolerance
    for other in answers[: answers.index(answer)]:
        if other.value - other.tolerance <= high and low <= other.value + other.tolerance:
            problems.unsupported_part(
                place,
                f"a number worth {number_text(other.weight)}% before the right one takes some "
                "of its replies (Moodle gives them that fraction)",
            )
            return None
    if not put_number(question, answer.value, answer.tolerance, problems, place):
        return None
    others = []
    for other in answers:
        if other is answer:
            continue
        value, margin = yaml_number(other.value), yaml_number(other.tolerance)
        weight = yaml_number(other.weight)
        if value is None or margin is None or weight is None:
            problems.error(place, "a number with more than 15 significant digits")
            return None
        entry: dict[str, Any] = {"value": value}
        if other.tolerance:
            entry["tolerance"] = margin
        entry["weight"] = weight
        if other.feedback:
            entry["feedback"] = other.feedback
        others.append(entry)
    if others:
        question["numbers"] = others
    return answer


def weights_kept(weights: Sequence[Decimal], right: Sequence[int], single: bool) -> bool:
    """Whether Moodle's fractions say more than the question's plain rule: a single question
    other than 100 for the right option and 0 for the rest; a multiple question other than
    +1/k for each of its k right options and -1/k for each wrong one (what Moodle's own
    export of a plain question holds)."""
    if single:
        return any(weight != (100 if index in right else 0) for index, weight in enumerate(weights))
    part = Fraction(1, len(right)) if right else Fraction(0)
    return any(
        share(weight) != (part if index in right else -part) for index, weight in enumerate(weights)
    )


def weight_numbers(weights: Sequence[Decimal]) -> list[int | float] | None:
    """Weights as YAML numbers, or None when one has no YAML spelling."""
    found = [yaml_number(weight) for weight in weights]
    return None if any(number is None for number in found) else found  # type: ignore[return-value]


def full_credit(weight: Decimal, what: str, problems: Problems, place: str) -> bool:
    """Whether an answer is worth 100%; partial credit for `what` cannot be represented."""
    if weight == 100:
        return True
    problems.unsupported_part(place, f"partial credit ({number_text(weight)}%) for {what}")
    return False


ZERO_SHORT_ANSWER = "short answers worth 0% (feedback for a wrong reply) are not kept"


def typed_answer(text: str, problems: Problems, place: str) -> str | None:
    """A short answer as our typed answer: `\\*` is a literal star; a bare `*` is Moodle's
    wildcard, which we cannot represent, and an empty answer is an error (None for both)."""
    if "*" in text.replace("\\*", ""):
        problems.unsupported_part(place, f"a short answer with a wildcard: {text[:40]!r}")
        return None
    if not (text := text.replace("\\*", "*")):
        problems.error(place, "an empty short answer")
        return None
    return text


def number_text(value: Decimal) -> str:
    """A number as text formats write it: `14`, `0.5`, `1.5E+20` (no trailing zeros)."""
    if value == value.to_integral_value() and abs(value) < 10**15:
        return str(int(value))
    normalized = value.normalize()
    if -15 <= normalized.adjusted() <= 15:
        return format(normalized, "f")
    return str(normalized)


# --- localized text ------------------------------------------------------------------------


def localized(translations: Mapping[str, str]) -> dict[str, str] | None:
    """A bank's localized field from language → text, leaving out empty texts."""
    kept = {code: text for code, text in translations.items() if text and text.strip()}
    return kept or None


def text_in(value: LocalizedText | None, language: str) -> str | None:
    """The text in one language, falling back as the bot does (the language, else the
    first one)."""
    if value is None:
        return None
    return value.get(language, language)


def texts_of(question: Question) -> list[LocalizedText]:
    """Every localized text of a question: text, options, answers, unit, explanation, alt,
    its guide's title."""
    found = [question.text, *question.options]
    match question.key:
        case TypedAnswer(accepted):
            found.extend(accepted)
        case NumericAnswer(unit=unit, others=others):
            found.extend(unit for unit in [unit] if unit is not None)
            found.extend(other.feedback for other in others if other.feedback is not None)
    guide = question.guide.title if question.guide else None
    found.extend(value for value in (question.explanation, question.image_alt, guide) if value)
    return found


def languages_of(quiz: Quiz) -> list[str]:
    """Every language of a quiz, in a stable order."""
    found: set[str] = set(quiz.title.languages)
    for value in (quiz.description, quiz.guide.title if quiz.guide else None):
        if value is not None:
            found |= value.languages
    for question in quiz.questions:
        for text in texts_of(question):
            found |= text.languages
    return sorted(found)


def quiz_fields_left_out(quiz: Quiz) -> list[str]:
    """The quiz's own fields that differ from their defaults, for a format that holds none of
    them (the title and id aside)."""
    found = []
    if quiz.description is not None:
        found.append("the description")
    if quiz.level.value != "medium":
        found.append(f"the level ({quiz.level.value})")
    if quiz.guide is not None:
        found.append("the guide")
    if not quiz.shuffle_options:
        found.append("shuffle_options: false")
    if quiz.exam is not None:
        found.append("the exam settings")
    return found


def exam_left_out(quiz: Quiz, format_name: str) -> list[str]:
    """The warning for a format that holds the quiz's own fields but not its exam settings."""
    if quiz.exam is None:
        return []
    return [f"{format_name} holds no exam settings: the bank's exam block was left out"]


def one_line(text: str, what: str, warnings: list[str]) -> str:
    """A text that a format writes on one line of its own (a GIFT category, a Moodle
    category's path, an Anki deck's name): its line breaks (every kind: `\r`, U+2028…)
    become spaces, with a warning naming the field. Without this, a title's line break
    would start a line that reads as a question."""
    lines = text.splitlines()
    if len(lines) <= 1:
        return text
    warnings.append(f"{what}: its line breaks became spaces (it is written on one line)")
    return " ".join(line.strip() for line in lines if line.strip())


def dropped_languages(quiz: Quiz, language: str, format_name: str) -> list[str]:
    """The warning for a format that holds one language, when the quiz has others."""
    others = [code for code in languages_of(quiz) if code != language]
    if not others:
        return []
    return [
        f"{format_name} holds one language: only the {language} texts were written "
        f"(left out: {', '.join(others)}; choose another with --language)"
    ]
