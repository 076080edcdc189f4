"""Moodle's fractions in every format: weights of single and multiple questions, and a
numeric question's other numbers (0% answers with their feedback, partial credit), read as
Moodle reads them, validated with their places, and written back so they survive."""

from __future__ import annotations

import dataclasses
import gc
import time
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from content import grading
from content.export import bank_data
from content.formats.base import weights_kept
from content.formats.convert import Loaded
from content.loader import EVERYTHING, parse_bank
from content.model import (
    LocalizedText,
    MultipleAnswer,
    NumericAnswer,
    OtherNumber,
    Question,
    SingleAnswer,
)
from tests.content.test_formats_anki import notes, open_package
from tests.support.formats import read, read_or_refuse, trip, write

GRANTS_TOMB = b"""\
::grant:: What two people are entombed in Grant's tomb? {
   ~%-100%No one
   ~%50%Grant
   ~%50%Grant's wife
   ~%-100%Grant's father
}
"""


def only_question(data: bytes, fmt: str, **options: object) -> dict[str, Any]:
    (question,) = bank_data(read(data, fmt, **options).quiz)["questions"]
    return question


def test_gift_keeps_moodles_weights_and_the_bot_scores_them_as_moodle() -> None:
    loaded = read(GRANTS_TOMB, "gift")
    (question,) = loaded.quiz.questions
    assert question.key == MultipleAnswer(
        frozenset({1, 2}), (Decimal(-100), Decimal(50), Decimal(50), Decimal(-100))
    )
    both = grading.grade(question, grading.Selection(frozenset({1, 2})))
    every = grading.grade(question, grading.Selection(frozenset({0, 1, 2, 3})))
    assert (both.credit, every.credit) == (1, 0)
    assert not any("weights" in warning for warning in loaded.warnings)


def test_without_negative_weights_ticking_all_four_is_fully_right() -> None:
    data = b"::g:: Grant's tomb? {~%50%Grant ~%50%Grant's wife ~No one ~Grant's father}"
    (question,) = read(data, "gift").quiz.questions
    assert question.weights == (Decimal(50), Decimal(50), Decimal(0), Decimal(0))
    assert grading.grade(question, grading.Selection(frozenset(range(4)))).fully_right


def test_a_one_answer_question_with_partial_credit_is_kept_with_its_weights() -> None:
    data = b"::p:: Which is best? { =right ~%50%half right ~wrong ~%-100%harmful }"
    question = only_question(data, "gift")
    assert (question["answer"], question["weights"]) == (0, [100, 50, 0, -100])
    assert "type" not in question  # single


def test_plain_weights_say_nothing_more_and_are_not_kept() -> None:
    plain = b"::q:: Which? {~%50%a ~%-50%b ~%50%c}"  # what our own export of [0, 2] writes
    assert "weights" not in only_question(plain, "gift")
    thirds = b"::q:: Which? {~%33.33333%a ~%33.33333%b ~%33.33333%c ~%-33.33333%d}"
    assert "weights" not in only_question(thirds, "gift")
    assert "weights" not in only_question(b"::q:: Which? {=a ~b ~c}", "gift")


def test_moodle_xml_fractions_are_the_weights() -> None:
    body = "".join(
        f'<answer fraction="{fraction}"><text>{text}</text></answer>'
        for fraction, text in (("100", "right"), ("50", "half"), ("-100", "harmful"))
    )
    data = (
        '<quiz><question type="multichoice"><name><text>q</text></name>'
        f"<questiontext><text>Which?</text></questiontext><single>true</single>{body}"
        "</question></quiz>"
    ).encode()
    question = only_question(data, "xml")
    assert (question["answer"], question["weights"]) == (0, [100, 50, -100])


def test_a_csv_weights_column_holds_one_percentage_per_option() -> None:
    data = (
        b"id,type,question,option1,option2,option3,option4,answer,weights\n"
        b"g,multiple,Grant's tomb?,No one,Grant,Grant's wife,Grant's father,\"B,C\","
        b"-100|50|50|-100\n"
    )
    question = only_question(data, "csv")
    assert (question["answer"], question["weights"]) == ([1, 2], [-100, 50, 50, -100])


