"""The content model: quizzes, questions of five types and localized text. Knows nothing of
Telegram."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import ClassVar


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
    """Where a topic is taught: a quiz's guide, or the section of it a question names."""

    title: LocalizedText
    url: str


class QuestionType(StrEnum):
    SINGLE = "single"  # one right option (the default)
    MULTIPLE = "multiple"  # several right options, partial credit
    TRUE_FALSE = "true_false"  # no options: the bot shows True / False
    NUMERIC = "numeric"  # the learner replies with a number
    TYPED = "typed"  # the learner replies with text


# Moodle's fractions: one percentage per option, -100 to 100, in the options' order. Without
# them a question scores by its type's plain rule (content/grading.py).
Weights = tuple[Decimal, ...]


@dataclass(frozen=True)
class SingleAnswer:
    option: int  # 0-based index of the right option (with weights: the one at 100)
    weights: Weights | None = None

    type: ClassVar[QuestionType] = QuestionType.SINGLE


@dataclass(frozen=True)
class MultipleAnswer:
    options: frozenset[int]  # 0-based indexes of the right options (with weights: the positive)
    weights: Weights | None = None

    type: ClassVar[QuestionType] = QuestionType.MULTIPLE


@dataclass(frozen=True)
class TrueFalseAnswer:
    value: bool

    type: ClassVar[QuestionType] = QuestionType.TRUE_FALSE


@dataclass(frozen=True)
class OtherNumber:
    """One of Moodle's further answers to a numeric question: a number worth `weight` percent
    (0 to below 100), with what to tell a learner who gives it."""

    value: Decimal
    tolerance: Decimal = Decimal(0)
    weight: Decimal = Decimal(0)
    feedback: LocalizedText | None = None


@dataclass(frozen=True)
class NumericAnswer:
    value: Decimal  # exact: 1.1 is 1.1, so a tolerance of 0.1 takes 1.0 and 1.2
    tolerance: Decimal = Decimal(0)  # absolute
    unit: LocalizedText | None = None
    # tried after the right number, in this order: the first that takes a reply grades it
    others: tuple[OtherNumber, ...] = ()

    type: ClassVar[QuestionType] = QuestionType.NUMERIC


@dataclass(frozen=True)
class TypedAnswer:
    accepted: tuple[LocalizedText, ...]  # any translation of any of them is accepted
    strict_diacritics: bool = False  # True: tone marks and underdots must match (ọkọ ≠ oko)

    type: ClassVar[QuestionType] = QuestionType.TYPED


# What a question accepts, one kind per type: `match question.key: case MultipleAnswer(...)`.
AnswerKey = SingleAnswer | MultipleAnswer | TrueFalseAnswer | NumericAnswer | TypedAnswer


@dataclass(frozen=True)
class Image:
    """A picture of a question or an explanation."""

    location: str  # as the bank writes it: a path relative to the bank file, or an https URL
    sha256: str | None = None  # of the checked file's bytes; None for a URL (never fetched)

    @property
    def is_url(self) -> bool:
        return self.location.startswith("https://")


@dataclass(frozen=True, init=False)
class Question:
    """One question of any type. `key` says what it accepts; `options` is empty for the types
    without options (true_false, numeric, typed)."""

    id: str
    text: LocalizedText
    options: tuple[LocalizedText, ...]
    key: AnswerKey
    explanation: LocalizedText | None
    image: Image | None
    image_alt: LocalizedText | None
    explanation_image: Image | None
    guide: Guide | None  # where its topic is taught; the quiz's guide when None

    def __init__(
        self,
        id: str,
        text: LocalizedText,
        options: tuple[LocalizedText, ...] = (),
        answer: int | AnswerKey | None = None,
        explanation: LocalizedText | None = None,
        *,
        key: AnswerKey | None = None,
        image: Image | None = None,
        image_alt: LocalizedText | None = None,
        explanation_image: Image | None = None,
        guide: Guide | None = None,
    ) -> None:
        # `answer=2` makes a single question (as before the other types); `key` is the field's
        # own name, which dataclasses.replace passes.
        if (answer is None) == (key is None):
            raise TypeError("give the answer (an option index or an AnswerKey) exactly once")
        given = key if key is not None else answer
        assert given is not None
        if isinstance(given, bool):
            raise TypeError("a true/false answer is TrueFalseAnswer(value), not a bool")
        resolved = SingleAnswer(given) if isinstance(given, int) else given
        for name, value in (
            ("id", id),
            ("text", text),
            ("options", tuple(options)),
            ("key", resolved),
            ("explanation", explanation),
            ("image", image),
            ("image_alt", image_alt),
            ("explanation_image", explanation_image),
            ("guide", guide),
        ):
            object.__setattr__(self, name, value)

    @property
    def type(self) -> QuestionType:
        return self.key.type

    @property
    def answer(self) -> int:
        """The right option of a single question (the form the bot has always played)."""
        if not isinstance(self.key, SingleAnswer):
            raise TypeError(f"question {self.id} is {self.type}: it has no single right option")
        return self.key.option

    @property
    def weights(self) -> Weights | None:
        """Moodle's fractions of a single or multiple question that has them."""
        return self.key.weights if isinstance(self.key, SingleAnswer | MultipleAnswer) else None

    @property
    def images(self) -> tuple[Image, ...]:
        return tuple(image for image in (self.image, self.explanation_image) if image)


@dataclass(frozen=True)
class ExamSection:
    """Part of an exam: its title, the questions it draws from, and how many it draws (None:
    all of them)."""

    title: LocalizedText
    questions: tuple[str, ...]
    draw: int | None = None


@dataclass(frozen=True)
class Exam:
    """How a quiz is taken as an exam (`/exam`; the rules are content/exams.py's). `minutes`
    None: one minute per question drawn; `draw` None: every question (or, with sections, the
    sum of their draws); `penalty` the points a wrong answer costs; `attempts` 0: any number;
    `pass_mark` in percent; `floor` False: the total may go below 0."""

    minutes: Decimal | None = None
    draw: int | None = None
    penalty: Decimal = Decimal(0)
    attempts: int = 1
    pass_mark: Decimal | None = None
    floor: bool = True
    sections: tuple[ExamSection, ...] = ()


@dataclass(frozen=True)
class Quiz:
    id: str
    title: LocalizedText
    level: Level
    questions: tuple[Question, ...]
    description: LocalizedText | None = None
    guide: Guide | None = None
    shuffle_options: bool = True
    exam: Exam | None = None  # the bank's own exam settings; any quiz is an exam with defaults
    _by_id: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {q.id: i for i, q in enumerate(self.questions)})

    def __len__(self) -> int:
        return len(self.questions)

    def question(self, question_id: str) -> Question | None:
        index = self._by_id.get(question_id)
        return None if index is None else self.questions[index]

    def guide_of(self, question: Question) -> Guide | None:
        """Where a question's topic is taught: its own guide, else the quiz's."""
        return question.guide or self.guide

    def position(self, question_id: str) -> int | None:
        """0-based place of a question in the quiz, or None if it is not (or no longer) there."""
        return self._by_id.get(question_id)

    @property
    def languages(self) -> frozenset[str]:
        found: set[str] = set(self.title.languages)
        for question in self.questions:
            found |= question.text.languages
        return frozenset(found)
