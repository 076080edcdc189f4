"""The bank schema (pydantic) and its translation into the content model.

pydantic reports every error with its path at once, which is what authors need; the checks
that span fields (answer in range, unique ids) are validators on the models. A question is a
union tagged by its `type` (single when absent): each type's model forbids the fields of the
others, so a field in the wrong type is reported at its place. Images are checked during
validation by the ImageChecker passed in the validation context (`{"images": checker}`);
without one, only https URLs are accepted.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from content import model
from content.answers import MAX_EXPONENT, normalize
from content.grading import share
from content.images import ImageChecker, ImageError, NoImages
from content.model import (
    AnswerKey,
    Guide,
    Image,
    Level,
    LocalizedText,
    Question,
    QuestionType,
    Quiz,
    utf16_length,
)

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
MAX_IMAGE_ALT_LENGTH = 300  # shown in the photo's caption (1,024 characters) with the question
MAX_UNIT_LENGTH = 30
MAX_ACCEPTED_LENGTH = MAX_OPTION_LENGTH
MAX_ACCEPTED_ANSWERS = 20
MAX_NUMBER_EXPONENT = MAX_EXPONENT  # a number's size in a bank, as in a reply
MAX_OTHER_NUMBERS = 20
MAX_FEEDBACK_LENGTH = MAX_EXPLANATION_LENGTH

SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$")
# Control characters but tab, line feed and carriage return: XML 1.0 and spreadsheets have
# no place for them (an export would fail, or be a file that no reader takes).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

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
            if (control := _CONTROL.search(text)) is not None:
                raise ValueError(
                    f"the {code or 'default'} text holds a control character "
                    f"(U+{ord(control.group()):04X}), which no file format can carry; remove it"
                )
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
UnitText = Annotated[Any, AfterValidator(_localized_validator(MAX_UNIT_LENGTH))]
AcceptedText = Annotated[Any, AfterValidator(_localized_validator(MAX_ACCEPTED_LENGTH))]


def _image(value: Any, info: ValidationInfo) -> Image:
    """A checked image: the context's ImageChecker reads and checks each file once."""
    if not isinstance(value, str):
        raise ValueError("must be a path relative to the bank file, or an https:// URL")
    checker = (info.context or {}).get("images")
    if not isinstance(checker, ImageChecker):
        checker = ImageChecker(NoImages())
    try:
        return checker.check(value)
    except ImageError as error:
        raise ValueError(str(error)) from None


ImageField = Annotated[Any, AfterValidator(_image)]


def _number(value: Any, what: str) -> Decimal:
    # YAML reads 1e3 as text (it wants 1.0e3), and yes/no as booleans
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = repr(value)[:30]
        raise ValueError(f"{what} must be a number, such as 14, 0.5 or 1.0e3 (not {shown})")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    number = Decimal(value) if isinstance(value, int) else Decimal(repr(value))
    if number and abs(number.adjusted()) > MAX_NUMBER_EXPONENT:
        raise ValueError(
            f"{what} must be between 1e-{MAX_NUMBER_EXPONENT} and 1e{MAX_NUMBER_EXPONENT}"
        )
    return number


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Text = Annotated[Any, Field()]


class GuideSchema(_Strict):
    title: Text
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$", max_length=500)]

    _title = field_validator("title")(_localized_validator(MAX_GUIDE_TITLE_LENGTH))


class _QuestionSchema(_Strict):
    """The fields every type has."""

    id: QuestionId
    text: Text
    explanation: Text | None = None
    image: ImageField | None = None
    image_alt: Text | None = None
    explanation_image: ImageField | None = None
    guide: GuideSchema | None = None  # where its topic is taught (the quiz's guide by default)

    _text = field_validator("text")(_localized_validator(MAX_QUESTION_LENGTH))
    _explanation = field_validator("explanation")(_localized_validator(MAX_EXPLANATION_LENGTH))
    _image_alt = field_validator("image_alt")(_localized_validator(MAX_IMAGE_ALT_LENGTH))

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> Any:
        # YAML reads 007, 0x10 or 1_0 as numbers: only a plain number keeps its spelling
        return _not_a_number(value, 'write the id as text in quotes, e.g. id: "q{value}"')

    @model_validator(mode="after")
    def _alt_with_image(self) -> Self:
        if self.image_alt is not None and self.image is None:
            raise ValueError("image_alt describes the question's image: add image, or remove it")
        return self


