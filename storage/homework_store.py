"""Homework.

An assignment is a quiz posted into a group with a deadline; members take it in private, each
in attempts of their own started from its link and tied to it (`attempts.assignment_id`): an
attempt at the quiz started before, or outside the homework, never counts. It is closed once,
at its deadline or by `/unassign`: `close` says which caller closed it, so results are posted
at most once, whatever a restart does. A member is "done" when one of their attempts at it
finished before the deadline; the one that counts is their first (`FIRST`), or their best
finished in time (`BEST`: members may try again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.database import Database, row_as

FINISHED = "finished"
CANCELLED = "cancelled"
FIRST = "first"  # the first attempt counts: the link hands a finished one back
BEST = "best"  # the best attempt finished in time counts: the link starts another
COUNTS = (FIRST, BEST)


@dataclass(frozen=True)
class Assignment:
    id: int
    chat_id: int
    thread_id: int | None
    quiz_id: str
    deadline: float
    language: str
    timezone: str
    created_by: int | None  # None: an anonymous admin
    created_at: float
    message_id: int | None
    shown_done: int
    reminded_at: float | None
    closed_at: float | None
    outcome: str | None
    counts: str = FIRST  # which of a member's attempts counts: FIRST or BEST
    shuffled: bool = False  # each member's questions in an order of their own
    exam: bool = False  # taken as an exam (bot/learner/exams.py)
    exam_minutes: int | None = None  # its time limit; None: the bank's

    @property
    def open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class Taker:
    """A member who opened the homework, and how their attempt that counts stands (while
    none finished in time: their latest)."""

    user_id: int
    name: str
    attempt_id: int
    opened_at: float  # their first attempt's start
    started_at: float
    finished_at: float | None
    score: float | None  # partial credit counts
    total: int
    tries: int  # attempts started from the link

    def done_by(self, deadline: float) -> bool:
        return self.finished_at is not None and self.finished_at <= deadline


def _assignment(row: Any) -> Assignment:
    return row_as(Assignment, row, shuffled=bool(row["shuffled"]), exam=bool(row["exam"]))


# Each member's attempts at an assignment, the one that counts first: FIRST, the first begun;
# BEST, those finished in time before the others, the best score among them, then the first
# finished; and while none is, the latest begun.
_TAKERS = """
WITH tries AS (
    SELECT a.id AS attempt_id, a.user_id, a.started_at, a.finished_at, a.score, a.total,
           COALESCE(a.finished_at <= s.deadline, 0) AS in_time, s.counts
    FROM attempts a JOIN assignments s ON s.id = a.assignment_id
    WHERE a.assignment_id = ?1 AND (?2 IS NULL OR a.user_id = ?2)
),
ranked AS (
    SELECT t.*,
           MIN(started_at) OVER (PARTITION BY user_id) AS opened_at,
           COUNT(*) OVER (PARTITION BY user_id) AS tries,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY
               CASE WHEN counts = 'first' THEN started_at END,
               in_time DESC,
               CASE WHEN in_time THEN CAST(score AS REAL) / MAX(total, 1) END DESC,
               CASE WHEN in_time THEN finished_at END,
               started_at DESC, attempt_id DESC) AS place
    FROM tries t
)
SELECT r.user_id, u.first_name AS name, r.attempt_id, r.opened_at, r.started_at,
       r.finished_at, r.score, r.total, r.tries
