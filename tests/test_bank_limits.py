"""The validator's limits: lengths counted as Telegram counts them, so that what a bank may
hold is what the bot can show whole."""

from __future__ import annotations

import yaml

from content.loader import parse_bank
from content.schema import MAX_GUIDE_TITLE_LENGTH, MAX_QUESTION_LENGTH


def bank(text: str, guide_title: str = "Guide") -> str:
    return yaml.safe_dump(
        {
            "id": "limits",
            "title": "Limits",
            "level": "easy",
            "guide": {"title": guide_title, "url": "https://example.com/guide"},
            "questions": [{"id": "q1", "text": text, "options": ["a", "b"], "answer": 0}],
        },
        allow_unicode=True,
    )


def test_text_length_counts_utf16_units_as_telegram_does() -> None:
    half = MAX_QUESTION_LENGTH // 2
    assert parse_bank(bank("😀" * half), "ok.yaml", "en").ok
    refused = parse_bank(bank("😀" * (half + 1)), "long.yaml", "en")
    assert refused.quiz is None
    assert refused.errors == (
        f"question q1 (#1), field text: the default text has {MAX_QUESTION_LENGTH + 2} "
        f"characters (as Telegram counts them: an emoji is two); at most {MAX_QUESTION_LENGTH}",
    )


def test_combining_marks_count_once_each_and_plain_text_says_nothing_of_emoji() -> None:
    assert parse_bank(bank("ẹ̀" * (MAX_QUESTION_LENGTH // 2)), "yo.yaml", "en").ok
    refused = parse_bank(bank("x" * (MAX_QUESTION_LENGTH + 1)), "long.yaml", "en")
    assert refused.errors == (
        f"question q1 (#1), field text: the default text has {MAX_QUESTION_LENGTH + 1} "
        f"characters; at most {MAX_QUESTION_LENGTH}",
    )


def test_a_guide_title_may_be_as_long_as_the_renderer_shows() -> None:
    assert parse_bank(bank("Q?", "g" * MAX_GUIDE_TITLE_LENGTH), "g.yaml", "en").ok
    assert not parse_bank(bank("Q?", "g" * (MAX_GUIDE_TITLE_LENGTH + 1)), "g.yaml", "en").ok