@pytest.mark.parametrize(
    ("question", "problem"),
    [
        (
            {"options": ["a", "b"], "answer": 0, "weights": [100]},
            "weights has 1 percentages for 2 options: one per option",
        ),
        (
            {"options": ["a", "b"], "answer": 0, "weights": [100, 150]},
            "weight 1 is 150: a weight is -100 to 100 (percent)",
        ),
        (
            {"options": ["a", "b"], "answer": 1, "weights": [100, 50]},
            "with weights, a single question's answer is the one option at 100 "
            "(answer 1; options at 100: 0)",
        ),
        (
            {"type": "multiple", "options": ["a", "b", "c"], "answer": [0],
             "weights": [50, 50, -100]},
            "with weights, answer lists exactly the options with a positive weight ([0, 1])",
        ),
        (
            {"type": "multiple", "options": ["a", "b"], "answer": [0, 1], "weights": [40, 40]},
            "the positive weights add up to less than 100: no selection is fully right",
        ),
        (
            {"type": "true_false", "answer": True, "weights": [100, 0]},
            "not a field of a true_false question (it belongs to single and multiple questions)",
        ),
        (
            {"type": "numeric", "answer": 9, "numbers": [{"value": 5, "weight": 100}]},
            "the weight of another number is 0 up to below 100 (percent), not 100; "
            "the right number is the answer",
        ),
    ],
)  # fmt: skip
def test_weights_that_do_not_fit_are_refused_with_their_place(
    question: dict[str, Any], problem: str
) -> None:
    bank = {"id": "w", "title": "W", "level": "easy",
            "questions": [{"id": "q1", "text": "Which?", **question}]}  # fmt: skip
    result = parse_bank(yaml.safe_dump(bank), "weights.yaml", "en", accepts=EVERYTHING)
    assert result.quiz is None
    assert any(error.endswith(problem) and "question q1" in error for error in result.errors), (
        result.errors
    )


# --- numbers worth 0% (feedback) and partial credit ---------------------------------------------

NUMERIC_FEEDBACK = (
    b"::n:: How many legs has a spider? {#=%100%8:0#Correct =%0%6:0#Six: an insect ~#Wrong}"
)


def test_a_number_worth_0_percent_is_kept_as_feedback_for_that_number() -> None:
    loaded = read(NUMERIC_FEEDBACK, "gift")
    (question,) = loaded.quiz.questions
    assert question.key == NumericAnswer(
        Decimal(8),
        others=(OtherNumber(Decimal(6), feedback=LocalizedText({"en": "Six: an insect"})),),
    )
    assert question.explanation == LocalizedText({"en": "Correct"})
    assert any("feedback for any other number is not kept" in w for w in loaded.warnings)
    six = grading.grade(question, grading.NumberReply("6", Decimal(6)))
    assert six.credit == 0 and six.feedback == LocalizedText({"en": "Six: an insect"})


def test_partial_numeric_credit_is_scored_the_moodle_way() -> None:
    data = b"::n:: 9? {#=9:0 =%50%9:2#Close}"
    (question,) = read(data, "gift").quiz.questions
    close = grading.grade(question, grading.NumberReply("10", Decimal(10)))
    assert close.credit == Fraction(1, 2)
    assert close.feedback == LocalizedText({"en": "Close"})
    # a partly right number Moodle tries before the right one, and that takes none of its
    # replies, comes after it: the same grades
    later = read(b"::n:: 9? {#=%50%20:2 =9:0}", "gift").quiz.questions[0].key
    assert isinstance(later, NumericAnswer) and later.others[0].value == 20


def test_moodle_xml_numbers_with_feedback() -> None:
    answers = (
        '<answer fraction="100"><text>8</text><tolerance>0</tolerance>'
        "<feedback><text>Correct</text></feedback></answer>"
        '<answer fraction="0"><text>6</text><tolerance>0</tolerance>'
        "<feedback><text>Six: an insect</text></feedback></answer>"
        '<answer fraction="50"><text>8</text><tolerance>1</tolerance></answer>'
    )
    data = (
        '<quiz><question type="numerical"><name><text>n</text></name>'
        f"<questiontext><text>Legs?</text></questiontext>{answers}</question></quiz>"
    ).encode()
    question = only_question(data, "xml")
    assert question["answer"] == 8 and question["explanation"] == {"en": "Correct"}
    assert question["numbers"] == [
        {"value": 6, "weight": 0, "feedback": {"en": "Six: an insect"}},
        {"value": 8, "tolerance": 1, "weight": 50},
    ]


@pytest.mark.parametrize("fmt", ["gift", "xml", "yaml"])
def test_numbers_survive_the_formats_that_hold_them(fmt: str) -> None:
    loaded = read(b"::n:: 9? {#=9:0 =%0%5#Not five =%50%9:2#Close}", "gift")
    back, output = trip(loaded, fmt, skip_unsupported=False)
    assert back.quiz.questions[0].key == loaded.quiz.questions[0].key
    assert output.warnings == () or fmt == "gift"


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_table_says_it_leaves_the_other_numbers_out(fmt: str) -> None:
    loaded = read(b"::n:: 9? {#=9:0 =%0%5#Not five}", "gift")
    warnings = write(loaded, fmt).warnings
    assert any("other numbers (and their feedback) of 1 numeric question" in w for w in warnings)


