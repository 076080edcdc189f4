"""SQLite storage of group and channel quizzes: sessions, asked questions, answers.

Reached as `Repository.groups`; shares the repository's connection and its write
transaction (one `BEGIN IMMEDIATE` under the write lock, returns after COMMIT).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol


class _Tx(Protocol):
    async def execute(self, sql: str, *params: Any) -> Any: ...
    async def fetchone(self, sql: str, *params: Any) -> Any: ...


Fetch = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class GroupSession:
    id: int
    chat_id: int
    chat_type: str
    quiz_id: str
    question_ids: tuple[str, ...]
    seconds: int
    mode: str  # "buttons" | "poll"
    language: str
    started_by: int | None
    started_at: float
    position: int  # the question being asked (or about to be)
    finished_at: float | None
    outcome: str | None  # "finished" | "stopped"

    @property
    def total(self) -> int:
        return len(self.question_ids)

    @property
    def running(self) -> bool:
        return self.finished_at is None


@dataclass(frozen=True)
class AskedQuestion:
    session_id: int
    position: int
    question_id: str
    message_id: int
    poll_id: str | None
    asked_at: float
    deadline: float
    revealed_at: float | None


class AnswerStatus(Enum):
    RECORDED = "recorded"
    ALREADY = "already"  # this person answered this question before: the first answer stands
    CLOSED = "closed"  # revealed, out of time, not the current question, or the quiz ended


@dataclass(frozen=True)
class GroupAnswerOutcome:
    status: AnswerStatus
    chosen: int | None = None  # the answer that stands (for RECORDED and ALREADY)
    points: int = 0


@dataclass(frozen=True)
class RevealStep:
    """What revealing a question did: `revealed` is False when it was revealed already."""

    revealed: bool
    next_position: int | None = None  # None: that was the last question, the session ended


@dataclass(frozen=True)
class ScoreRow:
    user_id: int
    name: str
    points: int
    correct: int
    answered: int
    total_time: float

    @property
    def forgotten(self) -> bool:
        """The points of a learner who deleted their data (storage/privacy.py)."""
        return self.user_id < 0


def _session(row: Any) -> GroupSession:
    return GroupSession(
        id=row["id"],
        chat_id=row["chat_id"],
        chat_type=row["chat_type"],
        quiz_id=row["quiz_id"],
        question_ids=tuple(json.loads(row["question_ids"])),
        seconds=row["seconds"],
        mode=row["mode"],
        language=row["language"],
        started_by=row["started_by"],
        started_at=row["started_at"],
        position=row["position"],
        finished_at=row["finished_at"],
        outcome=row["outcome"],
    )


def _asked(row: Any) -> AskedQuestion:
    return AskedQuestion(
        session_id=row["session_id"],
        position=row["position"],
        question_id=row["question_id"],
        message_id=row["message_id"],
        poll_id=row["poll_id"],
        asked_at=row["asked_at"],
        deadline=row["deadline"],
        revealed_at=row["revealed_at"],
    )


_SCORES = """SELECT a.user_id,
       (SELECT b.name FROM group_answers b WHERE b.user_id=a.user_id
        ORDER BY b.answered_at DESC LIMIT 1) AS name,
       SUM(a.points) AS points, SUM(a.correct) AS correct, COUNT(*) AS answered,
       SUM(a.elapsed) AS total_time
