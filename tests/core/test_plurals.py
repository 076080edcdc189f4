"""Plurals: a string with a count is a plural, one template per CLDR plural category of its
language (Babel's rules: English one/other, Yoruba other only), chosen by the count `n`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core import i18n
from bot.core.i18n import STRINGS, plural_categories, translate

# a number followed by a noun in the plural: `{n} questions`, `<b>{points}</b> points`, taken
# as any word ending in s after a placeholder but these (verbs, a preposition, seconds' unit)
NOT_NOUNS = frozenset({"is", "was", "has", "does", "goes", "stands", "as", "s"})
COUNTED = re.compile(r"\{(\w+)(?::[^}]*)?\}(?:</\w+>)?\s+([A-Za-z]+)")


def _templates(entry: i18n.Entry) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


@pytest.mark.parametrize("language", sorted(STRINGS))
def test_no_string_says_s_in_brackets(language: str) -> None:
    found = [
        key
        for key, entry in STRINGS[language].items()
        if any("(s)" in template for template in _templates(entry))
    ]
    assert found == []


def test_every_count_before_a_noun_goes_through_a_plural() -> None:
    plain = {key: entry for key, entry in STRINGS["en"].items() if isinstance(entry, str)}
    counted = {
        key: f"{{{name}}} {word}"
        for key, text in plain.items()
        for name, word in COUNTED.findall(text)
        if word.endswith("s") and word.lower() not in NOT_NOUNS
    }
    assert counted == {}


def test_a_plural_in_english_is_a_plural_in_every_language_with_its_own_forms() -> None:
    plurals = {key for key, entry in STRINGS["en"].items() if isinstance(entry, dict)}
    assert {"n_questions", "reminder", "report_participants", "chart_progress_alt"} <= plurals
    for language, strings in STRINGS.items():
        for key in plurals:
            entry = strings[key]
            assert isinstance(entry, dict), (language, key)
            assert set(entry) == plural_categories(language), (language, key)
            assert all("{n" in template for template in entry.values()), (language, key)
    assert plural_categories("en") == {"one", "other"}
    assert plural_categories("yo") == {"other"}


@pytest.mark.parametrize(
    ("language", "n", "shown"),
    [
        ("en", 1, "1 question"),
        ("en", 0, "0 questions"),
        ("en", 2, "2 questions"),
        ("en", 21, "21 questions"),
        ("en", 1.5, "1.5 questions"),
        ("yo", 1, "ìbéèrè 1"),
        ("yo", 7, "ìbéèrè 7"),
    ],
)
def test_the_count_chooses_the_form_by_the_languages_rule(
    language: str, n: float, shown: str
) -> None:
    assert translate(language, "n_questions", n=n) == shown


def test_english_says_one_question_is_due_and_one_participant() -> None:
    assert translate("en", "reminder", n=1).startswith("⏰ 1 question is due")
    assert translate("en", "reminder", n=3).startswith("⏰ 3 questions are due")
    assert translate("en", "report_participants", n=1) == "👥 1 participant"
    assert translate("en", "stats_quiz", title="T", quiz_id="t", learners=translate(
        "en", "n_learners", n=1), answers=translate("en", "n_answers", n=1), percent=0
    ) == "<b>T</b> (<code>t</code>): 1 learner, 1 answer, 0% right"  # fmt: skip


def test_a_plural_without_its_count_is_a_bug_said_plainly() -> None:
    with pytest.raises(TypeError, match="needs its count"):
        translate("en", "n_questions")
    with pytest.raises(TypeError, match="needs its count"):
        translate("en", "n_questions", n="3")


@pytest.mark.parametrize(
    ("language", "text", "refusal"),
    [
        ("en", 'k: {one: "{n} thing"}\n', r"has the plural forms \['one'\]"),
        ("en", 'k: {one: "a", other: "b", few: "c"}\n', "English has"),
        ("yo", 'k: {one: "a", other: "b"}\n', r"Yorùbá has \['other'\]"),
        ("en", "k: {one: [a], other: b}\n", "or a plural"),
    ],
)
def test_a_plural_with_forms_its_language_has_not_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, text: str, refusal: str
) -> None:
    (tmp_path / f"{language}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "STRINGS_FOLDER", tmp_path)
    with pytest.raises(ValueError, match=refusal):
        i18n._strings(language)
