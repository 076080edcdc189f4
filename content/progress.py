"""A learner's standing on a quiz: mastery, weak spots, a text bar. Pure, no storage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from content import spacing
from content.model import Quiz

BAR_WIDTH = 10


@dataclass(frozen=True)
class Mastery:
    mastered: int
    seen: int
    total: int
    weak_positions: tuple[int, ...]  # 1-based places of questions whose latest answer was wrong

    @property
    def percent(self) -> int:
        return round(100 * self.mastered / self.total) if self.total else 0


def mastery(
    quiz: Quiz, cards: Mapping[str, str], latest_correct: Mapping[str, bool], now: float
) -> Mastery:
    """Mastered = retrievability above 90% now (FSRS); `cards` maps question id to card JSON."""
    ids = [question.id for question in quiz.questions]
    mastered = sum(1 for q in ids if q in cards and spacing.is_mastered(cards[q], now))
    weak = tuple(position + 1 for position, q in enumerate(ids) if latest_correct.get(q) is False)
    return Mastery(mastered, sum(1 for q in ids if q in cards), len(ids), weak)


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    filled = max(0, min(width, round(fraction * width)))
    return "▰" * filled + "▱" * (width - filled)