def _not_a_number(value: Any, problem: str) -> Any:
    """The value, unless YAML read it as a whole number (not a boolean) where a number is not
    wanted: then `problem`, with the number in its `{value}`."""
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(problem.format(value=value))
    return value


def _only(kind: type, value: Any, problem: str) -> Any:
    """The value, if YAML read it as a `kind`; else `problem` (before pydantic would coerce
    it, or answer in its own words)."""
    if not isinstance(value, kind):
        raise ValueError(problem)
    return value


Options = Annotated[list[OptionText], Field(min_length=MIN_OPTIONS, max_length=MAX_OPTIONS)]


def _weights(value: Any) -> list[Decimal]:
    """Moodle's fractions: a list of percentages, -100 to 100."""
    if not isinstance(value, list):
        raise ValueError("weights is a list of percentages, one per option, e.g. [50, 50, -100]")
    found = []
    for index, weight in enumerate(value):
        number = _number(weight, f"weight {index} (of option {index})")
        if not -100 <= number <= 100:
            raise ValueError(f"weight {index} is {weight}: a weight is -100 to 100 (percent)")
        found.append(number)
    return found


Weights = Annotated[Any, AfterValidator(_weights)]


def _weights_fit(weights: list[Decimal] | None, options: list[Any]) -> None:
    if weights is not None and len(weights) != len(options):
        raise ValueError(
            f"weights has {len(weights)} percentages for {len(options)} options: one per option"
        )


class SingleSchema(_QuestionSchema):
    type: Literal["single"] = "single"
    options: Options
    answer: int
    weights: Weights | None = None

    @field_validator("answer", mode="before")
    @classmethod
    def _one_answer(cls, value: Any) -> Any:
        if isinstance(value, list):
            raise ValueError(
                "a single question has one right option, e.g. answer: 0; "
                "for several right options write type: multiple"
            )
        if isinstance(value, bool):
            raise ValueError(
                "the answer is an option's index (0 is the first); "
                "for a true/false question write type: true_false"
            )
        return value

    @model_validator(mode="after")
    def _answer_in_range(self) -> SingleSchema:
        if not 0 <= self.answer < len(self.options):
            raise ValueError(
                f"answer {self.answer} is not an option index (0 to {len(self.options) - 1})"
            )
        _weights_fit(self.weights, self.options)
        if self.weights is not None:
            full = [index for index, weight in enumerate(self.weights) if weight == 100]
            if full != [self.answer]:
                named = ", ".join(str(index) for index in full) or "none"
                raise ValueError(
                    "with weights, a single question's answer is the one option at 100 "
                    f"(answer {self.answer}; options at 100: {named})"
                )
        return self


class MultipleSchema(_QuestionSchema):
    type: Literal["multiple"]
    options: Options
    answer: list[int] = Field(min_length=1)
    weights: Weights | None = None

    @field_validator("answer", mode="before")
    @classmethod
    def _a_list(cls, value: Any) -> Any:
        return _not_a_number(
            value, "a multiple question lists its right options, e.g. answer: [{value}]"
        )

    @model_validator(mode="after")
    def _answers_in_range(self) -> MultipleSchema:
        last = len(self.options) - 1
        outside = [a for a in self.answer if not 0 <= a <= last]
        if outside:
            shown = ", ".join(str(a) for a in outside)
            raise ValueError(f"answer {shown}: not an option index (0 to {last})")
        if len(set(self.answer)) != len(self.answer):
            raise ValueError("answer lists an option twice")
        _weights_fit(self.weights, self.options)
        if self.weights is not None:
            positive = [index for index, weight in enumerate(self.weights) if weight > 0]
            if sorted(self.answer) != positive:
                raise ValueError(
                    "with weights, answer lists exactly the options with a positive weight "
                    f"({positive})"
                )
            if sum(share(self.weights[index]) for index in positive) < 1:
                raise ValueError(
                    "the positive weights add up to less than 100: no selection is fully right"
                )
        return self