FROM ranked r JOIN users u ON u.user_id = r.user_id
WHERE r.place = 1 ORDER BY r.opened_at, r.user_id
"""


class HomeworkStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    # assignments

    async def create(
        self,
        *,
        chat_id: int,
        thread_id: int | None,
        quiz_id: str,
        deadline: float,
        language: str,
        timezone: str,
        created_by: int | None,
        now: float,
        counts: str = FIRST,
        shuffled: bool = False,
        exam: bool = False,
        exam_minutes: int | None = None,
    ) -> Assignment:
        async with self._database.transaction() as tx:
            cursor = await tx.execute(
                """INSERT INTO assignments (chat_id, thread_id, quiz_id, deadline, language,
                       timezone, created_by, created_at, counts, shuffled, exam, exam_minutes)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                chat_id, thread_id, quiz_id, deadline, language, timezone, created_by, now,
                counts, int(shuffled), int(exam), exam_minutes,
            )  # fmt: skip
            new_id = cursor.lastrowid
        found = await self.get(int(new_id or 0))
        assert found is not None
        return found

    async def get(self, assignment_id: int) -> Assignment | None:
        row = await self._database.fetchone("SELECT * FROM assignments WHERE id=?", assignment_id)
        return None if row is None else _assignment(row)

    async def posted(self, assignment_id: int, message_id: int) -> None:
        async with self._database.transaction() as tx:
            await tx.execute(
                "UPDATE assignments SET message_id=? WHERE id=?", message_id, assignment_id
            )

    async def open_assignments(self, chat_id: int | None = None) -> list[Assignment]:
        """The open assignments of a chat (of every chat with None), oldest first."""
        if chat_id is None:
            rows = await self._database.fetchall(
                "SELECT * FROM assignments WHERE closed_at IS NULL ORDER BY id"
            )
        else:
            rows = await self._database.fetchall(
                "SELECT * FROM assignments WHERE closed_at IS NULL AND chat_id=? ORDER BY id",
                chat_id,
            )
        return [_assignment(row) for row in rows]

    async def open_exam(self, chat_id: int, quiz_id: str) -> Assignment | None:
        """An open homework of the chat that takes the quiz as an exam (its answers stay
        hidden there until its deadline)."""
        return await self._database.fetchone_as(
            _assignment,
            """SELECT * FROM assignments WHERE chat_id=? AND quiz_id=? AND exam=1
                 AND closed_at IS NULL ORDER BY deadline DESC""",
            chat_id,
            quiz_id,
        )

    async def close(self, assignment_id: int, outcome: str, now: float) -> bool:
        """Close an open assignment; False if it was closed already (by the other caller)."""
        return await self._database.update_once(
            "UPDATE assignments SET closed_at=?, outcome=? WHERE id=? AND closed_at IS NULL",
            now,
            outcome,
            assignment_id,
        )

    async def mark_reminded(self, assignment_id: int, now: float) -> bool:
        """Record the one reminder; False if it was sent already."""
        return await self._database.update_once(
            """UPDATE assignments SET reminded_at=?
               WHERE id=? AND reminded_at IS NULL AND closed_at IS NULL""",
            now,
            assignment_id,
        )

    async def set_shown_done(self, assignment_id: int, done: int) -> None:
        async with self._database.transaction() as tx:
            await tx.execute("UPDATE assignments SET shown_done=? WHERE id=?", done, assignment_id)

    # the members who opened it

    async def takers(self, assignment_id: int) -> list[Taker]:
        """Every member who started it, with the attempt that counts, first opened first."""
        rows = await self._database.fetchall(_TAKERS, assignment_id, None)
        return [row_as(Taker, row) for row in rows]

    async def taker(self, assignment_id: int, user_id: int) -> Taker | None:
        """One member's standing: None if they never started it."""
        return await self._database.fetchone_as(
            lambda row: row_as(Taker, row), _TAKERS, assignment_id, user_id
        )

    async def recent_with_counts(
        self, chat_id: int, limit: int = 20
    ) -> list[tuple[Assignment, int, int]]:
        """The chat's homework, the latest first, each with how many members opened it and
        how many finished an attempt by its deadline (`takers`' and `done_count`'s figures),
        in one statement."""
        rows = await self._database.fetchall(
            """SELECT s.*,
                      (SELECT COUNT(DISTINCT a.user_id) FROM attempts a
                       JOIN users u ON u.user_id = a.user_id
                       WHERE a.assignment_id = s.id) AS n_opened,
                      (SELECT COUNT(DISTINCT a.user_id) FROM attempts a
                       WHERE a.assignment_id = s.id AND a.finished_at IS NOT NULL
                         AND a.finished_at <= s.deadline) AS n_done
               FROM assignments s WHERE s.chat_id=? ORDER BY s.id DESC LIMIT ?""",
            chat_id,
            limit,
        )
        return [(_assignment(row), int(row["n_opened"]), int(row["n_done"])) for row in rows]

    async def done_count(self, assignment_id: int, deadline: float) -> int:
        """How many members finished an attempt at it by the deadline."""
        row = await self._database.fetchone(
            """SELECT COUNT(DISTINCT user_id) FROM attempts
               WHERE assignment_id=? AND finished_at IS NOT NULL AND finished_at <= ?""",
            assignment_id,
            deadline,
        )
        return int(row[0])
