"""Question types in banks (issue 14, content side): the format of each type, the errors with
their places, the model the bot reads, and the canonical export (round trip)."""

from __future__ import annotations

import dataclasses
import math
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from content import model
from content.__main__ import main as validate_main
from content.export import dump_bank
from content.grading import right_choices
from content.images import FolderImages
from content.loader import EVERYTHING, IN_GROUPS, PLAYABLE, Accepts, BankResult, parse_bank
from content.model import LocalizedText, Question, QuestionType
from tests.support.images import png

SINGLE = {"id": "s1", "text": "Pick one", "options": ["a", "b", "c"], "answer": 1}
MULTIPLE = {
    "id": "m1",
    "type": "multiple",
    "text": "Pick all",
    "options": ["a", "b", "c"],
    "answer": [0, 2],
}
TRUE_FALSE = {"id": "t1", "type": "true_false", "text": "Is it?", "answer": False}
NUMERIC = {
    "id": "n1",
    "type": "numeric",
    "text": "How many GB?",
    "answer": 14,
    "tolerance": 0.5,
    "unit": {"en": "GB"},
}
TYPED = {
    "id": "w1",
    "type": "typed",
    "text": "Name it",
    "answer": ["bubble", "pipeline bubble", {"en": "the bubble", "yo": "àlàfo"}],
}


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def bank(*questions: dict[str, Any], **head: Any) -> str:
    data = {"id": "drill", "title": "Drill", "level": "easy", **head, "questions": list(questions)}
    return yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False)


def parse(text: str, folder: Path | None = None) -> BankResult:
    images = FolderImages(folder) if folder is not None else None
    return parse_bank(text, "drill.yaml", "en", images=images, accepts=EVERYTHING)


def errors_of(question: dict[str, Any]) -> tuple[str, ...]:
    result = parse(bank(question))
    assert result.quiz is None
    return result.errors


def only_error(question: dict[str, Any]) -> str:
    errors = errors_of(question)
    assert len(errors) == 1, errors
    return errors[0]


# --- every type is accepted, and read into the model ------------------------------------


def test_a_bank_with_every_type_loads() -> None:
    result = parse(bank(SINGLE, MULTIPLE, TRUE_FALSE, NUMERIC, TYPED))
    assert result.errors == ()
    assert result.quiz is not None
    single, multiple, true_false, numeric, typed = result.quiz.questions
    assert [q.type for q in result.quiz.questions] == list(QuestionType)
    assert single.key == model.SingleAnswer(1)
    assert multiple.key == model.MultipleAnswer(frozenset({0, 2}))
    assert true_false.key == model.TrueFalseAnswer(False)
    assert true_false.options == ()
    assert numeric.key == model.NumericAnswer(
        Decimal(14), Decimal("0.5"), LocalizedText({"en": "GB"})
    )
    assert isinstance(typed.key, model.TypedAnswer)
    assert typed.key.accepted[0] == LocalizedText({"en": "bubble"})
    assert typed.key.accepted[2] == LocalizedText({"en": "the bubble", "yo": "àlàfo"})
    assert typed.key.strict_diacritics is False


def test_type_single_written_out_is_the_default() -> None:
    with_type = parse(bank({**SINGLE, "type": "single"})).quiz
    without = parse(bank(SINGLE)).quiz
    assert with_type is not None and with_type == without


def test_single_questions_keep_the_attributes_the_bot_uses() -> None:
    quiz = parse(bank(SINGLE, MULTIPLE)).quiz
    assert quiz is not None
    single, multiple = quiz.questions
    assert single.answer == 1
    assert right_choices(single) == {1}
    assert len(single.options) == 3
    assert right_choices(multiple) == {0, 2}
    with pytest.raises(TypeError, match="multiple"):
        _ = multiple.answer


