"""Turn YAML text or files into validated quizzes, with every error and its place."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from content.model import Quiz
from content.safe_yaml import BankYamlError, load_bank_yaml
from content.schema import BankSchema, to_quiz

log = logging.getLogger(__name__)

MAX_BANK_BYTES = 512 * 1024


@dataclass(frozen=True)
class BankResult:
    """The outcome of reading one bank: a quiz, or the errors that refused it."""

    source: str
    quiz: Quiz | None
    errors: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.quiz is not None and not self.errors


def _question_label(raw: Any, index: int) -> str:
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
        parts.append(_question_label(raw, rest[1]))
        rest = rest[2:]
    path = ""
    for item in rest:
        if isinstance(item, int):
            path += f"[{item}]"
        elif not item.startswith(("function-", "function")):
            path += f".{item}" if path else item
    if path:
        parts.append(f"field {path}")
    return ", ".join(parts) or "bank"


def _messages(raw: Any, error: ValidationError) -> list[str]:
    messages = []
    for item in error.errors(include_url=False):
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown field (check its spelling)"
        elif item["type"] == "missing":
            message = "required field is missing"
        messages.append(f"{_place(raw, item['loc'])}: {message}")
    return messages


def parse_bank(text: str | bytes, source: str, default_language: str) -> BankResult:
    """Validate one bank's YAML; never raises for bad content."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_BANK_BYTES:
        return BankResult(
            source, None, (f"{size} bytes; a bank may have at most {MAX_BANK_BYTES}",)
        )
    try:
        raw = load_bank_yaml(text)
    except BankYamlError as error:
        return BankResult(source, None, (str(error),))
    return check_bank(raw, source, default_language)


def check_bank(raw: Any, source: str, default_language: str) -> BankResult:
    """Validate a bank already in plain data (as YAML gives it); never raises for bad content."""
    if not isinstance(raw, dict):
        return BankResult(source, None, ("a bank must be a mapping with id, title and questions",))
    try:
        bank = BankSchema.model_validate(raw)
    except ValidationError as error:
        return BankResult(source, None, tuple(_messages(raw, error)))
    return BankResult(source, to_quiz(bank, default_language))


def load_bank_file(path: Path, default_language: str) -> BankResult:
    try:
        data = path.read_bytes()
    except OSError as error:
        return BankResult(str(path), None, (f"cannot read: {error.strerror}",))
    return parse_bank(data, str(path), default_language)


def bank_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())


def load_banks(paths: Iterable[Path], default_language: str) -> list[BankResult]:
    """Load every bank; a refused bank or a quiz id used twice is reported, others still load."""
    results: list[BankResult] = []
    seen: dict[str, str] = {}
    for path in paths:
        result = load_bank_file(path, default_language)
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
