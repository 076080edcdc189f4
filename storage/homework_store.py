"""Homework.

An assignment is a quiz posted into a group with a deadline; members take it in private, each
as one ordinary attempt tagged to it (`homework_attempts`). It is closed once, at its deadline
or by `/unassign`: `close` says which caller closed it, so results are posted at most once,
whatever a restart does. A member is "done" when their tagged attempt finished before the
deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.database import Database, row_as

FINISHED = "finished"
CANCELLED = "cancelled"


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

    @property
    def open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class Taker:
    """A member who opened the homework, and how their tagged attempt stands."""

    user_id: int
    name: str
    attempt_id: int
    opened_at: float
    started_at: float
    finished_at: float | None
    score: int | None
    total: int

    def done_by(self, deadline: float) -> bool:
        return self.finished_at is not None and self.finished_at <= deadline


def _assignment(row: Any) -> Assignment:
    return row_as(Assignment, row)


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
    ) -> Assignment:
        async with self._database.transaction() as tx:
            cursor = await tx.execute(
                """INSERT INTO assignments (chat_id, thread_id, quiz_id, deadline, language,
                       timezone, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                chat_id, thread_id, quiz_id, deadline, language, timezone, created_by, now,
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

    async def recent_assignments(self, chat_id: int, limit: int = 20) -> list[Assignment]:
        """The chat's homework, open or closed, the latest first."""
        rows = await self._database.fetchall(
            "SELECT * FROM assignments WHERE chat_id=? ORDER BY id DESC LIMIT ?", chat_id, limit
        )
        return [_assignment(row) for row in rows]

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

    async def tag(self, assignment_id: int, user_id: int, attempt_id: int, now: float) -> int:
        """Tag a member's attempt to the assignment, once: the attempt that counts (the one
        tagged before, if any)."""
        async with self._database.transaction() as tx:
            await tx.execute(
                """INSERT INTO homework_attempts (assignment_id, user_id, attempt_id, opened_at)
                   VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING""",
                assignment_id,
                user_id,
                attempt_id,
                now,
            )
            row = await tx.fetchone(
                """SELECT attempt_id FROM homework_attempts
                   WHERE assignment_id=? AND user_id=?""",
                assignment_id,
                user_id,
            )
        return int(row["attempt_id"])

    async def takers(self, assignment_id: int) -> list[Taker]:
        rows = await self._database.fetchall(
            """SELECT h.user_id, u.first_name AS name, h.attempt_id, h.opened_at, a.started_at,
                      a.finished_at, a.score, a.total
               FROM homework_attempts h JOIN attempts a ON a.id = h.attempt_id
               JOIN users u ON u.user_id = h.user_id
               WHERE h.assignment_id=? ORDER BY h.opened_at""",
            assignment_id,
        )
        return [row_as(Taker, row) for row in rows]

    async def done_count(self, assignment_id: int, deadline: float) -> int:
        row = await self._database.fetchone(
            """SELECT COUNT(*) FROM homework_attempts h JOIN attempts a ON a.id = h.attempt_id
               WHERE h.assignment_id=? AND a.finished_at IS NOT NULL AND a.finished_at <= ?""",
            assignment_id,
            deadline,
        )
        return int(row[0])
