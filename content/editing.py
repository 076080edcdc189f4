"""Changing a quiz: an import merged over the bank it replaces, an added question, a retired
one. Pure functions over the content model; every result is validated like a bank on disk.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from content.exams import exam_without
from content.export import bank_data, dump_bank
from content.images import ImageSource
from content.loader import MAX_BANK_BYTES, PLAYABLE, Accepts, BankResult, check_bank
from content.model import Question, Quiz
from content.schema import MAX_QUESTION_ID_LENGTH


class EditError(ValueError):
    """A change that cannot be made; the message says why (plain text)."""


@dataclass(frozen=True)
class ImportPlan:
    """What importing `incoming` over the quiz of the same id does, question by question.

    The imported document is the whole bank: questions it does not have are retired (their
    answers are kept); questions it has keep their ids, so answers stay attached.
    """

    quiz: Quiz
    replaces: bool
    added: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: tuple[str, ...]
    retired: tuple[str, ...]
    details_changed: bool

    @property
    def changes_anything(self) -> bool:
        return bool(
            not self.replaces or self.added or self.updated or self.retired or self.details_changed
        )


def _details(quiz: Quiz) -> tuple[Any, ...]:
    return (quiz.title, quiz.description, quiz.level, quiz.guide, quiz.shuffle_options, quiz.exam)


def plan_import(existing: Quiz | None, incoming: Quiz) -> ImportPlan:
    if existing is not None and existing.id != incoming.id:
        raise ValueError("an import replaces the quiz with its own id")
    added, updated, unchanged = [], [], []
    for question in incoming.questions:
        before = existing.question(question.id) if existing is not None else None
        if before is None:
            added.append(question.id)
        elif before == question:
            unchanged.append(question.id)
        else:
            updated.append(question.id)
    retired = (
        [q.id for q in existing.questions if incoming.question(q.id) is None] if existing else []
    )
    return ImportPlan(
        quiz=incoming,
        replaces=existing is not None,
        added=tuple(added),
        updated=tuple(updated),
        unchanged=tuple(unchanged),
        retired=tuple(retired),
        details_changed=existing is not None and _details(existing) != _details(incoming),
    )


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def next_question_id(quiz: Quiz, taken: Collection[str] = ()) -> str:
    """A new question id in the style of the quiz's own (`mpp-8` → `mpp-9`), never one that a
    question of the quiz, current or retired (`taken`), ever had: answers are kept by id."""
    used = {q.id for q in quiz.questions} | set(taken)
    prefix = "q"
    for question in reversed(quiz.questions):
        match = _NUMBERED.match(question.id)
        if match:
            prefix = match.group(1)
            break
    numbers = [
        int(match.group(2))
        for identifier in used
        if (match := _NUMBERED.match(identifier)) and match.group(1) == prefix
    ]
    number = max(numbers, default=0) + 1
    while f"{prefix}{number}" in used:
        number += 1
    candidate = f"{prefix}{number}"
    if len(candidate) > MAX_QUESTION_ID_LENGTH:
        candidate = f"q{number}"
    return candidate


def _validated(
    data: Mapping[str, Any],
    quiz_id: str,
    default_language: str,
    images: ImageSource | None,
    accepts: Accepts,
) -> BankResult:
    result = check_bank(
        dict(data), f"quiz {quiz_id}", default_language, images=images, accepts=accepts
    )
    if result.quiz is not None and len(dump_bank(result.quiz).encode()) > MAX_BANK_BYTES:
        return BankResult(
            result.source,
            None,
            (f"the bank would be over {MAX_BANK_BYTES} bytes as YAML, which /import refuses",),
        )
    return result


def add_question(
    quiz: Quiz,
    question: Mapping[str, Any],
    taken: Collection[str],
    default_language: str,
    *,
    images: ImageSource | None = None,
    accepts: Accepts = PLAYABLE,
) -> BankResult:
    """The quiz with `question` (bank data without an id) appended under a new id, validated
    exactly like a bank on disk; or the errors, each with its place. `images` holds the image
    files of the quiz and of the new question, if they have any."""
    return add_questions(quiz, [question], taken, default_language, images=images, accepts=accepts)


def add_questions(
    quiz: Quiz,
    questions: Sequence[Mapping[str, Any]],
    taken: Collection[str],
    default_language: str,
    *,
    images: ImageSource | None = None,
    accepts: Accepts = PLAYABLE,
) -> BankResult:
    """The quiz with `questions` appended in order, each under a new id, validated once as a
    whole bank; or the errors, each with its place."""
    data = bank_data(quiz)
    used = set(taken)
    for question in questions:
        new_id = next_question_id(quiz, used)
        used.add(new_id)
        data["questions"].append({"id": new_id, **question})
    return _validated(data, quiz.id, default_language, images, accepts)


def retire_question(quiz: Quiz, question_id: str) -> tuple[Quiz, Question]:
    """The quiz without that question, and the question; a quiz keeps at least one."""
    question = quiz.question(question_id)
    if question is None:
        raise EditError(f"quiz {quiz.id} has no question {question_id}")
    if len(quiz) == 1:
        raise EditError(f"{question_id} is the last question of quiz {quiz.id}; a quiz needs one")
    remaining = tuple(q for q in quiz.questions if q.id != question_id)
    exam = None if quiz.exam is None else exam_without(quiz.exam, question_id, len(remaining))
    return dataclasses.replace(quiz, questions=remaining, exam=exam), question
