"""Exams in content: the bank's `exam:` block (validated, exported, kept through a retired
question), the paper drawn from a seed, and the marking over grades (penalty, weights, floor,
sections)."""

from __future__ import annotations

import collections
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content import model
from content.editing import retire_question
from content.exams import Outcome, Paper, PaperPart, draw, mark_paper, rules_of
from content.export import dump_bank
from content.grading import Choice, Grade, Selection, grade
from content.loader import parse_bank
from content.model import LocalizedText, Quiz

QUESTIONS = "\n".join(
    f"  - {{id: q{i}, text: Question {i}, options: [right, wrong], answer: 0}}"
    for i in range(1, 13)
)


def bank(exam: str) -> str:
    return f"id: exam-bank\ntitle: Exam bank\nlevel: easy\n{exam}\nquestions:\n{QUESTIONS}\n"


def loaded(exam: str) -> Quiz:
    result = parse_bank(bank(exam), "exam.yaml", "en")
    assert result.errors == ()
    assert result.quiz is not None
    return result.quiz


def refused(exam: str) -> tuple[str, ...]:
    result = parse_bank(bank(exam), "exam.yaml", "en")
    assert result.quiz is None
    return result.errors


SECTIONED = """exam:
  minutes: 15
  penalty: 0.25
  pass: 60
  draw: 5
  sections:
    - title: {en: First half, yo: Ààbọ̀ kìíní}
      questions: [q1, q2, q3, q4, q5, q6]
      draw: 3
    - title: Second half
      questions: [q7, q8, q9]
      draw: 2"""


# --- the block ---------------------------------------------------------------------------


def test_the_exam_block_becomes_the_quiz_exam() -> None:
    quiz = loaded(SECTIONED)
    assert quiz.exam == model.Exam(
        minutes=Decimal(15),
        draw=5,
        penalty=Decimal("0.25"),
        attempts=1,
        pass_mark=Decimal(60),
        floor=True,
        sections=(
            model.ExamSection(
                LocalizedText({"en": "First half", "yo": "Ààbọ̀ kìíní"}),
                ("q1", "q2", "q3", "q4", "q5", "q6"),
                3,
            ),
            model.ExamSection(LocalizedText({"en": "Second half"}), ("q7", "q8", "q9"), 2),
        ),
    )
    assert loaded("exam: {floor: none, attempts: 0}").exam == model.Exam(attempts=0, floor=False)
    assert loaded("").exam is None


@pytest.mark.parametrize(
    ("exam", "problem"),
    [
        ("exam: {minutes: 0}", "field exam.minutes: minutes is 0: it must be more than 0"),
        ("exam: {minutes: 2000}", "field exam.minutes: minutes is 2000"),
        ("exam: {penalty: -0.5}", "field exam.penalty: the penalty (points per wrong answer)"),
        ("exam: {penalty: 1.5}", "it must be 0 to 1"),
        ("exam: {attempts: 1.5}", "field exam.attempts: attempts (0: any number) is a whole"),
        ("exam: {pass: 120}", "field exam.pass: the pass mark (percent) is 120"),
        ("exam: {floor: 0}", "field exam.floor: floor takes one value, none"),
        ("exam: {draw: 13}", "the exam draws 13 questions but the bank has 12"),
        ("exam: {draw: true}", "field exam.draw: draw is a whole number"),
        ("exam: {time: 5}", "field exam.time: unknown field"),
        (
            "exam: {sections: [{title: A, questions: [q1, q2], draw: 3}]}",
            "field exam.sections[0]: the section draws 3 questions but has 2",
        ),
        (
            "exam: {sections: [{title: A, questions: [q1, q2]}, {title: B, questions: [q2]}]}",
            "field exam: a question is in one section at most: q2",
        ),
        (
            "exam: {sections: [{title: A, questions: [q1, nine]}]}",
            "exam section 1 names questions the bank does not have: nine",
        ),
        (
            "exam: {draw: 4, sections: [{title: A, questions: [q1, q2]}, {title: B, questions: [q3]}]}",
            "draw is 4, but the sections draw 3 in all",
        ),
        ("exam: {sections: [{questions: [q1]}]}", "field exam.sections[0].title"),
        (
            "exam: {sections: [{title: A, questions: [7]}]}",
            'write the id as text in quotes, e.g. "q7"',
        ),
    ],
)
def test_a_wrong_exam_block_is_refused_at_its_place(exam: str, problem: str) -> None:
    errors = refused(exam)
    assert any(problem in error for error in errors), errors


