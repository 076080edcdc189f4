"""The bank schema (pydantic) and its translation into the content model.

pydantic reports every error with its path at once, which is what authors need; the checks
that span fields (answer in range, unique ids) are validators on the models.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from content.model import Guide, Level, LocalizedText, Question, Quiz, utf16_length

MAX_QUIZ_ID_LENGTH = 40
MAX_QUESTION_ID_LENGTH = 40
MIN_OPTIONS, MAX_OPTIONS = 2, 10
MAX_QUESTIONS = 500
# Chosen so that a question with ten options, its reveal and explanation fit one message
# (Telegram: 4096 UTF-16 units of visible text); the renderer clips to the same budgets.
# Lengths are counted as Telegram counts them, in UTF-16 units (an emoji is often two), so
# that whatever a bank may hold is shown whole.
MAX_TITLE_LENGTH = 120
MAX_QUESTION_LENGTH = 800
MAX_OPTION_LENGTH = 180
MAX_EXPLANATION_LENGTH = 1000
MAX_DESCRIPTION_LENGTH = 1000
MAX_GUIDE_TITLE_LENGTH = 200

SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$")

QuizId = Annotated[str, StringConstraints(pattern=SLUG, max_length=MAX_QUIZ_ID_LENGTH)]
QuestionId = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]+$", max_length=MAX_QUESTION_ID_LENGTH)
]


def _localized_validator(max_length: int) -> Any:
    def check(value: Any) -> dict[str, str]:
        if isinstance(value, str):
            value = {"": value}
        if not isinstance(value, dict) or not value:
            raise ValueError("must be text or a map of language code to text")
        for code, text in value.items():
            if code != "" and (not isinstance(code, str) or not LANGUAGE_CODE.match(code)):
                shown = repr(code)[:20]
                raise ValueError(f"{shown} is not a language code such as 'en' or 'yo'")
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"the {code or 'default'} text must be non-empty text")
            if (length := utf16_length(text)) > max_length:
                counted = (
                    "" if length == len(text) else " (as Telegram counts them: an emoji is two)"
                )
                raise ValueError(
                    f"the {code or 'default'} text has {length} characters{counted}; at most {max_length}"
                )
        return {str(code): text.strip() for code, text in value.items()}

    return check


OptionText = Annotated[Any, AfterValidator(_localized_validator(MAX_OPTION_LENGTH))]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Text = Annotated[Any, Field()]


class GuideSchema(_Strict):
    title: Text
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$", max_length=500)]

    _title = field_validator("title")(_localized_validator(MAX_GUIDE_TITLE_LENGTH))


class QuestionSchema(_Strict):
    id: QuestionId
    text: Text
    options: list[OptionText] = Field(min_length=MIN_OPTIONS, max_length=MAX_OPTIONS)
    answer: int
    explanation: Text | None = None

    _text = field_validator("text")(_localized_validator(MAX_QUESTION_LENGTH))
    _explanation = field_validator("explanation")(_localized_validator(MAX_EXPLANATION_LENGTH))

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> Any:
        # YAML reads 007, 0x10 or 1_0 as numbers: only a plain number keeps its spelling
        if isinstance(value, int) and not isinstance(value, bool):
            raise ValueError(f'write the id as text in quotes, e.g. id: "q{value}"')
        return value

    @model_validator(mode="after")
    def _answer_in_range(self) -> QuestionSchema:
        if not 0 <= self.answer < len(self.options):
            raise ValueError(
                f"answer {self.answer} is not an option index (0 to {len(self.options) - 1})"
            )
        return self


class BankSchema(_Strict):
    id: QuizId
    title: Text
    description: Text | None = None
    level: Level = Field(strict=False)
    guide: GuideSchema | None = None
    shuffle_options: bool = True
    questions: list[QuestionSchema] = Field(min_length=1, max_length=MAX_QUESTIONS)

    _title = field_validator("title")(_localized_validator(MAX_TITLE_LENGTH))
    _description = field_validator("description")(_localized_validator(MAX_DESCRIPTION_LENGTH))

    @model_validator(mode="after")
    def _unique_question_ids(self) -> BankSchema:
        ids = [q.id for q in self.questions]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"duplicate question ids: {', '.join(duplicates)}")
        return self


def _localized(value: dict[str, str] | None, default_language: str) -> LocalizedText | None:
    if value is None:
        return None
    return LocalizedText({(code or default_language): text for code, text in value.items()})


def _required(value: dict[str, str], default_language: str) -> LocalizedText:
    text = _localized(value, default_language)
    assert text is not None
    return text


def to_quiz(bank: BankSchema, default_language: str) -> Quiz:
    return Quiz(
        id=bank.id,
        title=_required(bank.title, default_language),
        description=_localized(bank.description, default_language),
        level=bank.level,
        guide=(
            Guide(_required(bank.guide.title, default_language), bank.guide.url)
            if bank.guide
            else None
        ),
        shuffle_options=bank.shuffle_options,
        questions=tuple(
            Question(
                id=q.id,
                text=_required(q.text, default_language),
                options=tuple(_required(o, default_language) for o in q.options),
                answer=q.answer,
                explanation=_localized(q.explanation, default_language),
            )
            for q in bank.questions
        ),
    )


__all__ = ["BankSchema", "ValidationError", "to_quiz"]
