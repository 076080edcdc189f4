"""The learner × question grid (content/grid.py): one builder for /report's picture, its files
and the dashboard; a mark is the stored credit -1 to 1, or None where nothing was answered."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from content import grid

CREDIT = st.one_of(st.none(), st.sampled_from([0.0, 1.0, 0.5, 2 / 3]), st.floats(-1, 2))


@st.composite
def grids(draw: st.DrawFn) -> grid.Grid:
    questions = [(f"q{n}", f"Question {n}?") for n in range(draw(st.integers(0, 14)))]
    learners = [
        grid.Learner(
            f"L{n}",
            draw(st.one_of(st.none(), st.integers(1, 10**9))),
            {qid: c for qid, _ in questions if (c := draw(CREDIT)) is not None},
        )
        for n in range(draw(st.integers(0, 30)))
    ]
    return grid.build(questions, learners)


def test_marks_are_the_stored_credit_and_totals_their_sum() -> None:
    built = grid.build(
        [("a", "A?"), ("b", "B?"), ("c", "C?")],
        [
            grid.Learner("Ada", 1, {"a": 1.0, "b": 2 / 3}),
            grid.Learner("", None, {"c": 0.0, "gone": 1.0}),  # forgotten; a retired question
        ],
    )
    assert [q.number for q in built.questions] == [1, 2, 3]
    assert [row.marks for row in built.learners] == [(1.0, 2 / 3, None), (None, None, 0.0)]
    assert [row.total for row in built.learners] == [1.0 + 2 / 3, 0.0]
    assert [row.answered for row in built.learners] == [2, 1]
    assert [built.difficulty(c) for c in range(3)] == [1.0, 2 / 3, 0.0]
    # short numbers: a whole mark without a decimal point (a 1,000 × 50 grid stays small)
    assert '"marks": [1, 0.6667, null]' in json.dumps(built.as_json())
    assert json.loads(json.dumps(built.as_json())) == {
        "questions": [
            {"id": "a", "number": 1, "text": "A?"},
            {"id": "b", "number": 2, "text": "B?"},
            {"id": "c", "number": 3, "text": "C?"},
        ],
        "learners": [
            {"name": "Ada", "marks": [1, 0.6667, None], "total": 1.6667},
            {"name": "", "marks": [None, None, 0], "total": 0},
        ],
    }


def test_a_mark_below_zero_stays_below_zero_as_in_the_score() -> None:
    built = grid.build([("a", "A?"), ("b", "B?")], [grid.Learner("Bo", 2, {"a": -1.0, "b": 0.5})])
    assert built.learners[0].marks == (-1.0, 0.5) and built.learners[0].total == -0.5


@given(grids())
def test_every_mark_is_credit_or_none_and_a_total_their_sum(built: grid.Grid) -> None:
    for row in built.learners:
        assert len(row.marks) == len(built.questions)
        assert all(m is None or -1.0 <= m <= 1.0 for m in row.marks)
        assert row.total == sum(m for m in row.marks if m is not None)


@given(grids(), st.integers(1, 20), st.integers(1, 12))
def test_what_fits_a_picture_is_the_hardest_questions_and_the_lowest_totals(
    built: grid.Grid, max_learners: int, max_questions: int
) -> None:
    cut = built.fitted(max_learners, max_questions)
    shown = cut.grid
    assert len(shown.learners) == min(max_learners, len(built.learners))
    assert len(shown.questions) == min(max_questions, len(built.questions))
    assert cut.learners_left_out + len(shown.learners) == len(built.learners)
    assert cut.questions_left_out + len(shown.questions) == len(built.questions)
    fits = len(built.learners) <= max_learners and len(built.questions) <= max_questions
    if fits:
        assert shown == built  # the whole grid, in its order
        return
    # the questions shown are in their own order, and none left out is harder
    numbers = [q.number for q in shown.questions]
    assert numbers == sorted(numbers)
    kept = {q.number - 1 for q in shown.questions}
    hardest_kept = max((built.difficulty(c) for c in kept), default=0.0)
    assert (
        all(
            built.difficulty(c) >= hardest_kept
            for c in range(len(built.questions))
            if c not in kept
        )
        or not kept
    )
    # the learners shown: lowest totals first, the totals over the whole grid
    assert list(cut.totals) == sorted(cut.totals)
    left = sorted(row.total for row in built.learners)[len(shown.learners) :]
    assert all(total >= max(cut.totals, default=0.0) for total in left)