class TrueFalseSchema(_QuestionSchema):
    type: Literal["true_false"]
    answer: bool

    @field_validator("answer", mode="before")
    @classmethod
    def _a_truth(cls, value: Any) -> Any:
        return _only(bool, value, "a true_false question's answer is true or false")


def _tolerance(value: Any) -> Decimal:
    number = _number(value, "the tolerance")
    if number < 0:
        raise ValueError("the tolerance is how far a reply may be from the answer: 0 or more")
    return number


Tolerance = Annotated[Any, AfterValidator(_tolerance)]


class OtherNumberSchema(_Strict):
    """One of Moodle's further answers to a numeric question: a number worth `weight` percent
    (0 up to below 100) and what to tell a learner who gives it."""

    value: Any
    tolerance: Tolerance = Decimal(0)
    weight: Any = Decimal(0)
    feedback: Text | None = None

    _feedback = field_validator("feedback")(_localized_validator(MAX_FEEDBACK_LENGTH))

    @field_validator("value")
    @classmethod
    def _value_number(cls, value: Any) -> Decimal:
        return _number(value, "the number")

    @field_validator("weight")
    @classmethod
    def _weight_percent(cls, value: Any) -> Decimal:
        number = _number(value, "the weight")
        if not 0 <= number < 100:
            raise ValueError(
                f"the weight of another number is 0 up to below 100 (percent), not {value}; "
                "the right number is the answer"
            )
        return number


class NumericSchema(_QuestionSchema):
    type: Literal["numeric"]
    answer: Any
    tolerance: Tolerance = Decimal(0)
    unit: UnitText | None = None
    numbers: list[OtherNumberSchema] | None = Field(default=None, max_length=MAX_OTHER_NUMBERS)

    @field_validator("answer")
    @classmethod
    def _answer_number(cls, value: Any) -> Decimal:
        return _number(value, "the answer")


class TypedSchema(_QuestionSchema):
    type: Literal["typed"]
    answer: list[AcceptedText] = Field(min_length=1, max_length=MAX_ACCEPTED_ANSWERS)
    strict_diacritics: bool = False

    @field_validator("answer", mode="before")
    @classmethod
    def _a_list(cls, value: Any) -> Any:
        return _only(
            list, value, 'a typed question lists the accepted answers, e.g. answer: ["bubble"]'
        )

    @model_validator(mode="after")
    def _answers_comparable(self) -> TypedSchema:
        for accepted in self.answer:
            for text in accepted.values():
                if not normalize(text, self.strict_diacritics):
                    raise ValueError(
                        f"accepted answer {text!r} is only punctuation and spaces, which a reply "
                        "never matches (they are dropped before comparing)"
                    )
        return self


QUESTION_SCHEMAS: dict[QuestionType, type[_QuestionSchema]] = {
    QuestionType.SINGLE: SingleSchema,
    QuestionType.MULTIPLE: MultipleSchema,
    QuestionType.TRUE_FALSE: TrueFalseSchema,
    QuestionType.NUMERIC: NumericSchema,
    QuestionType.TYPED: TypedSchema,
}
TYPE_NAMES = ", ".join(QUESTION_SCHEMAS)


def _question_type(value: Any) -> str | None:
    if not isinstance(value, dict):
        return QuestionType.SINGLE.value  # reported by the single schema: not a mapping
    kind = value.get("type", QuestionType.SINGLE.value)
    return kind if isinstance(kind, str) and kind in QUESTION_SCHEMAS else UNKNOWN_TYPE


UNKNOWN_TYPE = "unknown"  # no schema has this tag, so pydantic reports the union's error
QuestionSchema = Annotated[
    Annotated[SingleSchema, Tag(QuestionType.SINGLE.value)]
    | Annotated[MultipleSchema, Tag(QuestionType.MULTIPLE.value)]
    | Annotated[TrueFalseSchema, Tag(QuestionType.TRUE_FALSE.value)]
    | Annotated[NumericSchema, Tag(QuestionType.NUMERIC.value)]
    | Annotated[TypedSchema, Tag(QuestionType.TYPED.value)],
    Discriminator(
        _question_type,
        custom_error_type="unknown_question_type",
        custom_error_message=f"unknown question type; the types are {TYPE_NAMES}",
    ),
]


def fields_of(kind: QuestionType) -> frozenset[str]:
    return frozenset(QUESTION_SCHEMAS[kind].model_fields)