def test_the_exam_block_travels_through_an_export_unchanged() -> None:
    quiz = loaded(SECTIONED)
    again = parse_bank(dump_bank(quiz), "again.yaml", "en").quiz
    assert again == quiz
    assert "exam:\n  minutes: 15\n  draw: 5\n  penalty: 0.25\n  pass: 60\n" in dump_bank(quiz)
    no_floor = loaded("exam: {minutes: 1.5, floor: none, attempts: 3}")
    assert parse_bank(dump_bank(no_floor), "again.yaml", "en").quiz == no_floor


def test_a_retired_question_leaves_its_section_and_the_draws_shrink_with_it() -> None:
    quiz = loaded(
        "exam:\n  sections:\n    - {title: A, questions: [q1, q2], draw: 2}\n"
        "    - {title: B, questions: [q3]}"
    )
    fewer, _ = retire_question(quiz, "q2")
    assert fewer.exam is not None
    assert fewer.exam.sections[0].questions == ("q1",) and fewer.exam.sections[0].draw == 1
    none_left, _ = retire_question(fewer, "q3")
    assert none_left.exam is not None and [s.title for s in none_left.exam.sections] == [
        LocalizedText({"en": "A"})
    ]
    # what was retired still makes a bank that loads
    assert parse_bank(dump_bank(none_left), "after.yaml", "en").errors == ()
    whole = loaded("exam: {draw: 12}")
    smaller, _ = retire_question(whole, "q12")
    assert smaller.exam is not None and smaller.exam.draw == 11


# --- the paper ---------------------------------------------------------------------------


def test_any_quiz_is_an_exam_with_the_defaults_and_a_homework_may_set_the_minutes() -> None:
    quiz = loaded("")
    paper = draw(quiz, rules_of(quiz), seed=7)
    assert sorted(paper.items) == sorted(q.id for q in quiz.questions)
    assert paper.seconds == 12 * 60 and paper.penalty == 0 and paper.attempts == 1
    assert paper.floor and paper.pass_mark is None and not paper.sectioned
    assert draw(quiz, rules_of(quiz, minutes=30), seed=7).seconds == 30 * 60
    sectioned = loaded(SECTIONED)
    assert draw(sectioned, rules_of(sectioned, minutes=5), seed=7).penalty == Fraction(1, 4)


def test_the_same_seed_draws_the_same_paper_and_the_sections_keep_their_draws() -> None:
    quiz = loaded(SECTIONED)
    exam = rules_of(quiz)
    paper = draw(quiz, exam, seed=2024)
    assert paper == draw(quiz, exam, seed=2024)
    assert Paper.from_json(paper.to_json()) == paper
    first, second = paper.parts
    assert len(first.items) == 3 and set(first.items) <= {"q1", "q2", "q3", "q4", "q5", "q6"}
    assert len(second.items) == 2 and set(second.items) <= {"q7", "q8", "q9"}
    assert paper.items == first.items + second.items
    assert paper.seconds == 15 * 60 and paper.pass_mark == 60
    papers = {draw(quiz, exam, seed).items for seed in range(50)}
    assert len(papers) > 40  # two learners' papers differ when the pool allows


def test_drawing_is_uniform() -> None:
    """Over 6,000 seeds, each of a section's six questions is drawn about half the time (3 of
    6), and each of the nine is first in its section as often as the others."""
    quiz = loaded(SECTIONED)
    exam = rules_of(quiz)
    drawn: collections.Counter[str] = collections.Counter()
    first: collections.Counter[str] = collections.Counter()
    runs = 6000
    for seed in range(runs):
        paper = draw(quiz, exam, seed)
        drawn.update(paper.items)
        first[paper.parts[0].items[0]] += 1
    for item in ("q1", "q2", "q3", "q4", "q5", "q6"):
        assert abs(drawn[item] / runs - 0.5) < 0.03, drawn
        assert abs(first[item] / runs - 1 / 6) < 0.02, first
    for item in ("q7", "q8", "q9"):
        assert abs(drawn[item] / runs - 2 / 3) < 0.03, drawn
    assert not {"q10", "q11", "q12"} & set(drawn)  # in no section: never on the paper


# --- the marks ---------------------------------------------------------------------------

RIGHT, WRONG = Choice(0), Choice(1)


def paper_of(*parts: tuple[str, ...], penalty: str = "0.25", floor: bool = True) -> Paper:
    return Paper(
        tuple(PaperPart(LocalizedText({"en": f"Part {i}"}), p) for i, p in enumerate(parts)),
        seconds=600,
        penalty=Fraction(penalty),
        floor=floor,
        pass_mark=Fraction(60),
    )