FROM group_answers a JOIN group_sessions s ON s.id = a.session_id
WHERE {where}
GROUP BY a.user_id"""


class GroupStore:
    def __init__(
        self, transaction: Callable[[], AbstractAsyncContextManager[_Tx]], fetchone: Fetch,
        fetchall: Fetch,
    ) -> None:  # fmt: skip
        self._transaction = transaction
        self._fetchone = fetchone
        self._fetchall = fetchall

    # sessions

    async def start_session(
        self,
        *,
        chat_id: int,
        chat_type: str,
        quiz_id: str,
        question_ids: tuple[str, ...],
        seconds: int,
        mode: str,
        language: str,
        started_by: int | None,
        now: float,
    ) -> GroupSession | None:
        """Start a session for the chat; None when one is running there already."""
        async with self._transaction() as tx:
            cursor = await tx.execute(
                """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids,
                       seconds, mode, language, started_by, started_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(chat_id) WHERE finished_at IS NULL DO NOTHING""",
                chat_id,
                chat_type,
                quiz_id,
                json.dumps(list(question_ids)),
                seconds,
                mode,
                language,
                started_by,
                now,
            )
            created = cursor.rowcount == 1
            session_id = cursor.lastrowid
        return await self.get_session(session_id) if created else None

    async def get_session(self, session_id: int) -> GroupSession | None:
        row = await self._fetchone("SELECT * FROM group_sessions WHERE id=?", session_id)
        return None if row is None else _session(row)

    async def running_session(self, chat_id: int) -> GroupSession | None:
        row = await self._fetchone(
            "SELECT * FROM group_sessions WHERE chat_id=? AND finished_at IS NULL", chat_id
        )
        return None if row is None else _session(row)

    async def running_sessions(self) -> list[GroupSession]:
        rows = await self._fetchall(
            "SELECT * FROM group_sessions WHERE finished_at IS NULL ORDER BY id"
        )
        return [_session(row) for row in rows]

    async def latest_session(self, chat_id: int) -> GroupSession | None:
        """The chat's running session, else its most recent one."""
        row = await self._fetchone(
            """SELECT * FROM group_sessions WHERE chat_id=?
               ORDER BY finished_at IS NULL DESC, id DESC LIMIT 1""",
            chat_id,
        )
        return None if row is None else _session(row)

    async def stop_session(self, session_id: int, now: float) -> bool:
        """End a running session early; False when it had ended already."""
        async with self._transaction() as tx:
            cursor = await tx.execute(
                """UPDATE group_sessions SET finished_at=?, outcome='stopped'
                   WHERE id=? AND finished_at IS NULL""",
                now,
                session_id,
            )
            return bool(cursor.rowcount == 1)

    # questions

    async def question_asked(
        self,
        session_id: int,
        position: int,
        question_id: str,
        message_id: int,
        poll_id: str | None,
        asked_at: float,
        deadline: float,
    ) -> None:
        """Record that the question at `position` was posted (a re-post replaces the record)."""
        async with self._transaction() as tx:
            await tx.execute(
                """INSERT INTO group_questions (session_id, position, question_id, message_id,
                       poll_id, asked_at, deadline)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(session_id, position) DO UPDATE SET
                       message_id=excluded.message_id, poll_id=excluded.poll_id,
                       asked_at=excluded.asked_at, deadline=excluded.deadline""",
                session_id,
                position,
                question_id,
                message_id,
                poll_id,
                asked_at,
                deadline,
            )

    async def asked(self, session_id: int, position: int) -> AskedQuestion | None:
        row = await self._fetchone(
            "SELECT * FROM group_questions WHERE session_id=? AND position=?",
            session_id,
            position,
        )
        return None if row is None else _asked(row)

    async def asked_by_poll(self, poll_id: str) -> AskedQuestion | None:
        row = await self._fetchone("SELECT * FROM group_questions WHERE poll_id=?", poll_id)
        return None if row is None else _asked(row)

    async def reveal(self, session_id: int, position: int, now: float) -> RevealStep:
        """Close the question and move the session on, in one commit; idempotent."""
        async with self._transaction() as tx:
            session = await tx.fetchone(
                "SELECT position, question_ids, finished_at FROM group_sessions WHERE id=?",
                session_id,
            )
            if session is None or session["finished_at"] is not None:
                return RevealStep(revealed=False)
            if session["position"] != position:
                return RevealStep(revealed=False)
            cursor = await tx.execute(
                """UPDATE group_questions SET revealed_at=?
                   WHERE session_id=? AND position=? AND revealed_at IS NULL""",
                now,
                session_id,
                position,
            )
            if cursor.rowcount != 1:
                return RevealStep(revealed=False)
            following = position + 1
            if following >= len(json.loads(session["question_ids"])):
                await tx.execute(
                    """UPDATE group_sessions SET position=?, finished_at=?, outcome='finished'
                       WHERE id=?""",
                    following,
                    now,
                    session_id,
                )
                return RevealStep(revealed=True, next_position=None)
            await tx.execute(
                "UPDATE group_sessions SET position=? WHERE id=?", following, session_id
            )
            return RevealStep(revealed=True, next_position=following)

    # answers

    async def record_answer(
        self,
        *,
        session_id: int,
        position: int,
        question_id: str,
        user_id: int,
        name: str,
        chosen: int,
        correct: bool,
        elapsed: float,
        points: int,
        now: float,
    ) -> GroupAnswerOutcome:
        """Store a person's first answer to the current, open question; one commit.

        Refused (CLOSED) unless the session runs, `position` is its current question, that
        question is not revealed and its deadline has not passed at `now`.
        """
        async with self._transaction() as tx:
            previous = await tx.fetchone(
                """SELECT chosen, points FROM group_answers
                   WHERE session_id=? AND position=? AND user_id=?""",
                session_id,
                position,
                user_id,
            )
            if previous is not None:
                return GroupAnswerOutcome(
                    AnswerStatus.ALREADY, previous["chosen"], previous["points"]
                )
            open_row = await tx.fetchone(
                """SELECT 1 FROM group_sessions s JOIN group_questions q ON q.session_id = s.id
                   WHERE s.id=? AND s.finished_at IS NULL AND s.position=? AND q.position=?
                     AND q.question_id=? AND q.revealed_at IS NULL AND q.deadline >= ?""",
                session_id,
                position,
                position,
                question_id,
                now,
            )
            if open_row is None:
                return GroupAnswerOutcome(AnswerStatus.CLOSED)
            await tx.execute(
                """INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                       chosen, correct, elapsed, points, answered_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                session_id,
                position,
                question_id,
                user_id,
                name,
                chosen,
                int(correct),
                elapsed,
                points,
                now,
            )
        return GroupAnswerOutcome(AnswerStatus.RECORDED, chosen, points)

    async def answer_counts(self, session_id: int, position: int) -> dict[int, int]:
        """How many chose each option (options nobody chose are absent)."""
        rows = await self._fetchall(
            """SELECT chosen, COUNT(*) AS n FROM group_answers
               WHERE session_id=? AND position=? GROUP BY chosen""",
            session_id,
            position,
        )
        return {row["chosen"]: row["n"] for row in rows}

    async def session_scores(self, session_id: int) -> list[ScoreRow]:
        return await self._scores("a.session_id=?", session_id)

    async def chat_scores(self, chat_id: int) -> list[ScoreRow]:
        return await self._scores("s.chat_id=?", chat_id)

    async def _scores(self, where: str, value: int) -> list[ScoreRow]:
        rows = await self._fetchall(_SCORES.format(where=where), value)
        return [
            ScoreRow(
                user_id=row["user_id"],
                name=row["name"] or "",
                points=int(row["points"] or 0),
                correct=int(row["correct"] or 0),
                answered=int(row["answered"]),
                total_time=float(row["total_time"] or 0.0),
            )
            for row in rows
        ]

    async def count_answers(self) -> int:
        row = await self._fetchone("SELECT COUNT(*) FROM group_answers")
        return int(row[0])