def test_anki_shows_every_option_with_its_weight_on_the_back() -> None:
    connection, _, _ = open_package(write(read(GRANTS_TOMB, "gift"), "apkg").data)
    ((_, (_, back), _),) = notes(connection)
    assert "B. Grant (50%)" in back and "A. No one (-100%)" in back


# --- round trips: weights survive every format that holds them ---------------------------------

SHARES = st.one_of(st.integers(-100, 100), st.sampled_from(["33.33333", "-33.33333", "12.5"]))


@st.composite
def weighted_banks(draw: st.DrawFn) -> dict[str, Any]:
    questions = []
    for number in range(draw(st.integers(1, 3))):
        count = draw(st.integers(2, 10))
        options = [f"option {number}-{i}" for i in range(count)]
        weights = [Decimal(str(w)) for w in draw(st.lists(SHARES, min_size=count, max_size=count))]
        if draw(st.booleans()):
            answer = draw(st.integers(0, count - 1))
            weights = [
                Decimal(100) if i == answer else min(w, Decimal(99)) for i, w in enumerate(weights)
            ]
            question: dict[str, Any] = {"answer": answer}
        else:
            positive = [i for i, w in enumerate(weights) if w > 0]
            assume(positive and sum(grading.share(weights[i]) for i in positive) >= 1)
            question = {"type": "multiple", "answer": positive}
        questions.append({
            "id": f"q{number}", "text": f"Question {number}?", "options": options,
            **question, "weights": [float(w) if w != int(w) else int(w) for w in weights],
        })  # fmt: skip
    return {"id": "weights", "title": "Weights", "level": "medium", "questions": questions}


@pytest.mark.parametrize("fmt", ["yaml", "gift", "xml", "csv", "xlsx"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(bank=weighted_banks())
def test_weights_survive_a_round_trip(fmt: str, bank: dict[str, Any]) -> None:
    """YAML and the tables keep `weights` as written. GIFT and Moodle XML write a fraction for
    every option of every question, so weights that say no more than the question's plain
    rule come back as no weights: the same grades."""
    result = parse_bank(yaml.safe_dump(bank), "weights.yaml", "en", accepts=EVERYTHING)
    assert result.quiz is not None, result.errors
    back, _ = trip(Loaded(result.quiz, {}), fmt)
    for before, after in zip(result.quiz.questions, back.quiz.questions, strict=True):
        key = before.key
        assert isinstance(key, SingleAnswer | MultipleAnswer)
        if fmt in ("gift", "xml") and not _says_more(before):
            key = dataclasses.replace(key, weights=None)
        assert after.key == key


def _says_more(question: Question) -> bool:
    assert question.weights is not None
    right = sorted(grading.right_choices(question))
    return weights_kept(question.weights, right, isinstance(question.key, SingleAnswer))


# --- hostile inputs cost in proportion to their size ---------------------------------------------


def _least_seconds(inputs: tuple[bytes, ...], fmt: str, rounds: int = 5) -> list[float]:
    """For each input, the least time of `rounds` reads (each read or refused), the inputs
    read in turn so that other work on the machine falls on all of them alike. The garbage
    collector is held off meanwhile: its passes cost in proportion to everything the test
    process holds, not to the input."""
    best = [float("inf")] * len(inputs)
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for index, data in enumerate(inputs):
                started = time.perf_counter()
                read_or_refuse(data.decode(), fmt)
                best[index] = min(best[index], time.perf_counter() - started)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize(
    ("fmt", "head", "piece", "tail"),
    [
        ("gift", "::n:: How many? {#=8:0 ", "=%0%5:0#Not five ", "}"),
        ("gift", "::n:: How many? {#", "=%50%1:0#Near ", "=8:0}"),  # all before the right one
        ("gift", "::w:: Which? {", "~%50%an option ", "}"),
    ],
    ids=["numbers", "numbers-first", "weights"],
)
def test_twice_the_answers_cost_about_twice_the_time(
    fmt: str, head: str, piece: str, tail: str
) -> None:
    def made(count: int) -> bytes:
        return (head + piece * count + tail).encode()

    _least_seconds((made(100),), fmt, rounds=1)  # warmed up: what is compiled on first use
    once, twice = _least_seconds((made(8000), made(16000)), fmt)
    assert twice < 3.5 * once, (once, twice)  # quadratic would be 4
