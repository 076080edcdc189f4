"""Questions as rows of a table, the part CSV and Excel share.

Columns (a header row names them; order free, case ignored): `id`, `type`, `question`,
`option1`…`option10`, `answer`, `tolerance`, `explanation`, `image`, `image_alt`, `unit`,
`explanation_image`, `weights`, `strict_diacritics`, `guide` (the URL of the guide's section
that teaches the question) and `guide_title`; a localized column in another language is
`question:yo`, `option1:yo`, `answer:yo`, `unit:yo`, `explanation:yo`, `image_alt:yo`,
`guide_title:yo`.
`answer` is a letter (`A`) for single, letters (`A,C`) for multiple, `true`/`false`, a
number, or the accepted answers joined by `|` for typed (`\\|` is a bar in an answer; in
`answer:yo` the n-th answer is the Yoruba form of the n-th answer of `answer`). `weights`
holds a single or multiple question's Moodle fractions, one percentage per option joined by
`|` (`50|50|-100|-100`). A numeric question's other numbers have no column (GIFT, Moodle
XML and YAML hold them).
An empty `type` is `single`; empty rows are skipped.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from content import model
from content.formats.base import (
    ConversionError,
    Draft,
    Problems,
    localized,
    number_text,
    question_id_from,
    read_decimal,
    yaml_number,
)
from content.model import LocalizedText, Question, QuestionType, Quiz
from content.schema import LANGUAGE_CODE, MAX_OPTIONS, MAX_QUESTIONS

OPTION_COLUMNS = tuple(f"option{number}" for number in range(1, MAX_OPTIONS + 1))
COLUMNS = (
    "id",
    "type",
    "question",
    *OPTION_COLUMNS,
    "answer",
    "tolerance",
    "explanation",
    "image",
    "image_alt",
    "unit",
    "explanation_image",
    "weights",
    "strict_diacritics",
    "guide",
    "guide_title",
)
LOCALIZED = frozenset(
    {"question", *OPTION_COLUMNS, "answer", "unit", "explanation", "image_alt", "guide_title"}
)
REQUIRED = ("question", "answer")
TYPES = tuple(kind.value for kind in QuestionType)
LETTERS = "ABCDEFGHIJ"
MAX_COLUMNS = 500  # far more than the 19 columns and their translations
_SEPARATOR = re.compile(r"[,;\s]+")
# What a spreadsheet reads as the start of a formula (OWASP's list: a tab or a carriage
# return may hide one), and a plain number, which starts like one and is none.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
Cell = str | int | float | bool | datetime.datetime | datetime.date | datetime.time | None


def cell_text(value: Any) -> str:
    """A cell as text: numbers without a trailing `.0`, booleans as true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time | datetime.timedelta):
        raise TypeError("a date or a time")
    return str(value).strip()


def split_answers(text: str) -> list[str]:
    """Typed answers joined by `|` (`\\|` is a bar, `\\\\` a backslash)."""
    found: list[str] = []
    current: list[str] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char == "\\" and text[position + 1 : position + 2] in ("|", "\\"):
            current.append(text[position + 1])
            position += 2
            continue
        if char == "|":
            found.append("".join(current).strip())
            current = []
        else:
            current.append(char)
        position += 1
    found.append("".join(current).strip())
    return found


def join_answers(answers: Iterable[str]) -> str:
    return "|".join(answer.replace("\\", "\\\\").replace("|", "\\|") for answer in answers)


class Header:
    """The columns of a table: (field, language or None) for each position."""

    def __init__(self, cells: Sequence[Any], place: str, problems: Problems) -> None:
        self.columns: list[tuple[str, str | None] | None] = []
        seen: set[tuple[str, str | None]] = set()
        for number, cell in enumerate(cells, 1):
            try:
                name = cell_text(cell).lower()
            except TypeError:
                name = "?"
            if not name:
                self.columns.append(None)
                continue
            base, _, language = name.partition(":")
            column = (base.strip(), language.strip() or None)
            if column[0] not in COLUMNS:
                problems.error(
                    place,
                    f"unknown column {name[:30]!r} (column {number}); the columns are {', '.join(COLUMNS)}",
                )
            elif column[1] is not None and column[0] not in LOCALIZED:
                problems.error(place, f"column {name[:30]!r}: {column[0]} has no languages")
            elif column[1] is not None and not LANGUAGE_CODE.match(column[1]):
                problems.error(
                    place,
                    f"column {name[:30]!r}: {column[1][:10]!r} is not a language code such as 'yo'",
                )
            elif column in seen:
                problems.error(place, f"column {name[:30]!r} is there twice")
            seen.add(column)
            self.columns.append(column)
        for required in REQUIRED:
            if (required, None) not in seen:
                problems.error(place, f"no {required} column")


