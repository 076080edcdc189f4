"""The third bank, "Data Parallelism and ZeRO" (content/banks/data-parallelism-zero.yaml): an
exam of two sections (ten questions drawn of 23, 15 minutes, 0.25 per wrong answer), every
question explained, and its numbers the sums its explanations show."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from content.exams import PaperPart, draw, mark_paper, rules_of
from content.grading import Choice, Selection, grade
from content.loader import load_bank_file
from content.model import MultipleAnswer, NumericAnswer, QuestionType, Quiz

BANK = (
    Path(__file__).resolve().parents[2]
    / "content"
    / "banks"
    / "data-parallelism-zero"
    / "data-parallelism-zero.yaml"
)


@pytest.fixture(scope="module")
def quiz() -> Quiz:
    result = load_bank_file(BANK, "en")
    assert result.errors == () and result.warnings == ()
    assert result.quiz is not None
    return result.quiz


def test_it_is_an_exam_of_two_sections_ten_questions_drawn_in_fifteen_minutes(
    quiz: Quiz,
) -> None:
    assert len(quiz) >= 20
    exam = quiz.exam
    assert exam is not None
    assert (exam.minutes, exam.draw, exam.penalty, exam.attempts) == (15, 10, Decimal("0.25"), 1)
    assert [s.title.get("en", "en") for s in exam.sections] == ["Data parallelism", "ZeRO"]
    assert [s.draw for s in exam.sections] == [5, 5]
    in_sections = [item for section in exam.sections for item in section.questions]
    assert sorted(in_sections) == sorted(q.id for q in quiz.questions)  # every question drawable
    paper = draw(quiz, rules_of(quiz), seed=1)
    assert len(paper.items) == 10 and paper.seconds == 15 * 60


def test_every_question_is_explained_and_the_types_are_mixed(quiz: Quiz) -> None:
    assert all(q.explanation is not None for q in quiz.questions)
    types = {q.type for q in quiz.questions}
    assert types == set(QuestionType)
    assert any(q.weights is not None for q in quiz.questions)  # no penalty on it


@pytest.mark.parametrize(
    ("question_id", "value"),
    [
        ("dpz-8", Fraction(1024, 4)),  # a global batch split over the data-parallel degree
        ("dpz-9", Fraction(8 * 32 * 4)),  # micro-batch size x chunks x data-parallel degree
        ("dpz-15", Fraction(16) * Fraction(3, 2)),  # 16 bytes x 1.5 billion parameters, in GB
        ("dpz-16", Fraction(4 * 3)),  # fp32 parameters, momentum and variance
        ("dpz-17", Fraction(16) * Fraction(15, 2) / 64),  # 120 GB over 64 GPUs
    ],
)
def test_the_numeric_answers_are_the_sums_their_explanations_show(
    quiz: Quiz, question_id: str, value: Fraction
) -> None:
    question = quiz.question(question_id)
    assert question is not None and isinstance(question.key, NumericAnswer)
    assert Fraction(question.key.value) == value


def test_a_wrong_pick_on_the_weighted_question_marks_it_down_with_no_penalty(quiz: Quiz) -> None:
    question = quiz.question("dpz-13")
    assert question is not None and isinstance(question.key, MultipleAnswer)
    plain = quiz.question("dpz-12")
    assert plain is not None
    paper = dataclasses.replace(
        draw(quiz, rules_of(quiz), seed=3), parts=(PaperPart(None, ("dpz-12", "dpz-13")),)
    )
    pair = {
        "dpz-13": grade(question, Selection(frozenset({0, 2}))),
        "dpz-12": grade(plain, Choice(1)),
    }
    result = mark_paper(paper, pair)
    # 50 - 100 -> 0 (clamped), no penalty; the plain question's wrong answer costs 0.25
    assert sorted(m.points for m in result.items) == [Fraction(-1, 4), 0]
