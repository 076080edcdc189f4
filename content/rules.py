"""The rules of a learner's quiz attempt, as pure functions over plain data."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from content.model import Quiz


def next_position(question_ids: Sequence[str], answered: Collection[str]) -> int | None:
    """0-based place of the first unanswered question of an attempt, None when all are done."""
    for position, question_id in enumerate(question_ids):
        if question_id not in answered:
            return position
    return None


def retired(question_ids: Sequence[str], quiz: Quiz) -> frozenset[str]:
    """Questions of an attempt that the quiz no longer has: skipped, never asked again."""
    return frozenset(q for q in question_ids if quiz.question(q) is None)


def attempt_order(quiz: Quiz) -> tuple[str, ...]:
    """The questions an attempt asks, in order."""
    return tuple(question.id for question in quiz.questions)


@dataclass(frozen=True)
class Summary:
    score: int
    total: int
    missed: tuple[str, ...]

    @property
    def percent(self) -> int:
        return round(100 * self.score / self.total) if self.total else 0


def summarize(question_ids: Sequence[str], correct_by_question: Mapping[str, bool]) -> Summary:
    """Score of an attempt and the questions to review (answered wrong), in quiz order."""
    missed = tuple(q for q in question_ids if not correct_by_question.get(q, False))
    return Summary(score=len(question_ids) - len(missed), total=len(question_ids), missed=missed)


def resolve_language(chosen: str | None, telegram_code: str | None, default: str) -> str:
    """The learner's language: their own choice, else Telegram's (base code), else default."""
    if chosen:
        return chosen
    if telegram_code:
        return telegram_code.split("-")[0].lower()
    return default