class Rows:
    """Reads the rows after the header into questions of a draft."""

    def __init__(self, header: Header, language: str, problems: Problems, draft: Draft) -> None:
        self.header = header
        self.language = language
        self.problems = problems
        self.draft = draft

    def read(self, cells: Sequence[Any], place: str) -> None:
        with self.problems.question():
            values = self._values(cells, place)
            if not values:
                return
            if len(self.draft.questions) >= MAX_QUESTIONS:
                raise ConversionError(
                    [
                        f"{place}: more than {MAX_QUESTIONS} questions; a bank has at most {MAX_QUESTIONS}"
                    ]
                )
            question = self._question(values, place)
            if question is not None and self.problems.question_ok:
                self.draft.add(question, place)

    def _values(self, cells: Sequence[Any], place: str) -> dict[tuple[str, str | None], str]:
        """The row's non-empty cells by column; none when a cell cannot be read."""
        values: dict[tuple[str, str | None], str] = {}
        for number, cell in enumerate(cells):
            column = self.header.columns[number] if number < len(self.header.columns) else None
            try:
                text = cell_text(cell)
            except TypeError as error:
                self.problems.error(place, f"column {number + 1}: {error}; write it as text")
                return {}
            if not text:
                continue
            if column is None:
                self.problems.error(place, f"a value in column {number + 1}, which has no header")
                return {}
            values[column] = text
        return values

    def _localized(
        self, values: dict[tuple[str, str | None], str], name: str
    ) -> dict[str, str] | None:
        found = {
            (language or self.language): text
            for (field, language), text in values.items()
            if field == name
        }
        return localized(found)

    def _question(
        self, values: dict[tuple[str, str | None], str], place: str
    ) -> dict[str, Any] | None:
        kind = values.get(("type", None), "single").lower()
        if kind not in TYPES:
            self.problems.error(
                place, f"unknown type {kind[:30]!r}; the types are {', '.join(TYPES)}"
            )
            return None
        question: dict[str, Any] = {"type": kind}
        if ("id", None) in values:  # slugified as a Moodle name is; none left: numbered
            question["id"] = question_id_from(values[("id", None)])
        question["text"] = self._localized(values, "question")
        options = [self._localized(values, name) for name in OPTION_COLUMNS]
        while options and options[-1] is None:
            options.pop()
        if None in options:
            self.problems.error(
                place, f"option{options.index(None) + 1} is empty but a later option is not"
            )
            return None
        if options:
            question["options"] = options
        answer = values.get(("answer", None), "")
        translated = {language for (field, language) in values if field == "answer" and language}
        if translated and kind != "typed":
            self.problems.error(
                place, "answers in other languages (answer:xx) are for typed questions"
            )
            return None
        if ("weights", None) in values and kind not in ("single", "multiple"):
            self.problems.error(place, "weights are for single and multiple questions")
            return None
        if kind in ("single", "multiple"):
            question["answer"] = self._letters(answer, kind, len(options), place)
            if ("weights", None) in values:
                question["weights"] = self._weights(values[("weights", None)], place)
                if question["weights"] is None:
                    return None
        elif kind == "true_false":
            truth = answer.lower()
            if truth not in ("true", "false"):
                self.problems.error(
                    place, f"answer {answer[:30]!r}: a true_false answer is true or false"
                )
                return None
            question["answer"] = truth == "true"
        elif kind == "numeric":
            question["answer"] = self._number(answer, "answer", place)
        else:
            question["answer"] = self._typed(values, place)
        if question["answer"] is None:
            return None
        if ("tolerance", None) in values:
            question["tolerance"] = self._number(values[("tolerance", None)], "tolerance", place)
            if question["tolerance"] is None:
                return None
        if (unit := self._localized(values, "unit")) is not None:
            question["unit"] = unit
        for name in ("explanation", "image_alt"):
            if (text := self._localized(values, name)) is not None:
                question[name] = text
        for name in ("image", "explanation_image"):
            if (name, None) in values:
                question[name] = values[(name, None)]
        if ("strict_diacritics", None) in values:
            strict = values[("strict_diacritics", None)].lower()
            if strict not in ("true", "false"):
                self.problems.error(place, "strict_diacritics is true or false")
                return None
            question["strict_diacritics"] = strict == "true"
        guide_title = self._localized(values, "guide_title")
        if ("guide", None) in values or guide_title is not None:
            if ("guide", None) not in values or guide_title is None:
                self.problems.error(place, "a guide has a guide_title and a guide (its URL)")
                return None
            question["guide"] = {"title": guide_title, "url": values[("guide", None)]}
        if kind == "single":
            del question["type"]
        return question

    def _letters(self, answer: str, kind: str, count: int, place: str) -> int | list[int] | None:
        letters = [letter for letter in _SEPARATOR.split(answer.upper()) if letter]
        if not letters or any(len(letter) != 1 or letter not in LETTERS for letter in letters):
            hint = (
                "; for true/false write type true_false"
                if answer.lower() in ("true", "false")
                else ""
            )
            self.problems.error(
                place, f"answer {answer[:30]!r}: the right option's letter, such as A{hint}"
            )
            return None
        indexes = [LETTERS.index(letter) for letter in letters]
        outside = [letter for letter, index in zip(letters, indexes, strict=True) if index >= count]
        if outside:
            self.problems.error(
                place, f"answer {outside[0]}: there is no option{LETTERS.index(outside[0]) + 1}"
            )
            return None
        if kind == "single":
            if len(indexes) > 1:
                self.problems.error(
                    place,
                    f"answer {answer[:30]!r}: a single question has one right option; for several write type multiple",
                )
                return None
            return indexes[0]
        if len(set(indexes)) != len(indexes):
            self.problems.error(place, f"answer {answer[:30]!r} names an option twice")
            return None
        return sorted(indexes)

    def _weights(self, text: str, place: str) -> list[int | float] | None:
        """`50|50|-100`: one percentage per option."""
        found = []
        for part in text.split("|"):
            weight = self._number(part.strip().removesuffix("%"), "weight", place)
            if weight is None:
                return None
            found.append(weight)
        return found

    def _number(self, text: str, name: str, place: str) -> int | float | None:
        number = read_decimal(text)
        value = yaml_number(number) if number is not None else None
        if value is None:
            self.problems.error(
                place,
                f"{name} {text[:30]!r} is not a number such as 14, 0.5 or 1.5e3 (at most 15 digits)",
            )
        return value

    def _typed(
        self, values: dict[tuple[str, str | None], str], place: str
    ) -> list[dict[str, str]] | None:
        columns = {
            (language or self.language): split_answers(text)
            for (field, language), text in values.items()
            if field == "answer"
        }
        if not columns:
            self.problems.error(place, "no accepted answer")
            return None
        count = max(len(forms) for forms in columns.values())
        groups: list[dict[str, str]] = []
        for index in range(count):
            group = {
                language: forms[index]
                for language, forms in columns.items()
                if index < len(forms) and forms[index]
            }
            if not group:
                self.problems.error(place, f"accepted answer {index + 1} is empty")
                return None
            groups.append(group)
        return groups