def test_questions_are_built_as_before_and_replaced_with_dataclasses() -> None:
    text = LocalizedText({"en": "Q"})
    options = (LocalizedText({"en": "a"}), LocalizedText({"en": "b"}))
    positional = Question("q1", text, options, 1)
    keyword = Question(id="q1", text=text, options=options, answer=1)
    assert positional == keyword
    assert positional.key == model.SingleAnswer(1)
    changed = dataclasses.replace(positional, text=LocalizedText({"en": "R"}))
    assert changed.key == model.SingleAnswer(1)
    assert changed.text.get("en", "en") == "R"
    with pytest.raises(TypeError):
        Question("q1", text, options)
    with pytest.raises(TypeError):
        Question("q1", text, (), True)


def test_numbers_are_exact_decimals() -> None:
    quiz = parse(bank({**NUMERIC, "answer": 1.1, "tolerance": 0.1})).quiz
    assert quiz is not None
    key = quiz.questions[0].key
    assert isinstance(key, model.NumericAnswer)
    assert (key.value, key.tolerance) == (Decimal("1.1"), Decimal("0.1"))


def test_tolerance_defaults_to_zero_and_unit_to_none() -> None:
    quiz = parse(bank({"id": "n", "type": "numeric", "text": "n?", "answer": -3})).quiz
    assert quiz is not None
    assert quiz.questions[0].key == model.NumericAnswer(Decimal(-3), Decimal(0), None)


def test_strict_diacritics_is_read() -> None:
    question = {**TYPED, "answer": ["ọkọ"], "strict_diacritics": True}
    quiz = parse(bank(question)).quiz
    assert quiz is not None
    assert quiz.questions[0].key == model.TypedAnswer((LocalizedText({"en": "ọkọ"}),), True)


def test_image_alt_and_https_images_on_every_type() -> None:
    url = "https://example.org/schedule.png"
    extra = {"image": url, "image_alt": {"en": "A schedule", "yo": "Ètò"}, "explanation_image": url}
    questions = [{**q, **extra} for q in (SINGLE, MULTIPLE, TRUE_FALSE, NUMERIC, TYPED)]
    quiz = parse(bank(*questions)).quiz
    assert quiz is not None
    for question in quiz.questions:
        assert question.image is not None and question.image.is_url
        assert question.image.sha256 is None
        assert question.image_alt == LocalizedText({"en": "A schedule", "yo": "Ètò"})
        assert question.explanation_image == question.image


# --- the bad cases, each with its place -------------------------------------------------


def test_a_list_answer_on_a_single_question_says_to_use_multiple() -> None:
    error = only_error({**SINGLE, "answer": [0]})
    assert error.startswith("question s1 (#1), field answer: a single question has one right")
    assert "type: multiple" in error


def test_tolerance_on_a_typed_question_is_misplaced() -> None:
    error = only_error({**TYPED, "tolerance": 1})
    assert error == (
        "question w1 (#1), field tolerance: not a field of a typed question "
        "(it belongs to numeric questions)"
    )


def test_options_on_a_true_false_question_are_misplaced() -> None:
    error = only_error({**TRUE_FALSE, "options": ["yes", "no"]})
    assert error == (
        "question t1 (#1), field options: not a field of a true_false question "
        "(it belongs to single and multiple questions)"
    )


@pytest.mark.parametrize(
    ("question", "field", "owner"),
    [
        ({**SINGLE, "unit": "GB"}, "unit", "numeric"),
        ({**NUMERIC, "options": ["a", "b"]}, "options", "single and multiple"),
        ({**NUMERIC, "strict_diacritics": True}, "strict_diacritics", "typed"),
        ({**MULTIPLE, "tolerance": 0}, "tolerance", "numeric"),
        ({**TYPED, "unit": "m"}, "unit", "numeric"),
    ],
)
def test_fields_of_other_types_are_named_with_their_owner(
    question: dict[str, Any], field: str, owner: str
) -> None:
    error = only_error(question)
    assert error.startswith(f"question {question['id']} (#1), field {field}: not a field of a ")
    assert f"(it belongs to {owner} questions)" in error


