"""Who got what: the learner × question grid of a group quiz, a homework or a quiz's latest
attempts. One builder for every view of it: `/report`'s picture, the CSV and XLSX files, and
the teacher's dashboard (its JSON, `Grid.as_json`).

A mark is the credit an answer was given, -1 to 1, as it was stored when it was graded (a
multiple question's partial credit, a weighted option's share), or None where the learner
did not answer. Pure: plain data in, a `Grid` out; nothing here grades.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Mark = float | None  # credit -1 to 1; None: not answered


@dataclass(frozen=True)
class GridQuestion:
    id: str
    number: int  # 1-based, in the order asked (a quiz's own order for a quiz's attempts)
    text: str  # plain text, whole

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number, "text": self.text}


@dataclass(frozen=True)
class GridRow:
    name: str  # plain, as Telegram gave it ("" for a learner who asked to be forgotten)
    user_id: int | None  # None: forgotten
    marks: tuple[Mark, ...]  # one per question of the grid, in its order

    @property
    def total(self) -> float:
        """The sum of the credit: an unanswered question counts 0."""
        return sum(mark for mark in self.marks if mark is not None)

    @property
    def answered(self) -> int:
        return sum(mark is not None for mark in self.marks)


@dataclass(frozen=True)
class Grid:
    questions: tuple[GridQuestion, ...]
    learners: tuple[GridRow, ...]  # in the caller's order (a ranking, say)

    def difficulty(self, column: int) -> float:
        """The share of credit a question got from those who answered it (1.0: nobody
        answered it, so nothing says it is hard)."""
        marks = [row.marks[column] for row in self.learners if row.marks[column] is not None]
        return sum(m for m in marks if m is not None) / len(marks) if marks else 1.0

    def condensed(self, max_learners: int, max_questions: int) -> Condensed:
        """What fits a picture: the hardest questions (least credit first; then in order),
        shown in their own order, and the learners with the lowest totals first; and how
        many of each were left out (they are in the file)."""
        columns = sorted(range(len(self.questions)), key=lambda c: (self.difficulty(c), c))[
            :max_questions
        ]
        columns.sort()
        rows = sorted(range(len(self.learners)), key=lambda r: (self.learners[r].total, r))[
            :max_learners
        ]
        shown = Grid(
            tuple(self.questions[c] for c in columns),
            tuple(
                GridRow(
                    self.learners[r].name,
                    self.learners[r].user_id,
                    tuple(self.learners[r].marks[c] for c in columns),
                )
                for r in rows
            ),
        )
        totals = tuple(self.learners[r].total for r in rows)
        return Condensed(
            shown,
            totals,
            len(self.learners) - len(rows),
            len(self.questions) - len(columns),
        )

    def fitted(self, max_learners: int, max_questions: int) -> Condensed:
        """The whole grid, in its order, when it fits; else `condensed`."""
        if len(self.learners) <= max_learners and len(self.questions) <= max_questions:
            return Condensed(self, tuple(row.total for row in self.learners), 0, 0)
        return self.condensed(max_learners, max_questions)

    def as_json(self) -> dict[str, Any]:
        """The dashboard's form: `{"questions": [...], "learners": [{"name", "marks",
        "total"}]}`, a mark the credit -1 to 1 or null; numbers short (1 and 0 without a
        decimal point, a part to 4 decimals: a 1,000 × 50 grid stays small)."""
        return {
            "questions": [q.as_json() for q in self.questions],
            "learners": [
                {
                    "name": row.name,
                    "marks": [
                        _WHOLE[mark] if mark in _WHOLE else None if mark is None else _short(mark)
                        for mark in row.marks
                    ],
                    "total": _short(row.total),
                }
                for row in self.learners
            ],
        }


@dataclass(frozen=True)
class Condensed:
    """A grid cut to fit a picture, with each shown learner's total over every question."""

    grid: Grid
    totals: tuple[float, ...]  # per shown learner: the whole grid's total, not the shown part
    learners_left_out: int
    questions_left_out: int


@dataclass(frozen=True)
class Learner:
    """One learner's answers, as a report read them: credit by question id."""

    name: str
    user_id: int | None
    credit: Mapping[str, float]  # question id -> the credit stored with the answer


def build(questions: Sequence[tuple[str, str]], learners: Sequence[Learner]) -> Grid:
    """The grid of these questions ((id, plain text), in the order shown) and learners (in
    the order given): each mark the stored credit, -1 to 1 (a wrong answer a weight marks
    down counts below 0, as in the score), or None."""
    shown = tuple(GridQuestion(qid, n, text) for n, (qid, text) in enumerate(questions, 1))
    ids = [q.id for q in shown]
    rows = tuple(
        GridRow(
            learner.name,
            learner.user_id,
            tuple(
                mark if mark is None or -1 <= mark <= 1 else _mark(mark)
                for mark in map(learner.credit.get, ids)
            ),
        )
        for learner in learners
    )
    return Grid(shown, rows)


def _short(number: float) -> int | float:
    if number in _WHOLE:
        return _WHOLE[number]
    rounded = round(number, 4)
    return int(rounded) if rounded.is_integer() else rounded


_WHOLE = {-1.0: -1, 0.0: 0, 1.0: 1}  # the common marks, looked up (a grid has 50,000)


def _mark(credit: float | None) -> Mark:
    if credit is None:
        return None
    return float(credit) if -1 <= credit <= 1 else min(1.0, max(-1.0, float(credit)))