def read_table(
    rows: Iterable[tuple[str, Sequence[Any]]], language: str, problems: Problems, draft: Draft
) -> None:
    """Reads (place, cells) rows: the first non-empty one is the header."""
    reader: Rows | None = None
    for place, cells in rows:
        if reader is None:
            if not any(cell_text(cell) for cell in cells if not _is_date(cell)):
                continue
            header = Header(cells, place, problems)
            if problems.file_errors:
                return
            reader = Rows(header, language, problems, draft)
            continue
        reader.read(cells, place)
    if reader is None:
        problems.error("row 1", f"no header row; the columns are {', '.join(COLUMNS)}")


def _is_date(value: Any) -> bool:
    return isinstance(value, datetime.datetime | datetime.date | datetime.time | datetime.timedelta)


# --- writing -------------------------------------------------------------------------------


def _languages(quiz: Quiz, language: str) -> dict[str, list[str]]:
    """For each localized column, the other languages it needs, in order."""
    found: dict[str, set[str]] = {name: set() for name in LOCALIZED}

    def note(name: str, value: LocalizedText | None) -> None:
        if value is not None:
            found[name] |= value.languages - {language}

    for question in quiz.questions:
        note("question", question.text)
        for number, option in enumerate(question.options):
            note(OPTION_COLUMNS[number], option)
        note("explanation", question.explanation)
        note("image_alt", question.image_alt)
        note("guide_title", question.guide.title if question.guide else None)
        match question.key:
            case model.NumericAnswer(unit=unit):
                note("unit", unit)
            case model.TypedAnswer(accepted):
                for text in accepted:
                    note("answer", text)
    return {name: sorted(codes) for name, codes in found.items()}