def test_a_field_of_no_type_is_unknown() -> None:
    error = only_error({**NUMERIC, "hint": "think"})
    assert error == "question n1 (#1), field hint: unknown field (check its spelling)"


@pytest.mark.parametrize("kind", ["multi", "essay", "Single", 3, None])
def test_an_unknown_type_is_named(kind: object) -> None:
    error = only_error({**SINGLE, "type": kind})
    assert error.startswith("question s1 (#1), field type: unknown question type ")
    assert "single, multiple, true_false, numeric, typed" in error


def test_a_question_that_is_not_a_mapping() -> None:
    result = parse(bank(SINGLE).replace("questions:\n", "questions:\n- just text\n"))
    assert result.errors == ("question #1: a question must be a mapping with id, text and answer",)


@pytest.mark.parametrize(
    ("question", "field", "words"),
    [
        ({**MULTIPLE, "answer": 0}, "answer", "answer: [0]"),
        ({**MULTIPLE, "answer": []}, "answer", "at least 1"),
        ({**MULTIPLE, "answer": [0, 0]}, None, "twice"),
        ({**MULTIPLE, "answer": [1, 3]}, None, "answer 3: not an option index (0 to 2)"),
        ({**MULTIPLE, "options": ["a"], "answer": [0]}, "options", "at least 2"),
        ({**MULTIPLE, "options": [str(n) for n in range(11)]}, "options", "at most 10"),
        ({**TRUE_FALSE, "answer": 1}, "answer", "true or false"),
        ({**TRUE_FALSE, "answer": "false"}, "answer", "true or false"),
        ({**SINGLE, "answer": True}, "answer", "type: true_false"),
        ({**NUMERIC, "answer": "1e3"}, "answer", "must be a number"),
        ({**NUMERIC, "answer": True}, "answer", "must be a number"),
        ({**NUMERIC, "answer": math.nan}, "answer", "finite"),
        ({**NUMERIC, "answer": 10**401}, "answer", "between"),
        ({**NUMERIC, "tolerance": -0.5}, "tolerance", "0 or more"),
        ({**NUMERIC, "unit": "x" * 31}, "unit", "at most 30"),
        ({**TYPED, "answer": "bubble"}, "answer", 'answer: ["bubble"]'),
        ({**TYPED, "answer": []}, "answer", "at least 1"),
        ({**TYPED, "answer": ["?!"]}, None, "only punctuation"),
        ({**TYPED, "answer": [3]}, "answer[0]", "must be text"),
        ({**TYPED, "strict_diacritics": "yes"}, "strict_diacritics", "boolean"),
        ({**TRUE_FALSE, "image_alt": "a picture"}, None, "add image"),
        ({**TRUE_FALSE, "image": "http://example.org/a.png"}, "image", "https://"),
        ({**TRUE_FALSE, "image": "ftp://example.org/a.png"}, "image", "https://"),
        ({**TRUE_FALSE, "image": "https:// x"}, "image", "not a valid URL"),
        ({**TRUE_FALSE, "image": "../a.png"}, "image", "`..` is not allowed"),
        ({**TRUE_FALSE, "image": "images/../../a.png"}, "image", "`..` is not allowed"),
        ({**TRUE_FALSE, "image": "/etc/hostname"}, "image", "absolute path"),
        ({**TRUE_FALSE, "image": "C:/a.png"}, "image", "absolute path"),
        ({**TRUE_FALSE, "image": "images\\a.png"}, "image", "write paths with /"),
        ({**TRUE_FALSE, "image": ""}, "image", "empty image"),
        ({**TRUE_FALSE, "image": 7}, "image", "relative to the bank file"),
        (
            {**TRUE_FALSE, "explanation_image": "a.png"},
            "explanation_image",
            "send the file as a .zip",
        ),
        (
            {**TRUE_FALSE, "image_alt": "x" * 301, "image": "https://e.org/a.png"},
            "image_alt",
            "at most 300",
        ),
    ],
)
def test_bad_fields_are_refused_at_their_place(
    question: dict[str, Any], field: str | None, words: str
) -> None:
    error = only_error(question)
    place = f"question {question['id']} (#1)" + (f", field {field}:" if field else ":")
    assert error.startswith(place), error
    assert words in error


