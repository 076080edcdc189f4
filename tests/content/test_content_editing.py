"""Unit tests of content editing: export round trip, import plans, added and retired questions."""

from __future__ import annotations

import pytest

from bot.config import DEFAULT_CONTENT_DIR
from content.catalog import Catalog
from content.editing import (
    EditError,
    add_question,
    next_question_id,
    plan_import,
    retire_question,
)
from content.export import dump_bank
from content.loader import load_bank_file, parse_bank
from content.model import Quiz

SMALL = """
id: small
title: "Small: yes, no & <tags>"
level: easy
questions:
  - {id: "1", text: "yes", options: ["no", "null", "~", "'quoted'"], answer: 0}
  - id: s-2
    text: {en: "Two\\nlines", yo: "Méjì"}
    options: [{en: "a", yo: "à"}, "b"]
    answer: 1
    explanation: "Because: it is # not a comment"
"""


def _quiz(text: str = SMALL) -> Quiz:
    result = parse_bank(text, "test", "en")
    assert result.quiz is not None, result.errors
    return result.quiz


@pytest.fixture(scope="module")
def seed() -> Quiz:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / "model-pipeline-parallelism.yaml", "en").quiz
    assert quiz is not None
    return quiz


@pytest.mark.parametrize("name", ["seed", "small"])
def test_export_round_trips_exactly(name: str, seed: Quiz) -> None:
    quiz = seed if name == "seed" else _quiz()
    text = dump_bank(quiz)
    back = parse_bank(text, "export", "en")
    assert back.errors == ()
    assert back.quiz == quiz
    assert dump_bank(back.quiz) == text


def test_export_has_no_anchors_or_python_tags(seed: Quiz) -> None:
    text = dump_bank(seed)
    assert "&id" not in text and "*id" not in text and "!!" not in text


def test_plan_import_sorts_questions(seed: Quiz) -> None:
    edited = SMALL.replace('"Because: it is # not a comment"', "Changed")
    before, after = _quiz(), _quiz(edited.replace("id: s-2", "id: s-3"))
    plan = plan_import(before, after)
    assert plan.unchanged == ("1",)
    assert plan.added == ("s-3",)
    assert plan.retired == ("s-2",)
    assert plan.replaces and plan.changes_anything
    assert not plan_import(before, before).changes_anything
    fresh = plan_import(None, before)
    assert fresh.added == ("1", "s-2") and not fresh.replaces
    updated = plan_import(before, _quiz(edited))
    assert updated.updated == ("s-2",) and not updated.details_changed


def test_next_question_id_follows_the_style_and_skips_retired(seed: Quiz) -> None:
    assert next_question_id(seed) == "mpp-9"
    assert next_question_id(seed, taken={"mpp-9", "mpp-10"}) == "mpp-11"
    assert next_question_id(_quiz()) == "s-3"


def test_add_question_validates_like_a_bank(seed: Quiz) -> None:
    good = {"text": {"en": "New?"}, "options": [{"en": "x"}, {"en": "y"}], "answer": 1}
    result = add_question(seed, good, {"mpp-9"}, "en")
    assert result.quiz is not None
    assert len(result.quiz) == 9
    assert result.quiz.questions[-1].id == "mpp-10"
    assert seed.question("mpp-10") is None  # the original is untouched
    bad = {"text": {"en": "New?"}, "options": [{"en": "x"}], "answer": 3}
    refused = add_question(seed, bad, (), "en")
    assert refused.quiz is None
    assert any("question mpp-9 (#9), field options" in error for error in refused.errors)


def test_retire_question(seed: Quiz) -> None:
    quiz, gone = retire_question(seed, "mpp-2")
    assert gone.id == "mpp-2" and quiz.question("mpp-2") is None and len(quiz) == 7
    assert quiz.position("mpp-3") == 1
    with pytest.raises(EditError):
        retire_question(seed, "nope")
    single = _quiz(SMALL.split("  - id: s-2")[0])
    with pytest.raises(EditError, match="last question"):
        retire_question(single, "1")


def test_catalog_put_replaces_in_place(seed: Quiz) -> None:
    catalog = Catalog([seed, _quiz()], "en")
    smaller, _ = retire_question(seed, "mpp-1")
    assert catalog.put(smaller) is seed
    assert [q.id for q in catalog] == [seed.id, "small"]
    assert catalog.get(seed.id) is smaller
