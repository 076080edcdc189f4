"""Turn YAML text or files into validated quizzes, with every error and its place.

Images are read from where the bank came from: the bank's folder for a file on disk, the
bytes given with it for a bank that came in a `.zip` bundle (content/bundle.py) or from the
database, nowhere for a YAML document alone (which may then only use https URLs).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from content.images import FolderImages, ImageChecker, ImageSource, NoImages
from content.markup import problems
from content.model import Question, QuestionType, Quiz
from content.safe_yaml import BankYamlError, load_bank_yaml
from content.schema import QUESTION_SCHEMAS, TYPE_NAMES, BankSchema, fields_of, to_quiz

log = logging.getLogger(__name__)

MAX_BANK_BYTES = 512 * 1024


@dataclass(frozen=True)
class Accepts:
    """What a loader takes: the question types, and whether questions may have images."""

    types: frozenset[QuestionType]
    images: bool

    def takes(self, question: Question) -> bool:
        """Whether this takes the question: its type, and its pictures if it has any."""
        return question.type in self.types and (self.images or not question.images)

    def refusals(self, quiz: Quiz) -> list[tuple[int, str, str]]:
        """(question index, field, why) for each part of the quiz this does not take."""
        found = []
        for index, question in enumerate(quiz.questions):
            if question.type not in self.types:
                found.append(
                    (
                        index,
                        "type",
                        f"this version of the bot cannot play {question.type} questions yet",
                    )
                )
            if not self.images:
                for name in ("image", "explanation_image"):
                    if getattr(question, name) is not None:
                        found.append(
                            (index, name, "this version of the bot cannot show images yet")
                        )
        return found


EVERYTHING = Accepts(frozenset(QuestionType), images=True)
# What the bot can play: what its loaders take (on start, /import, stored banks). A bank with
# anything else is refused there, with the places, and `python -m content validate` accepts it
# and says it is not playable yet. Private chats play every type, with pictures (issue 14).
PLAYABLE = EVERYTHING
# What a group or channel quiz (/groupquiz, /push) plays of a bank; it skips the rest, and
# says so. Numeric and typed questions are never played there (a reply would show everyone
# the answer before the reveal).
IN_GROUPS = Accepts(
    frozenset({QuestionType.SINGLE, QuestionType.TRUE_FALSE, QuestionType.MULTIPLE}), images=True
)


@dataclass(frozen=True)
class BankResult:
    """The outcome of reading one bank: a quiz, or the errors that refused it.

    `warnings` name what is accepted but probably unmeant (a backtick shown as it is);
    `images` holds the bytes of the bank's checked image files by their path in the bank.
    """

    source: str
    quiz: Quiz | None
    errors: tuple[str, ...] = field(default=())
    warnings: tuple[str, ...] = field(default=())
    images: Mapping[str, bytes] = field(default_factory=dict, repr=False, compare=False)
    # for each error, the index of the question it is about (None: the bank's own fields), so
    # that a converter can leave out the questions that cannot be taken
    error_questions: tuple[int | None, ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        return self.quiz is not None and not self.errors


def question_label(raw: Any, index: int) -> str:
    """How an error names question `index` of a bank: `question <id> (#<number>)`."""
    questions = raw.get("questions") if isinstance(raw, dict) else None
    if isinstance(questions, list) and index < len(questions):
        item = questions[index]
        if isinstance(item, dict) and isinstance(item.get("id"), str | int):
            label = str(item["id"])
            label = label if len(label) <= 40 else label[:39] + "…"
            return f"question {label} (#{index + 1})"
    return f"question #{index + 1}"


def _place(raw: Any, location: Sequence[int | str]) -> str:
    parts: list[str] = []
    rest = list(location)
    if len(rest) >= 2 and rest[0] == "questions" and isinstance(rest[1], int):
        parts.append(question_label(raw, rest[1]))
        rest = rest[2:]
        if rest and rest[0] in QUESTION_SCHEMAS:  # the union's tag: the question's type
            rest = rest[1:]
    path = ""
    for item in rest:
        if isinstance(item, int):
            path += f"[{item}]"
        elif not item.startswith(("function-", "function")):
            path += f".{item}" if path else item
    if path:
        parts.append(f"field {path}")
    return ", ".join(parts) or "bank"


def _question_index(location: Sequence[int | str]) -> int | None:
    if len(location) >= 2 and location[0] == "questions" and isinstance(location[1], int):
        return location[1]
    return None


def _misplaced(location: Sequence[int | str]) -> str | None:
    """For a field of another question type: what to say instead of "unknown field"."""
    if len(location) != 4 or location[2] not in QUESTION_SCHEMAS:
        return None
    kind, name = QuestionType(str(location[2])), str(location[3])
    owners = [other.value for other in QuestionType if name in fields_of(other)]
    if not owners:
        return None
    return f"not a field of a {kind} question (it belongs to {' and '.join(owners)} questions)"


def _messages(raw: Any, items: Sequence[Any]) -> list[str]:
    """pydantic's errors (`ValidationError.errors()`, asked for once: a long list is built in
    one call that holds the GIL) as messages with their places."""
    messages = []
    for item in items:
        message = item["msg"].removeprefix("Value error, ")
        location = item["loc"]
        if item["type"] == "extra_forbidden":
            message = _misplaced(location) or "unknown field (check its spelling)"
        elif item["type"] == "missing":
            message = "required field is missing"
        elif item["type"] == "unknown_question_type":
            given = item["input"].get("type") if isinstance(item["input"], dict) else None
            message = f"unknown question type {str(given)[:30]!r}; the types are {TYPE_NAMES}"
            location = (*location, "type")
        elif item["type"] == "model_type" and len(location) == 3 and location[0] == "questions":
            message = "a question must be a mapping with id, text and answer"
            location = location[:2]
        elif item["type"] == "string_pattern_mismatch" and tuple(location) == ("id",):
            message = (
                f"{str(item['input'])[:60]!r} is not a quiz id: lower-case letters and digits, "
                "words joined by single dashes (such as my-quiz)"
            )
        messages.append(f"{_place(raw, location)}: {message}")
    return messages


def _markup_warnings(raw: Any, quiz: Quiz) -> list[str]:
    warnings = []
    for index, question in enumerate(quiz.questions):
        fields = [("text", question.text), ("explanation", question.explanation)]
        fields += [(f"options[{i}]", option) for i, option in enumerate(question.options)]
        for name, value in fields:
            if value is None:
                continue
            for code, text in value.translations.items():
                for problem in problems(text):
                    place = _place(raw, ("questions", index, name))
                    warnings.append(f"{place} ({code}): {problem}")
    return warnings


def parse_bank(
    text: str | bytes,
    source: str,
    default_language: str,
    *,
    images: ImageSource | None = None,
    accepts: Accepts = PLAYABLE,
) -> BankResult:
    """Validate one bank's YAML; never raises for bad content.

    `images` gives the bank's image files by their path relative to the bank (none: only
    https URLs are accepted); `accepts` says which question types and features to take.
    """
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_BANK_BYTES:
        return BankResult(
            source, None, (f"{size} bytes; a bank may have at most {MAX_BANK_BYTES}",)
        )
    try:
        raw = load_bank_yaml(text)
    except BankYamlError as error:
        return BankResult(source, None, (str(error),))
    return check_bank(raw, source, default_language, images=images, accepts=accepts)


def check_bank(
    raw: Any,
    source: str,
    default_language: str,
    *,
    images: ImageSource | None = None,
    accepts: Accepts = PLAYABLE,
) -> BankResult:
    """Validate a bank already in plain data (as YAML gives it); never raises for bad content."""
    if not isinstance(raw, dict):
        return BankResult(source, None, ("a bank must be a mapping with id, title and questions",))
    checker = ImageChecker(images or NoImages())
    try:
        bank = BankSchema.model_validate(raw, context={"images": checker})
    except ValidationError as error:
        items = error.errors(include_url=False)
        about = tuple(_question_index(item["loc"]) for item in items)
        return BankResult(source, None, tuple(_messages(raw, items)), error_questions=about)
    quiz = to_quiz(bank, default_language)
    refusals = accepts.refusals(quiz)
    if refusals:
        refused = tuple(
            f"{_place(raw, ('questions', index, name))}: {why}" for index, name, why in refusals
        )
        return BankResult(source, None, refused, error_questions=tuple(i for i, _, _ in refusals))
    return BankResult(
        source, quiz, warnings=tuple(_markup_warnings(raw, quiz)), images=checker.files
    )


def load_bank_file(path: Path, default_language: str, accepts: Accepts = PLAYABLE) -> BankResult:
    """A bank on disk; its images are read beside it."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return BankResult(str(path), None, (f"cannot read: {error.strerror}",))
    return parse_bank(
        data, str(path), default_language, images=FolderImages(path.parent), accepts=accepts
    )


def bank_files(folder: Path) -> list[Path]:
    """The banks of a folder: its `*.yaml`/`*.yml` files, then those of its direct subfolders
    (a bank with pictures sits in a folder of its own, `images/` beside it)."""

    def banks_in(place: Path) -> list[Path]:
        return sorted(p for p in place.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())

    subfolders = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    return banks_in(folder) + [bank for sub in subfolders for bank in banks_in(sub)]


def load_banks(
    paths: Iterable[Path], default_language: str, accepts: Accepts = PLAYABLE
) -> list[BankResult]:
    """Load every bank; a refused bank or a quiz id used twice is reported, others still load."""
    results: list[BankResult] = []
    seen: dict[str, str] = {}
    for path in paths:
        result = load_bank_file(path, default_language, accepts)
        if result.quiz is not None and result.quiz.id in seen:
            result = BankResult(
                result.source,
                None,
                (f"quiz id {result.quiz.id!r} is already used by {seen[result.quiz.id]}",),
            )
        if result.quiz is not None:
            seen[result.quiz.id] = result.source
        results.append(result)
    return results
