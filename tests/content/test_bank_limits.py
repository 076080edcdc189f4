"""The validator's limits: lengths counted as Telegram counts them, so that what a bank may
hold is what the bot can show whole; and bounds on the work one document may cause."""

from __future__ import annotations

import yaml

from content.loader import MAX_BANK_BYTES, parse_bank
from content.safe_yaml import MAX_DEPTH, MAX_NODES
from content.schema import MAX_GUIDE_TITLE_LENGTH, MAX_OPTIONS, MAX_QUESTION_LENGTH, MAX_QUESTIONS


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


def test_more_values_than_any_valid_bank_holds_are_refused_at_the_first_one_past() -> None:
    text = "questions: [" + ",".join(["1"] * (MAX_NODES + 10)) + "]\n"
    result = parse_bank(text, "many.yaml", "en")
    assert result.errors == (
        # the mapping, its key and the list are values too: the item past the bound is 3 sooner
        f"line 1, column {13 + 2 * (MAX_NODES - 3)}: more than {MAX_NODES} values; "
        "a bank has far fewer",
    )


def test_nesting_deeper_than_a_bank_is_refused() -> None:
    text = "id: " + "[" * (MAX_DEPTH) + "]" * MAX_DEPTH + "\n"
    result = parse_bank(text, "deep.yaml", "en")
    assert result.errors == (
        f"line 1, column {4 + MAX_DEPTH}: the document is nested too deeply "
        f"(more than {MAX_DEPTH} levels; a bank has 5)",
    )
    assert "nested too deeply" not in " ".join(
        parse_bank("id: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "ok.yaml", "en").errors
    )


def test_the_largest_valid_bank_is_well_inside_the_bounds() -> None:
    """500 questions, ten options, each field in six languages: accepted."""
    languages = ["en", "yo", "fr", "de", "ha", "ig"]

    def question(i: int) -> dict[str, object]:
        return {
            "id": f"q{i}",
            "text": dict.fromkeys(languages, "Q?"),
            "options": [dict.fromkeys(languages, "o") for _ in range(MAX_OPTIONS)],
            "answer": 0,
            "explanation": dict.fromkeys(languages, "E."),
        }

    questions = [question(i) for i in range(MAX_QUESTIONS)]
    data = {"id": "big", "title": "Big", "level": "easy", "questions": questions}
    text = yaml.safe_dump(data, default_flow_style=True)
    assert len(text.encode()) <= MAX_BANK_BYTES
    assert parse_bank(text, "big.yaml", "en").ok
