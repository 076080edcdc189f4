"""A quiz back into bank YAML that `parse_bank` accepts and that gives the same quiz (round trip).

The document is canonical: keys in the order of the bank format, every localized field as a
map of language code to text (typed answers too), `type` only when not single, numbers as
YAML ints or floats, image paths as canonical relative paths (or the https URL), no anchors
or aliases, no tags, so exporting what an import of an export gives is byte-identical.
A bank with image files exports as a bundle (`export_bundle`): the YAML and the images.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import yaml

from content import model
from content.bundle import write_bundle
from content.model import Guide, LocalizedText, Question, QuestionType, Quiz

HEADER = "# Quiz Tutor bank, exported; /import accepts this document back unchanged.\n"


class _PlainDumper(yaml.SafeDumper):
    """Plain data only; never writes an anchor (the strict loader refuses aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(value: LocalizedText) -> dict[str, str]:
    return dict(value.translations)


def _number(value: Decimal) -> int | float:
    """A number as YAML writes it back to the same value: an integer when it is one (and not
    huge), else the float whose shortest spelling is this decimal (numbers in banks come
    from YAML's ints and floats, so one of the two always is)."""
    integral = value == value.to_integral_value()
    if integral and abs(value) < 10**15:
        return int(value)
    as_float = float(value)
    if Decimal(repr(as_float)) == value:
        return as_float
    return int(value)


def question_data(question: Question) -> dict[str, Any]:
    data: dict[str, Any] = {"id": question.id}
    if question.type is not QuestionType.SINGLE:
        data["type"] = question.type.value
    data["text"] = _text(question.text)
    if question.image is not None:
        data["image"] = question.image.location
    if question.image_alt is not None:
        data["image_alt"] = _text(question.image_alt)
    if question.options:
        data["options"] = [_text(option) for option in question.options]
    match question.key:
        case model.SingleAnswer(option):
            data["answer"] = option
        case model.MultipleAnswer(options):
            data["answer"] = sorted(options)
        case model.TrueFalseAnswer(value):
            data["answer"] = value
        case model.NumericAnswer(value, tolerance, unit, others):
            data["answer"] = _number(value)
            if tolerance:
                data["tolerance"] = _number(tolerance)
            if unit is not None:
                data["unit"] = _text(unit)
            if others:
                data["numbers"] = [_other_number(other) for other in others]
        case model.TypedAnswer(accepted, strict_diacritics):
            data["answer"] = [_text(text) for text in accepted]
            if strict_diacritics:
                data["strict_diacritics"] = True
    if question.weights is not None:
        data["weights"] = [_number(weight) for weight in question.weights]
    if question.explanation is not None:
        data["explanation"] = _text(question.explanation)
    if question.explanation_image is not None:
        data["explanation_image"] = question.explanation_image.location
    if question.guide is not None:
        data["guide"] = _guide(question.guide)
    return data


def _other_number(other: model.OtherNumber) -> dict[str, Any]:
    data: dict[str, Any] = {"value": _number(other.value)}
    if other.tolerance:
        data["tolerance"] = _number(other.tolerance)
    data["weight"] = _number(other.weight)
    if other.feedback is not None:
        data["feedback"] = _text(other.feedback)
    return data


def exam_data(exam: model.Exam) -> dict[str, Any]:
    """The `exam:` block, with only what differs from the defaults."""
    data: dict[str, Any] = {}
    if exam.minutes is not None:
        data["minutes"] = _number(exam.minutes)
    if exam.draw is not None:
        data["draw"] = exam.draw
    if exam.penalty:
        data["penalty"] = _number(exam.penalty)
    if exam.attempts != 1:
        data["attempts"] = exam.attempts
    if exam.pass_mark is not None:
        data["pass"] = _number(exam.pass_mark)
    if not exam.floor:
        data["floor"] = "none"
    if exam.sections:
        data["sections"] = [
            {
                "title": _text(section.title),
                "questions": list(section.questions),
                **({} if section.draw is None else {"draw": section.draw}),
            }
            for section in exam.sections
        ]
    return data


def _guide(guide: Guide) -> dict[str, Any]:
    return {"title": _text(guide.title), "url": guide.url}


def bank_data(quiz: Quiz) -> dict[str, Any]:
    """The quiz as the plain data a bank's YAML holds (what the schema validates)."""
    data: dict[str, Any] = {"id": quiz.id, "title": _text(quiz.title)}
    if quiz.description is not None:
        data["description"] = _text(quiz.description)
    data["level"] = quiz.level.value
    if quiz.guide is not None:
        data["guide"] = _guide(quiz.guide)
    if not quiz.shuffle_options:
        data["shuffle_options"] = False
    if quiz.exam is not None:
        data["exam"] = exam_data(quiz.exam)
    data["questions"] = [question_data(question) for question in quiz.questions]
    return data


def dump_bank(quiz: Quiz) -> str:
    """The quiz as bank YAML text (UTF-8 safe, block style, one canonical form)."""
    body = yaml.dump(
        bank_data(quiz),
        Dumper=_PlainDumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=1_000_000,
    )
    return HEADER + body


def export_bundle(quiz: Quiz, images: Mapping[str, bytes]) -> bytes:
    """The quiz as a `.zip` bundle: `<quiz id>.yaml` and the image files it names (`images`
    holds them by path, as `BankResult.images` does); content.bundle reads it back."""
    named = {image.location for q in quiz.questions for image in q.images if not image.is_url}
    missing = sorted(named - set(images))
    if missing:
        raise ValueError(f"no bytes for the images {', '.join(missing)}")
    files = {location: images[location] for location in sorted(named)}
    return write_bundle(f"{quiz.id}.yaml", dump_bank(quiz).encode(), files)