def test_every_error_of_a_bank_is_reported_at_once() -> None:
    result = parse(
        bank(
            {**SINGLE, "answer": [0]},
            {**TYPED, "tolerance": 1},
            {**TRUE_FALSE, "type": "yes_no"},
            {**NUMERIC, "id": "n2", "image": "missing.png"},
        )
    )
    assert result.quiz is None
    assert [error.split(":")[0] for error in result.errors] == [
        "question s1 (#1), field answer",
        "question w1 (#2), field tolerance",
        "question t1 (#3), field type",
        "question n2 (#4), field image",
    ]


# --- what the bot loads: only what it can play ------------------------------------------


# a loader that takes less than the bot does (as one did before issue 14)
SINGLE_ONLY = Accepts(frozenset({QuestionType.SINGLE}), images=False)


def test_a_loader_refuses_types_it_cannot_play_with_their_places() -> None:
    text = bank(SINGLE, MULTIPLE, NUMERIC)
    result = parse_bank(text, "drill.yaml", "en", accepts=SINGLE_ONLY)
    assert result.quiz is None
    assert result.errors == (
        "question m1 (#2), field type: this version of the bot cannot play multiple questions yet",
        "question n1 (#3), field type: this version of the bot cannot play numeric questions yet",
    )


def test_a_loader_refuses_images_it_cannot_show() -> None:
    text = bank({**SINGLE, "explanation_image": "https://example.org/a.png"})
    result = parse_bank(text, "drill.yaml", "en", accepts=SINGLE_ONLY)
    assert result.errors == (
        "question s1 (#1), field explanation_image: this version of the bot cannot show images yet",
    )


def test_the_bot_plays_every_type_with_pictures_in_private() -> None:
    text = bank(SINGLE, MULTIPLE, NUMERIC, {**SINGLE, "id": "s2", "image": "https://e.org/a.png"})
    result = parse_bank(text, "drill.yaml", "en")  # the bot's default: PLAYABLE
    assert result.errors == ()
    assert PLAYABLE.types == set(QuestionType) and PLAYABLE.images
    # groups and channels play all but the types answered by typing (issue 14)
    assert IN_GROUPS.types == set(QuestionType) - {QuestionType.NUMERIC, QuestionType.TYPED}
    assert IN_GROUPS.images


def test_the_bot_loader_still_takes_todays_banks(tmp_path: Path) -> None:
    result = parse_bank(bank(SINGLE, {**SINGLE, "id": "s2", "type": "single"}), "x", "en")
    assert result.errors == ()


# --- export: canonical, and a round trip -------------------------------------------------


def _round_trip(text: str, folder: Path | None = None) -> None:
    first = parse(text, folder)
    assert first.quiz is not None, first.errors
    dumped = dump_bank(first.quiz)
    second = parse(dumped, folder)
    assert second.quiz == first.quiz, second.errors
    assert second.quiz is not None
    assert dump_bank(second.quiz) == dumped


def test_every_type_round_trips_through_export() -> None:
    typed_strict = {**TYPED, "id": "w2", "answer": ["ọkọ"], "strict_diacritics": True}
    numeric_plain = {"id": "n2", "type": "numeric", "text": "n?", "answer": 0.001}
    _round_trip(bank(SINGLE, MULTIPLE, TRUE_FALSE, NUMERIC, TYPED, typed_strict, numeric_plain))


