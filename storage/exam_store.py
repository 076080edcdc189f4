"""Exams: an attempt of kind 'exam' (storage/learner_store.py names it after its quiz), its
paper as drawn (`exam_attempts`), and the learner's responses (`exam_responses`).

A response is changeable until the exam ends, and only while its time runs: every write
checks, in its own statement, that the attempt is still open and `ends_at` has not passed.
Ending is one transaction, done once whoever comes first (the learner handing in, the job at
the time limit, a restart that finds the limit passed): the attempt is finished with its
score, and each response becomes an answer and a review of its card, all in that commit.
Nothing of a running exam is an answer or a review before it: no feedback loop mid-exam.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.card_reviews import CardReview, ReviewOf, apply_reviews
from storage.database import Database, Transaction
from storage.learner_store import EXAM, Attempt, attempt_of, exam_name, exam_quiz_id

BY_LEARNER = "learner"
BY_TIME = "time"


@dataclass(frozen=True)
class Sitting:
    """An exam attempt as stored: the attempt (its questions are the paper's, in order), the
    seed it was drawn from, the paper (content/exams.py `Paper`, as JSON), when its time is
    up, the question shown now and the message that shows it, who ended it, and the homework
    it was taken for."""

    attempt: Attempt
    seed: int
    paper: str
    ends_at: float
    position: int
    message_id: int | None
    ended_by: str | None

    @property
    def assignment_id(self) -> int | None:
        """The homework it was taken for (None: the learner's own)."""
        return self.attempt.assignment_id

    @property
    def quiz_id(self) -> str:
        return exam_quiz_id(self.attempt.quiz_id)

    @property
    def open(self) -> bool:
        return self.attempt.finished_at is None

    def time_left(self, now: float) -> float:
        return max(0.0, self.ends_at - now)


@dataclass(frozen=True)
class Response:
    """A learner's answer to a question of a running exam, as it stands: the `chosen` column
    (content/grading.py's `chosen_column`) and a typed reply's text."""

    item: str
    chosen: int
    reply: str | None
    answered_at: float


@dataclass(frozen=True)
class MarkedAnswer:
    """A response as it becomes an answer when the exam ends: graded by the caller."""

    item: str
    chosen: int
    correct: bool
    credit: float | None
    reply: str | None
    answered_at: float


_SITTING = """SELECT a.*, e.seed, e.paper, e.ends_at, e.position, e.message_id, e.ended_by
    FROM exam_attempts e JOIN attempts a ON a.id = e.attempt_id"""

# a response is taken while the attempt runs and its time is not up
_TAKES = """EXISTS (SELECT 1 FROM attempts a JOIN exam_attempts e ON e.attempt_id = a.id
    WHERE a.id = ? AND a.finished_at IS NULL AND e.ends_at > ?)"""


def _sitting(row: Any) -> Sitting:
    return Sitting(
        attempt_of(row),
        int(row["seed"]),
        row["paper"],
        float(row["ends_at"]),
        int(row["position"]),
        row["message_id"],
        row["ended_by"],
    )


class ExamStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def start(
        self,
        user_id: int,
        quiz_id: str,
        items: Sequence[str],
        *,
        seed: int,
        paper: str,
        now: float,
        seconds: float,
        assignment_id: int | None = None,
    ) -> Sitting:
        """Start the learner's exam of the quiz (for homework `assignment_id`) with this paper,
        or return the one running (its paper, drawn when it began, stays)."""
        async with self._database.transaction() as tx:
            rows = await tx.fetchall(
                """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at, kind,
                                         assignment_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(user_id, quiz_id, COALESCE(assignment_id, 0))
                       WHERE finished_at IS NULL DO NOTHING
                   RETURNING id""",
                user_id,
                exam_name(quiz_id),
                json.dumps(list(items)),
                len(items),
                now,
                EXAM,
                assignment_id,
            )
            if rows:
                await tx.execute(
                    """INSERT INTO exam_attempts (attempt_id, seed, paper, ends_at)
                       VALUES (?, ?, ?, ?)""",
                    rows[0]["id"],
                    seed,
                    paper,
                    now + seconds,
                )
        running = await self.running(user_id, quiz_id, assignment_id)
        assert running is not None
        return running

    async def running(
        self, user_id: int, quiz_id: str, assignment_id: int | None = None
    ) -> Sitting | None:
        """The learner's running exam of the quiz (their own, or that homework's)."""
        return await self._database.fetchone_as(
            _sitting,
            f"""{_SITTING} WHERE a.user_id=? AND a.quiz_id=? AND a.assignment_id IS ?
                  AND a.finished_at IS NULL""",
            user_id,
            exam_name(quiz_id),
            assignment_id,
        )

    async def get(self, attempt_id: int) -> Sitting | None:
        return await self._database.fetchone_as(_sitting, f"{_SITTING} WHERE a.id=?", attempt_id)

    async def open_sittings(self) -> list[Sitting]:
        """Every exam not ended yet, soonest time limit first."""
        rows = await self._database.fetchall(
            f"{_SITTING} WHERE e.ended_by IS NULL ORDER BY e.ends_at, a.id"
        )
        return [_sitting(row) for row in rows]

    async def running_for(self, assignment_id: int) -> list[Sitting]:
        """The homework's exams still running."""
        rows = await self._database.fetchall(
            f"{_SITTING} WHERE a.assignment_id=? AND a.finished_at IS NULL ORDER BY a.id",
            assignment_id,
        )
        return [_sitting(row) for row in rows]

    async def hidden_quizzes(self, user_id: int, now: float) -> set[str]:
        """The quizzes whose answers stay hidden from the learner now: those they have an exam
        of running, their own or a homework's, and those of the homework exams they took that
        are still open (until the deadline, their review must not be a key to a classmate)."""
        rows = await self._database.fetchall(
            """SELECT quiz_id FROM attempts
               WHERE user_id=? AND kind=? AND finished_at IS NULL
               UNION
               SELECT a.quiz_id FROM attempts a
               JOIN assignments s ON s.id = a.assignment_id
               WHERE a.user_id=? AND a.kind=? AND s.closed_at IS NULL AND s.deadline > ?""",
            user_id,
            EXAM,
            user_id,
            EXAM,
            now,
        )
        return {exam_quiz_id(row["quiz_id"]) for row in rows}

    async def taken(
        self, user_id: int, quiz_id: str, assignment_id: int | None = None
    ) -> list[Sitting]:
        """The learner's exams of the quiz (their own, or that homework's), running or ended,
        oldest first."""
        rows = await self._database.fetchall(
            f"{_SITTING} WHERE a.user_id=? AND a.quiz_id=? AND a.assignment_id IS ? ORDER BY a.id",
            user_id,
            exam_name(quiz_id),
            assignment_id,
        )
        return [_sitting(row) for row in rows]

    # the responses

    async def responses(self, attempt_id: int) -> dict[str, Response]:
        rows = await self._database.fetchall(
            """SELECT item, chosen, reply, answered_at FROM exam_responses
               WHERE attempt_id=?""",
            attempt_id,
        )
        return {
            row["item"]: Response(row["item"], row["chosen"], row["reply"], row["answered_at"])
            for row in rows
        }

    async def respond(
        self, attempt_id: int, item: str, chosen: int, reply: str | None, now: float
    ) -> bool:
        """Set the response to an item; False (nothing written) once the exam has ended or its
        time is up."""
        async with self._database.transaction() as tx:
            rows = await tx.fetchall(
                f"""INSERT INTO exam_responses (attempt_id, item, chosen, reply, answered_at)
                    SELECT ?, ?, ?, ?, ? WHERE {_TAKES}
                    ON CONFLICT(attempt_id, item) DO UPDATE SET chosen=excluded.chosen,
                        reply=excluded.reply, answered_at=excluded.answered_at
                    RETURNING chosen""",
                attempt_id, item, chosen, reply, now, attempt_id, now,
            )  # fmt: skip
        return bool(rows)

    async def toggle(self, attempt_id: int, item: str, option: int, now: float) -> int | None:
        """Pick an option of a multiple question, or unpick it; the selection after (a bit
        per option; none left is no response), or None once the time is up or it ended."""
        async with self._database.transaction() as tx:
            rows = await tx.fetchall(
                f"""INSERT INTO exam_responses (attempt_id, item, chosen, reply, answered_at)
                    SELECT ?, ?, ?, NULL, ? WHERE {_TAKES}
                    ON CONFLICT(attempt_id, item) DO UPDATE SET
                        chosen = (chosen | excluded.chosen) - (chosen & excluded.chosen),
                        answered_at = excluded.answered_at
                    RETURNING chosen""",
                attempt_id, item, 1 << option, now, attempt_id, now,
            )  # fmt: skip
            if not rows:
                return None
            chosen = int(rows[0]["chosen"])
            if chosen == 0:
                await _clear(tx, attempt_id, item)
        return chosen

    async def clear(self, attempt_id: int, item: str, now: float) -> bool:
        """No response to the item (it counts as unanswered); False once the time is up or
        the exam ended."""
        async with self._database.transaction() as tx:
            rows = await tx.fetchall(f"SELECT {_TAKES}", attempt_id, now)
            if not rows[0][0]:
                return False
            await _clear(tx, attempt_id, item)
        return True

    async def show(self, attempt_id: int, position: int, message_id: int | None) -> None:
        """The question now shown, and the message that shows it (the one whose buttons act)."""
        async with self._database.transaction() as tx:
            await tx.execute(
                "UPDATE exam_attempts SET position=?, message_id=? WHERE attempt_id=?",
                position,
                message_id,
                attempt_id,
            )

    # the end

    async def end(
        self,
        sitting: Sitting,
        ended_by: str,
        now: float,
        score: float,
        total: int,
        answers: Sequence[MarkedAnswer],
    ) -> bool:
        """End the exam, once: finished with its score (of `total`, the questions that count),
        each response an answer and a review of its card (rated from `correct`, at the end),
        in one commit. False if it had ended
        already (the other caller did it)."""
        attempt = sitting.attempt
        quiz_id = sitting.quiz_id
        async with self._database.transaction() as tx:
            cursor = await tx.execute(
                """UPDATE attempts SET finished_at=?, score=?, total=?
                   WHERE id=? AND finished_at IS NULL""",
                now,
                score,
                total,
                attempt.id,
            )
            if cursor.rowcount != 1:
                return False
            await tx.execute(
                "UPDATE exam_attempts SET ended_by=? WHERE attempt_id=?", ended_by, attempt.id
            )
            reviews = []
            for answer in answers:
                rows = await tx.fetchall(
                    """INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen,
                                            correct, answered_at, credit, reply)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                    attempt.id, attempt.user_id, quiz_id, answer.item, answer.chosen,
                    int(answer.correct), answer.answered_at, answer.credit, answer.reply,
                )  # fmt: skip
                review = CardReview(answer.correct, None)
                reviews.append(
                    ReviewOf(attempt.user_id, quiz_id, answer.item, review, now, rows[0]["id"])
                )
            await apply_reviews(tx, reviews)
        return True


async def _clear(tx: Transaction, attempt_id: int, item: str) -> None:
    await tx.execute("DELETE FROM exam_responses WHERE attempt_id=? AND item=?", attempt_id, item)
