"""Our own format: bank YAML (content/export.py writes it; content/schema.py validates it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from content.export import dump_bank
from content.formats.base import ConversionError, Draft, ReadOptions, WriteOptions, Written
from content.model import Quiz
from content.safe_yaml import BankYamlError, load_bank_yaml


def read_yaml(data: bytes, options: ReadOptions) -> Draft:
    try:
        raw: Any = load_bank_yaml(data)
    except BankYamlError as error:
        raise ConversionError([str(error)]) from None
    if not isinstance(raw, dict):
        raise ConversionError(["a bank must be a mapping with id, title and questions"])
    bank = {key: value for key, value in raw.items() if key != "questions"}
    draft = Draft(bank=bank)
    questions = raw.get("questions")
    if not isinstance(questions, list):
        # the schema says what is wrong with it, at its place
        draft.bank["questions"] = questions
        return draft
    for question in questions:
        draft.add(question, "")
    return draft


def write_yaml(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    named = {image.location for q in quiz.questions for image in q.images if not image.is_url}
    return Written(dump_bank(quiz).encode(), {name: images[name] for name in sorted(named)})