def test_export_writes_each_type_canonically() -> None:
    quiz = parse(bank(MULTIPLE | {"answer": [2, 0]}, TRUE_FALSE, NUMERIC, TYPED)).quiz
    assert quiz is not None
    questions = yaml.safe_load(dump_bank(quiz))["questions"]
    assert questions[0] == {
        "id": "m1",
        "type": "multiple",
        "text": {"en": "Pick all"},
        "options": [{"en": "a"}, {"en": "b"}, {"en": "c"}],
        "answer": [0, 2],
    }
    assert questions[1] == {
        "id": "t1",
        "type": "true_false",
        "text": {"en": "Is it?"},
        "answer": False,
    }
    assert list(questions[2]) == ["id", "type", "text", "answer", "tolerance", "unit"]
    assert questions[2]["answer"] == 14 and questions[2]["tolerance"] == 0.5
    assert questions[3]["answer"][0] == {"en": "bubble"}
    assert "type" not in yaml.safe_load(dump_bank(parse(bank(SINGLE)).quiz))["questions"][0]  # type: ignore[arg-type]


def test_a_bank_with_image_files_exports_their_relative_paths(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(png(40, 20))
    question = {**SINGLE, "image": "./images//a.png", "explanation_image": "images/a.png"}
    text = bank(question)
    result = parse(text, tmp_path)
    assert result.quiz is not None, result.errors
    image = result.quiz.questions[0].image
    assert image is not None and image.location == "images/a.png" and image.sha256
    exported = yaml.safe_load(dump_bank(result.quiz))["questions"][0]
    assert exported["image"] == exported["explanation_image"] == "images/a.png"
    assert set(result.images) == {"images/a.png"}
    _round_trip(text, tmp_path)


numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300).filter(
        lambda x: x == 0 or abs(x) > 1e-300
    ),
)


@given(numbers, numbers.map(abs))
def test_any_number_round_trips_exactly(answer: float, tolerance: float) -> None:
    question = {
        "id": "n",
        "type": "numeric",
        "text": "n?",
        "answer": answer,
        "tolerance": tolerance,
    }
    _round_trip(bank(question))


# --- python -m content validate ----------------------------------------------------------


def test_the_validator_names_file_question_and_field_of_each_bad_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        bank(
            {**SINGLE, "answer": [0]},
            {**TYPED, "tolerance": 0.5},
            {**TRUE_FALSE, "options": ["a", "b"]},
            {**NUMERIC, "type": "number"},
            {**MULTIPLE, "image": "images/missing.png"},
        ),
        encoding="utf-8",
    )
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "big.png").write_bytes(png() + b"\x00" * (5 * 1024 * 1024))
    big = tmp_path / "big.yaml"
    big.write_text(bank({**TRUE_FALSE, "image": "images/big.png"}).replace("drill", "big"))
    assert validate_main(["validate", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 2)[1] for line in lines] == [
        "question s1 (#1), field answer",
        "question w1 (#2), field tolerance",
        "question t1 (#3), field options",
        "question n1 (#4), field type",
        "question m1 (#5), field image",
        "question t1 (#1), field image",
    ]
    assert all(line.startswith(f"error {tmp_path}/") for line in lines)
    assert lines[0].startswith(f"error {bad}: ")
    assert lines[5].startswith(f"error {big}: ") and "at most 5 MiB" in lines[5]


def test_the_validator_says_what_groups_skip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ok.yaml").write_text(bank(SINGLE, MULTIPLE, NUMERIC), encoding="utf-8")
    assert validate_main(["validate", str(tmp_path / "ok.yaml")]) == 0
    out = capsys.readouterr().out
    assert out == (f"ok    {tmp_path / 'ok.yaml'}: drill, 3 questions (groups skip: numeric)\n")


def test_the_default_tolerance_is_a_decimal_too() -> None:
    quiz = parse(bank({"id": "n", "type": "numeric", "text": "n?", "answer": 3})).quiz
    assert quiz is not None
    key = quiz.questions[0].key
    assert isinstance(key, model.NumericAnswer) and isinstance(key.tolerance, Decimal)