def test_seven_right_two_wrong_one_unanswered_is_six_and_a_half_of_ten() -> None:
    quiz = loaded("")
    items = tuple(f"q{i}" for i in range(1, 11))
    paper = paper_of(items[:5], items[5:])
    answers = {item: RIGHT for item in items[:7]} | {"q8": WRONG, "q9": WRONG}
    grades = {item: grade(quiz.questions[int(item[1:]) - 1], r) for item, r in answers.items()}
    result = mark_paper(paper, grades)
    assert result.points == Fraction(13, 2) and result.out_of == 10
    assert result.percent == 65 and result.passed
    assert [p.points for p in result.parts] == [5, Fraction(3, 2)]
    assert result.penalties == Fraction(1, 2)
    counts = [result.count(o) for o in Outcome]
    assert counts == [7, 0, 2, 1]
    assert result.missed == ("q8", "q9", "q10")


def _weighted_single() -> model.Question:
    weights = (Decimal(100), Decimal(-50), Decimal(0))
    return model.Question(
        "w",
        LocalizedText({"en": "Weighted"}),
        tuple(LocalizedText({"en": o}) for o in "abc"),
        key=model.SingleAnswer(0, weights),
    )


def test_a_question_with_weights_takes_no_penalty_its_weights_mark_it_down() -> None:
    weighted = _weighted_single()
    plain = loaded("").questions[0]
    paper = paper_of(("w", "p"), penalty="0.5", floor=False)
    result = mark_paper(paper, {"w": grade(weighted, Choice(1)), "p": grade(plain, WRONG)})
    assert [m.points for m in result.items] == [Fraction(-1, 2), Fraction(-1, 2)]
    assert result.points == -1  # no floor
    floored = mark_paper(paper_of(("w", "p"), penalty="0.5"), {"w": grade(weighted, Choice(1))})
    assert floored.points == 0 and floored.parts[0].points == Fraction(-1, 2)


def test_a_partly_right_answer_keeps_its_credit_and_takes_no_penalty() -> None:
    question = model.Question(
        "m",
        LocalizedText({"en": "Which two?"}),
        tuple(LocalizedText({"en": o}) for o in "abcd"),
        key=model.MultipleAnswer(frozenset({0, 1})),
    )
    result = mark_paper(paper_of(("m",)), {"m": grade(question, Selection(frozenset({0})))})
    assert result.points == Fraction(1, 2) and result.items[0].outcome is Outcome.PARTLY


def test_a_retired_question_counts_nowhere() -> None:
    quiz = loaded("")
    paper = paper_of(("q1", "q2", "q3"))
    result = mark_paper(paper, {"q1": grade(quiz.questions[0], RIGHT)}, counted={"q1", "q3"})
    assert result.out_of == 2 and result.points == 1 and [p.out_of for p in result.parts] == [2]


credits = st.sampled_from([Fraction(c) for c in ("-1", "-1/2", "0", "1/3", "1/2", "1")])
answers = st.none() | st.tuples(credits, st.booleans())


@given(
    parts=st.lists(st.lists(answers, min_size=1, max_size=8), min_size=1, max_size=4),
    penalty=st.sampled_from(["0", "0.25", "1/3", "0.5", "1"]),
    floor=st.booleans(),
)
def test_the_total_is_the_credits_less_the_penalty_per_wrong_answer_within_bounds(
    parts: list[list[tuple[Fraction, bool] | None]], penalty: str, floor: bool
) -> None:
    """total = Σ credits − penalty × wrong (a wrong answer: no credit, on a question without
    weights; an unanswered one is not wrong), at least 0 with the floor, at most the number
    of questions."""
    items = [[f"{i}-{j}" for j in range(len(part))] for i, part in enumerate(parts)]
    grades = {}
    for part, names in zip(parts, items, strict=True):
        for answer, name in zip(part, names, strict=True):
            if answer is not None:
                credit, weighted = answer
                if not weighted:  # a question without weights never scores below 0
                    credit = max(credit, Fraction(0))
                grades[name] = Grade(RIGHT, credit, weighted=weighted)
    paper = paper_of(*(tuple(names) for names in items), penalty=penalty, floor=floor)
    result = mark_paper(paper, grades)
    wrong = sum(not g.weighted and g.credit <= 0 for g in grades.values())
    expected = sum((g.credit for g in grades.values()), Fraction(0)) - Fraction(penalty) * wrong
    assert result.points == (max(expected, Fraction(0)) if floor else expected)
    assert result.out_of == sum(len(part) for part in parts)
    assert result.points <= result.out_of
    assert result.points >= (0 if floor else -result.out_of * (1 + Fraction(penalty)))
    assert sum((p.points for p in result.parts), Fraction(0)) == expected
    assert result.penalties == Fraction(penalty) * wrong