def header_for(quiz: Quiz | None, language: str, all_options: bool = False) -> list[str]:
    languages = _languages(quiz, language) if quiz is not None else {}
    used = max((len(q.options) for q in quiz.questions), default=0) if quiz is not None else 0
    option_count = MAX_OPTIONS if all_options else max(used, 2)
    header: list[str] = []
    for name in COLUMNS:
        if name in OPTION_COLUMNS and OPTION_COLUMNS.index(name) >= option_count:
            continue
        header.append(name)
        header.extend(f"{name}:{code}" for code in languages.get(name, []))
    return header


def _text(value: LocalizedText | None, code: str) -> str | None:
    if value is None:
        return None
    return value.translations.get(code)


def question_row(question: Question, header: Sequence[str], language: str) -> list[Any]:
    """The cells of one question under `header`: text, or an int or float for numbers."""
    cells: dict[str, Any] = {"id": question.id, "type": question.type.value}
    localized_fields: dict[str, LocalizedText | None] = {
        "question": question.text,
        "explanation": question.explanation,
        "image_alt": question.image_alt,
        "guide_title": question.guide.title if question.guide else None,
    }
    for index, option in enumerate(question.options):
        localized_fields[OPTION_COLUMNS[index]] = option
    if question.weights is not None:
        cells["weights"] = "|".join(number_text(weight) for weight in question.weights)
    match question.key:
        case model.SingleAnswer(right):
            cells["answer"] = LETTERS[right]
        case model.MultipleAnswer(rights):
            cells["answer"] = ",".join(LETTERS[index] for index in sorted(rights))
        case model.TrueFalseAnswer(truth):
            cells["answer"] = "true" if truth else "false"
        case model.NumericAnswer(number, tolerance, unit):
            cells["answer"] = _number_cell(number)
            if tolerance:
                cells["tolerance"] = _number_cell(tolerance)
            localized_fields["unit"] = unit
        case model.TypedAnswer(accepted, strict):
            codes = {code for text in accepted for code in text.languages}
            for code in codes:
                key = "answer" if code == language else f"answer:{code}"
                cells[key] = join_answers(text.translations.get(code, "") for text in accepted)
            if strict:
                cells["strict_diacritics"] = "true"
    for name, field_value in localized_fields.items():
        if field_value is None:
            continue
        for code, text in field_value.translations.items():
            cells[name if code == language else f"{name}:{code}"] = text
    if question.image is not None:
        cells["image"] = question.image.location
    if question.explanation_image is not None:
        cells["explanation_image"] = question.explanation_image.location
    if question.guide is not None:
        cells["guide"] = question.guide.url
    return [cells.get(name) for name in header]


def numbers_left_out(quiz: Quiz) -> list[str]:
    """The warning for a table, when numeric questions have other numbers (it has no column for
    them)."""
    count = sum(
        1
        for question in quiz.questions
        if isinstance(question.key, model.NumericAnswer) and question.key.others
    )
    if not count:
        return []
    questions = "question" if count == 1 else "questions"
    return [f"the other numbers (and their feedback) of {count} numeric {questions}: left out"]


def _number_cell(value: Decimal) -> int | float | str:
    """A number as a cell: an int or a float when that is exact, else its text."""
    number = yaml_number(value)
    return number if number is not None else number_text(value)