MAX_EXAM_MINUTES = 24 * 60
MAX_EXAM_ATTEMPTS = 1000
MAX_SECTIONS = 50
FLOOR_NONE = "none"


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """A whole number from `low` to `high` (YAML's booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is a whole number, such as {max(low, 1)}")
    if not low <= value <= high:
        raise ValueError(f"{what} is {value}: it must be {low} to {high}")
    return value


def _bounded(value: Any, what: str, low: Decimal, high: Decimal, above: bool = False) -> Decimal:
    """A number from `low` (or above it, if `above`) to `high`."""
    number = _number(value, what)
    if number < low or number > high or (above and number == low):
        bounds = f"more than {low} and at most {high}" if above else f"{low} to {high}"
        raise ValueError(f"{what} is {value}: it must be {bounds}")
    return number


class ExamSectionSchema(_Strict):
    title: Text
    questions: list[QuestionId] = Field(min_length=1, max_length=MAX_QUESTIONS)
    draw: Any = None

    _title = field_validator("title")(_localized_validator(MAX_TITLE_LENGTH))

    @field_validator("questions", mode="before")
    @classmethod
    def _ids_as_text(cls, value: Any) -> Any:
        if isinstance(value, list):
            for item in value:
                _not_a_number(item, 'write the id as text in quotes, e.g. "q{value}"')
        return value

    @field_validator("draw")
    @classmethod
    def _draw_count(cls, value: Any) -> int | None:
        return None if value is None else _whole(value, "draw", 1, MAX_QUESTIONS)

    @model_validator(mode="after")
    def _enough_to_draw(self) -> Self:
        if len(set(self.questions)) != len(self.questions):
            raise ValueError("a section lists a question twice")
        if self.draw is not None and self.draw > len(self.questions):
            raise ValueError(
                f"the section draws {self.draw} questions but has {len(self.questions)}"
            )
        return self


class ExamSchema(_Strict):
    """The `exam:` block: how the quiz is taken as an exam (content/exams.py)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=False)

    minutes: Any = None
    draw: Any = None
    penalty: Any = Decimal(0)
    attempts: Any = 1
    pass_mark: Any = Field(default=None, alias="pass")
    floor: Any = None
    sections: list[ExamSectionSchema] | None = Field(
        default=None, min_length=1, max_length=MAX_SECTIONS
    )

    @field_validator("minutes")
    @classmethod
    def _minutes(cls, value: Any) -> Decimal | None:
        if value is None:
            return None
        return _bounded(value, "minutes", Decimal(0), Decimal(MAX_EXAM_MINUTES), above=True)

    @field_validator("draw")
    @classmethod
    def _draw(cls, value: Any) -> int | None:
        return None if value is None else _whole(value, "draw", 1, MAX_QUESTIONS)

    @field_validator("penalty")
    @classmethod
    def _penalty(cls, value: Any) -> Decimal:
        return _bounded(value, "the penalty (points per wrong answer)", Decimal(0), Decimal(1))

    @field_validator("attempts")
    @classmethod
    def _attempts(cls, value: Any) -> int:
        return _whole(value, "attempts (0: any number)", 0, MAX_EXAM_ATTEMPTS)

    @field_validator("pass_mark")
    @classmethod
    def _pass_mark(cls, value: Any) -> Decimal | None:
        if value is None:
            return None
        return _bounded(value, "the pass mark (percent)", Decimal(0), Decimal(100))

    @field_validator("floor")
    @classmethod
    def _floor(cls, value: Any) -> str | None:
        if value is not None and value != FLOOR_NONE:
            raise ValueError(
                "floor takes one value, none, which lets the total go below 0 "
                "(leave it out to keep the total at 0 or more)"
            )
        return value

    @model_validator(mode="after")
    def _sections_add_up(self) -> Self:
        if self.sections is None:
            return self
        seen: set[str] = set()
        for section in self.sections:
            twice = sorted(seen & set(section.questions))
            if twice:
                raise ValueError(f"a question is in one section at most: {', '.join(twice)}")
            seen |= set(section.questions)
        drawn = sum(s.draw or len(s.questions) for s in self.sections)
        if self.draw is not None and self.draw != drawn:
            raise ValueError(
                f"draw is {self.draw}, but the sections draw {drawn} in all: with sections, "
                "the paper is the sum of their draws (leave draw out, or make it agree)"
            )
        return self


