"""Exams: a quiz taken against the clock, on a paper drawn from its questions, marked only at
the end, with a penalty for each wrong answer. Pure functions over plain data; the bot keeps
the clock and the answers (bot/learner/exams.py), storage keeps the paper.

- `rules_of`: a quiz's exam settings (its bank's `exam:` block, else the defaults: every
  question, a minute each, no penalty, one attempt), a homework's minutes instead of the
  bank's when it names some.
- `draw`: the paper of one attempt, drawn once from a seed (the same seed and bank always
  give the same paper; every question of a pool equally likely, in an order of its own):
  with sections, each section's draw from its own questions, in the sections' order; without,
  `draw` questions from the whole bank.
- `mark_paper`: the result, over the answers' grades (content/grading.py grades each answer,
  `mark_responses` has it grade the stored ones; nothing here grades): a question counts
  its credit; a wrong answer (no credit) costs the
  penalty, unless the question has weights (its negative weights already mark it down); an
  unanswered question counts 0; the total is at least 0 unless the bank says `floor: none`.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from content.grading import Grade, grade, stored_response, with_penalty
from content.model import Exam, LocalizedText, Quiz

SECONDS_PER_QUESTION = 60  # the time limit when the bank names none
DEFAULT_EXAM = Exam()


def rules_of(quiz: Quiz, minutes: int | None = None, attempts: int | None = None) -> Exam:
    """The quiz's exam settings, with `minutes` as its time limit and `attempts` as the
    attempts a learner may take when given (a homework's)."""
    exam = quiz.exam or DEFAULT_EXAM
    if minutes is not None:
        exam = dataclasses.replace(exam, minutes=Decimal(minutes))
    if attempts is not None:
        exam = dataclasses.replace(exam, attempts=attempts)
    return exam


def exam_without(exam: Exam, question_id: str, questions_left: int) -> Exam:
    """The exam settings once a question is retired from the bank: the question leaves its
    section (a section left empty goes), and no draw asks for more than is left."""
    sections = []
    for section in exam.sections:
        kept = tuple(q for q in section.questions if q != question_id)
        if kept:
            draw = None if section.draw is None else min(section.draw, len(kept))
            sections.append(dataclasses.replace(section, questions=kept, draw=draw))
    if sections:
        draw = None if exam.draw is None else sum(s.draw or len(s.questions) for s in sections)
    else:
        draw = None if exam.draw is None else min(exam.draw, questions_left)
    return dataclasses.replace(exam, sections=tuple(sections), draw=draw)


@dataclass(frozen=True)
class PaperPart:
    """A section of a paper as drawn (`title` None: the paper of an exam without sections)."""

    title: LocalizedText | None
    items: tuple[str, ...]


@dataclass(frozen=True)
class Paper:
    """One attempt's exam, drawn once and stored with it: its questions by section, its time
    limit, and what it is marked by (kept as they were when it began, whatever the bank
    becomes meanwhile)."""

    parts: tuple[PaperPart, ...]
    seconds: int
    penalty: Fraction
    floor: bool = True
    pass_mark: Fraction | None = None  # percent
    attempts: int = 1  # how many a learner may take (0: any number)

    @property
    def items(self) -> tuple[str, ...]:
        return tuple(item for part in self.parts for item in part.items)

    @property
    def sectioned(self) -> bool:
        return any(part.title is not None for part in self.parts)

    def part_of(self, item: str) -> PaperPart | None:
        return next((part for part in self.parts if item in part.items), None)

    def to_json(self) -> str:
        return json.dumps(
            {
                "parts": [
                    {
                        "title": None if p.title is None else dict(p.title.translations),
                        "items": list(p.items),
                    }
                    for p in self.parts
                ],
                "seconds": self.seconds,
                "penalty": str(self.penalty),
                "floor": self.floor,
                "pass": None if self.pass_mark is None else str(self.pass_mark),
                "attempts": self.attempts,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Paper:
        data: dict[str, Any] = json.loads(text)
        return cls(
            parts=tuple(
                PaperPart(
                    None if part["title"] is None else LocalizedText(part["title"]),
                    tuple(part["items"]),
                )
                for part in data["parts"]
            ),
            seconds=int(data["seconds"]),
            penalty=Fraction(data["penalty"]),
            floor=bool(data["floor"]),
            pass_mark=None if data["pass"] is None else Fraction(data["pass"]),
            attempts=int(data["attempts"]),
        )


def draw(quiz: Quiz, exam: Exam, seed: int) -> Paper:
    """The paper an attempt with this seed sits (see the module's docstring). A section's
    questions no longer in the bank are not drawn; a draw larger than what is left takes what
    is left."""
    rng = random.Random(seed)
    if exam.sections:
        parts = []
        for section in exam.sections:
            pool = [item for item in section.questions if quiz.question(item) is not None]
            wanted = len(pool) if section.draw is None else min(section.draw, len(pool))
            parts.append(PaperPart(section.title, tuple(rng.sample(pool, wanted))))
    else:
        pool = [question.id for question in quiz.questions]
        wanted = len(pool) if exam.draw is None else min(exam.draw, len(pool))
        parts = [PaperPart(None, tuple(rng.sample(pool, wanted)))]
    count = sum(len(part.items) for part in parts)
    seconds = SECONDS_PER_QUESTION * count if exam.minutes is None else round(exam.minutes * 60)
    return Paper(
        parts=tuple(parts),
        seconds=max(1, int(seconds)),
        penalty=Fraction(exam.penalty),
        floor=exam.floor,
        pass_mark=None if exam.pass_mark is None else Fraction(exam.pass_mark),
        attempts=exam.attempts,
    )


class Outcome(StrEnum):
    RIGHT = "right"
    PARTLY = "partly"  # some credit, not all
    WRONG = "wrong"  # no credit (or less than none: a weight marked it down)
    UNANSWERED = "unanswered"


@dataclass(frozen=True)
class MarkedItem:
    """One question of a paper as marked: its answer's grade (None: not answered) and the
    points it counts for in the exam (its credit, less the penalty of a wrong answer)."""

    item: str
    grade: Grade | None
    points: Fraction

    @property
    def outcome(self) -> Outcome:
        if self.grade is None:
            return Outcome.UNANSWERED
        if self.grade.fully_right:
            return Outcome.RIGHT
        return Outcome.PARTLY if self.grade.partly_right else Outcome.WRONG

    @property
    def penalty_taken(self) -> Fraction:
        return Fraction(0) if self.grade is None else self.grade.credit - self.points


@dataclass(frozen=True)
class PartResult:
    title: LocalizedText | None
    points: Fraction  # may be below 0: the floor is the total's
    out_of: int


@dataclass(frozen=True)
class ExamResult:
    items: tuple[MarkedItem, ...]
    parts: tuple[PartResult, ...]
    points: Fraction  # the total, at least 0 unless the exam has no floor
    out_of: int
    pass_mark: Fraction | None

    @property
    def percent(self) -> Fraction:
        return 100 * self.points / self.out_of if self.out_of else Fraction(0)

    @property
    def passed(self) -> bool | None:
        return None if self.pass_mark is None else self.percent >= self.pass_mark

    @property
    def penalties(self) -> Fraction:
        return sum((item.penalty_taken for item in self.items), Fraction(0))

    def count(self, outcome: Outcome) -> int:
        return sum(item.outcome is outcome for item in self.items)

    @property
    def missed(self) -> tuple[str, ...]:
        """The questions not fully right (unanswered ones too), in the paper's order."""
        return tuple(item.item for item in self.items if item.outcome is not Outcome.RIGHT)


def mark_paper(
    paper: Paper, grades: Mapping[str, Grade], counted: Collection[str] | None = None
) -> ExamResult:
    """The result of a paper whose answers were graded `grades` (by item; an item without one
    is unanswered). Items not `counted` (retired from the bank since) count nowhere."""
    marked, parts = [], []
    for part in paper.parts:
        items = [item for item in part.items if counted is None or item in counted]
        part_marks = []
        for item in items:
            grade = grades.get(item)
            points = Fraction(0) if grade is None else with_penalty(grade, paper.penalty)
            part_marks.append(MarkedItem(item, grade, points))
        marked.extend(part_marks)
        parts.append(
            PartResult(part.title, sum((m.points for m in part_marks), Fraction(0)), len(items))
        )
    total = sum((part.points for part in parts), Fraction(0))
    return ExamResult(
        items=tuple(marked),
        parts=tuple(parts),
        points=max(total, Fraction(0)) if paper.floor else total,
        out_of=len(marked),
        pass_mark=paper.pass_mark,
    )


def mark_responses(
    quiz: Quiz | None, paper: Paper, responses: Mapping[str, tuple[int, str | None]]
) -> ExamResult:
    """The result of a paper from its stored responses (by item: the `chosen` column and a
    typed reply, content/grading.py's `stored_response` reads them), each graded by
    content/grading.py; the questions retired from the quiz since (or all, when the quiz is
    gone) count nowhere."""
    grades = {}
    for item, (chosen, reply) in responses.items():
        question = quiz.question(item) if quiz is not None else None
        if question is not None:
            grades[item] = grade(question, stored_response(question, chosen, reply))
    counted = {item for item in paper.items if quiz is not None and quiz.question(item)}
    return mark_paper(paper, grades, counted)
