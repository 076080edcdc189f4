"""A quiz back into bank YAML that `parse_bank` accepts and that gives the same quiz (round trip).

The document is canonical: keys in the order of the bank format, every localized field as a
map of language code to text, no anchors or aliases, no tags, so exporting what an import of
an export gives is byte-identical.
"""

from __future__ import annotations

from typing import Any

import yaml

from content.model import LocalizedText, Question, Quiz

HEADER = "# Quiz Tutor bank, exported; /import accepts this document back unchanged.\n"


class _PlainDumper(yaml.SafeDumper):
    """Plain data only; never writes an anchor (the strict loader refuses aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(value: LocalizedText) -> dict[str, str]:
    return dict(value.translations)


def question_data(question: Question) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": question.id,
        "text": _text(question.text),
        "options": [_text(option) for option in question.options],
        "answer": question.answer,
    }
    if question.explanation is not None:
        data["explanation"] = _text(question.explanation)
    return data


def bank_data(quiz: Quiz) -> dict[str, Any]:
    """The quiz as the plain data a bank's YAML holds (what the schema validates)."""
    data: dict[str, Any] = {"id": quiz.id, "title": _text(quiz.title)}
    if quiz.description is not None:
        data["description"] = _text(quiz.description)
    data["level"] = quiz.level.value
    if quiz.guide is not None:
        data["guide"] = {"title": _text(quiz.guide.title), "url": quiz.guide.url}
    if not quiz.shuffle_options:
        data["shuffle_options"] = False
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