class BankSchema(_Strict):
    id: QuizId
    title: Text
    description: Text | None = None
    level: Level = Field(strict=False)
    guide: GuideSchema | None = None
    shuffle_options: bool = True
    exam: ExamSchema | None = None
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

    @model_validator(mode="after")
    def _exam_fits_the_questions(self) -> BankSchema:
        if self.exam is None:
            return self
        ids = {q.id for q in self.questions}
        for number, section in enumerate(self.exam.sections or (), start=1):
            unknown = [i for i in section.questions if i not in ids]
            if unknown:
                raise ValueError(
                    f"exam section {number} names questions the bank does not have: "
                    f"{', '.join(unknown[:10])}"
                )
        draw = self.exam.draw
        if self.exam.sections is None and draw is not None and draw > len(self.questions):
            raise ValueError(
                f"the exam draws {self.exam.draw} questions but the bank has {len(self.questions)}"
            )
        return self


def _localized(value: dict[str, str] | None, default_language: str) -> LocalizedText | None:
    if value is None:
        return None
    return LocalizedText({(code or default_language): text for code, text in value.items()})


def _required(value: dict[str, str], default_language: str) -> LocalizedText:
    text = _localized(value, default_language)
    assert text is not None
    return text


def _tuple(weights: list[Decimal] | None) -> tuple[Decimal, ...] | None:
    return None if weights is None else tuple(weights)


def _key(question: _QuestionSchema, default_language: str) -> AnswerKey:
    match question:
        case SingleSchema():
            return model.SingleAnswer(question.answer, _tuple(question.weights))
        case MultipleSchema():
            return model.MultipleAnswer(frozenset(question.answer), _tuple(question.weights))
        case TrueFalseSchema():
            return model.TrueFalseAnswer(question.answer)
        case NumericSchema():
            others = tuple(
                model.OtherNumber(
                    other.value,
                    other.tolerance,
                    other.weight,
                    _localized(other.feedback, default_language),
                )
                for other in question.numbers or ()
            )
            return model.NumericAnswer(
                question.answer,
                question.tolerance,
                _localized(question.unit, default_language),
                others,
            )
        case TypedSchema():
            return model.TypedAnswer(
                tuple(_required(accepted, default_language) for accepted in question.answer),
                question.strict_diacritics,
            )
    raise TypeError(f"no answer key for {type(question).__name__}")


def to_question(question: _QuestionSchema, default_language: str) -> Question:
    options = getattr(question, "options", ())
    return Question(
        id=question.id,
        text=_required(question.text, default_language),
        options=tuple(_required(option, default_language) for option in options),
        key=_key(question, default_language),
        explanation=_localized(question.explanation, default_language),
        image=question.image,
        image_alt=_localized(question.image_alt, default_language),
        explanation_image=question.explanation_image,
        guide=_guide(question.guide, default_language),
    )


def to_exam(exam: ExamSchema, default_language: str) -> model.Exam:
    return model.Exam(
        minutes=exam.minutes,
        draw=exam.draw,
        penalty=exam.penalty,
        attempts=exam.attempts,
        pass_mark=exam.pass_mark,
        floor=exam.floor != FLOOR_NONE,
        sections=tuple(
            model.ExamSection(
                _required(section.title, default_language), tuple(section.questions), section.draw
            )
            for section in exam.sections or ()
        ),
    )


def _guide(guide: GuideSchema | None, default_language: str) -> Guide | None:
    return Guide(_required(guide.title, default_language), guide.url) if guide else None


def to_quiz(bank: BankSchema, default_language: str) -> Quiz:
    return Quiz(
        id=bank.id,
        title=_required(bank.title, default_language),
        description=_localized(bank.description, default_language),
        level=bank.level,
        guide=_guide(bank.guide, default_language),
        shuffle_options=bank.shuffle_options,
        questions=tuple(to_question(q, default_language) for q in bank.questions),
        exam=None if bank.exam is None else to_exam(bank.exam, default_language),
    )


__all__ = ["BankSchema", "ValidationError", "to_quiz"]
