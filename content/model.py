"""The content model: quizzes, questions and localized text. Knows nothing of Telegram."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


def utf16_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units: an emoji often counts as two)."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, limit: int) -> str:
    """`text` cut so that its UTF-16 length is at most `limit`, marked with an ellipsis."""
    if utf16_length(text) <= limit:
        return text
    kept = []
    used = 1  # the ellipsis
    for char in text:
        used += utf16_length(char)
        if used > limit:
            break
        kept.append(char)
    return "".join(kept) + "…"


@dataclass(frozen=True)
class LocalizedText:
    """A text in several languages; a missing language falls back to the default one."""

    translations: Mapping[str, str]

    def get(self, language: str, default_language: str) -> str:
        for code in (language, default_language):
            if code in self.translations:
                return self.translations[code]
        return next(iter(self.translations.values()), "")

    def has(self, language: str) -> bool:
        return language in self.translations

    @property
    def languages(self) -> frozenset[str]:
        return frozenset(self.translations)


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class Guide:
    title: LocalizedText
    url: str


@dataclass(frozen=True)
class Question:
    id: str
    text: LocalizedText
    options: tuple[LocalizedText, ...]
    answer: int
    explanation: LocalizedText | None = None

    def is_correct(self, option: int) -> bool:
        return option == self.answer


@dataclass(frozen=True)
class Quiz:
    id: str
    title: LocalizedText
    level: Level
    questions: tuple[Question, ...]
    description: LocalizedText | None = None
    guide: Guide | None = None
    shuffle_options: bool = True
    _by_id: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {q.id: i for i, q in enumerate(self.questions)})

    def __len__(self) -> int:
        return len(self.questions)

    def question(self, question_id: str) -> Question | None:
        index = self._by_id.get(question_id)
        return None if index is None else self.questions[index]

    def position(self, question_id: str) -> int | None:
        """0-based place of a question in the quiz, or None if it is not (or no longer) there."""
        return self._by_id.get(question_id)

    @property
    def languages(self) -> frozenset[str]:
        found: set[str] = set(self.title.languages)
        for question in self.questions:
            found |= question.text.languages
        return frozenset(found)
