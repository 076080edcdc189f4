"""The admins' part of the database: banks changed through the bot, retired questions,
questions posted into chats and their answers, push schedules, and the audit log.

Reached as `repo.content`; uses the Repository's connection and its transaction helper, so
every write is one `BEGIN IMMEDIATE` transaction, committed before the call returns.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.repository import Repository


@dataclass(frozen=True)
class StoredBank:
    quiz_id: str
    yaml: str
    updated_at: float
    updated_by: int


@dataclass(frozen=True)
class RetiredQuestion:
    quiz_id: str
    question_id: str
    text: str
    retired_at: float


@dataclass(frozen=True)
class Post:
    """A question posted into a group or channel, answerable once by each member."""

    id: int
    chat_id: int
    quiz_id: str
    question_id: str
    message_id: int | None
    revealed: bool


@dataclass(frozen=True)
class PostTally:
    answers: int
    correct: int


@dataclass(frozen=True)
class Schedule:
    id: int
    quiz_id: str
    chat: str
    minute_of_day: int  # UTC


@dataclass(frozen=True)
class QuestionStat:
    quiz_id: str
    question_id: str
    answers: int
    correct: int


@dataclass(frozen=True)
class QuizTotals:
    quiz_id: str
    learners: int
    answers: int
    correct: int


@dataclass(frozen=True)
class AuditEntry:
    at: float
    admin_id: int
    action: str
    quiz_id: str | None
    detail: str


def _post(row: Any) -> Post:
    return Post(
        id=row["id"],
        chat_id=row["chat_id"],
        quiz_id=row["quiz_id"],
        question_id=row["question_id"],
        message_id=row["message_id"],
        revealed=row["revealed_at"] is not None,
    )


# Every answer, from private attempts and from posted questions, as one relation.
_ALL_ANSWERS = """
    SELECT user_id, quiz_id, question_id, correct FROM answers
    UNION ALL
    SELECT a.user_id, p.quiz_id, p.question_id, a.correct
    FROM post_answers a JOIN posts p ON p.id = a.post_id
"""


class ContentStore:
    def __init__(self, repo: Repository) -> None:
        self._repo = repo

    # banks

    async def banks(self) -> list[StoredBank]:
        rows = await self._repo._fetchall("SELECT * FROM content_banks ORDER BY quiz_id")
        return [
            StoredBank(row["quiz_id"], row["yaml"], row["updated_at"], row["updated_by"])
            for row in rows
        ]

    async def save_bank(
        self,
        quiz_id: str,
        yaml: str,
        admin_id: int,
        now: float,
        action: str,
        detail: Mapping[str, Any],
        retired: Iterable[tuple[str, str]] = (),
        restored: Iterable[str] = (),
    ) -> None:
        """Store the whole bank, the questions it retires (id, text) and brings back, and the
        audit entry: one transaction, so a failure leaves the previous bank in place."""
        async with self._repo._transaction() as tx:
            await tx.execute(
                """INSERT INTO content_banks (quiz_id, yaml, updated_at, updated_by)
                   VALUES (?, ?, ?, ?)
                   ON CONFLICT(quiz_id) DO UPDATE SET yaml=excluded.yaml,
                       updated_at=excluded.updated_at, updated_by=excluded.updated_by""",
                quiz_id,
                yaml,
                now,
                admin_id,
            )
            for question_id, text in retired:
                await tx.execute(
                    """INSERT INTO retired_questions
                           (quiz_id, question_id, text, retired_at, retired_by)
                       VALUES (?, ?, ?, ?, ?)
                       ON CONFLICT(quiz_id, question_id) DO NOTHING""",
                    quiz_id,
                    question_id,
                    text,
                    now,
                    admin_id,
                )
            for question_id in restored:
                await tx.execute(
                    "DELETE FROM retired_questions WHERE quiz_id=? AND question_id=?",
                    quiz_id,
                    question_id,
                )
            await tx.execute(
                """INSERT INTO audit_log (at, admin_id, action, quiz_id, detail)
                   VALUES (?, ?, ?, ?, ?)""",
                now,
                admin_id,
                action,
                quiz_id,
                json.dumps(dict(detail), ensure_ascii=False, sort_keys=True),
            )

    async def retired(self, quiz_id: str | None = None) -> list[RetiredQuestion]:
        sql = "SELECT * FROM retired_questions"
        params: tuple[Any, ...] = ()
        if quiz_id is not None:
            sql += " WHERE quiz_id=?"
            params = (quiz_id,)
        rows = await self._repo._fetchall(sql + " ORDER BY retired_at, question_id", *params)
        return [
            RetiredQuestion(row["quiz_id"], row["question_id"], row["text"], row["retired_at"])
            for row in rows
        ]

    async def known_question_ids(self, quiz_id: str) -> set[str]:
        """Every question id the quiz ever had that left a trace: retired, answered or posted."""
        rows = await self._repo._fetchall(
            """SELECT question_id FROM retired_questions WHERE quiz_id=?
               UNION SELECT question_id FROM answers WHERE quiz_id=?
               UNION SELECT question_id FROM posts WHERE quiz_id=?""",
            quiz_id,
            quiz_id,
            quiz_id,
        )
        return {row["question_id"] for row in rows}

    # audit

    async def audit(
        self, action: str, admin_id: int, now: float, quiz_id: str | None, detail: Mapping[str, Any]
    ) -> None:
        async with self._repo._transaction() as tx:
            await tx.execute(
                """INSERT INTO audit_log (at, admin_id, action, quiz_id, detail)
                   VALUES (?, ?, ?, ?, ?)""",
                now,
                admin_id,
                action,
                quiz_id,
                json.dumps(dict(detail), ensure_ascii=False, sort_keys=True),
            )

    async def audit_log(self, limit: int = 100) -> list[AuditEntry]:
        rows = await self._repo._fetchall("SELECT * FROM audit_log ORDER BY id DESC LIMIT ?", limit)
        return [
            AuditEntry(row["at"], row["admin_id"], row["action"], row["quiz_id"], row["detail"])
            for row in rows
        ]

    # posted questions

    async def posted_question_ids(self, chat_id: int, quiz_id: str) -> set[str]:
        rows = await self._repo._fetchall(
            "SELECT question_id FROM posts WHERE chat_id=? AND quiz_id=?", chat_id, quiz_id
        )
        return {row["question_id"] for row in rows}

    async def open_posts(self, chat_id: int) -> list[Post]:
        """Posts of the chat whose answer has not been revealed yet."""
        rows = await self._repo._fetchall(
            "SELECT * FROM posts WHERE chat_id=? AND revealed_at IS NULL ORDER BY id", chat_id
        )
        return [_post(row) for row in rows]

    async def get_post(self, post_id: int) -> Post | None:
        row = await self._repo._fetchone("SELECT * FROM posts WHERE id=?", post_id)
        return None if row is None else _post(row)

    async def reserve_post(
        self, chat_id: int, quiz_id: str, question_id: str, admin_id: int | None, now: float
    ) -> Post | None:
        """Record that the question is being posted into the chat (the message id follows with
        `set_post_message`); None if it was posted there already."""
        async with self._repo._transaction() as tx:
            cursor = await tx.execute(
                """INSERT INTO posts (chat_id, quiz_id, question_id, posted_at, posted_by)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(chat_id, quiz_id, question_id) DO NOTHING""",
                chat_id,
                quiz_id,
                question_id,
                now,
                admin_id or 0,
            )
            if cursor.rowcount != 1:
                return None
            await tx.execute(
                """INSERT INTO audit_log (at, admin_id, action, quiz_id, detail)
                   VALUES (?, ?, 'push', ?, ?)""",
                now,
                admin_id or 0,
                quiz_id,
                json.dumps({"chat_id": chat_id, "question": question_id}, sort_keys=True),
            )
        row = await self._repo._fetchone(
            "SELECT * FROM posts WHERE chat_id=? AND quiz_id=? AND question_id=?",
            chat_id,
            quiz_id,
            question_id,
        )
        return _post(row)

    async def set_post_message(self, post_id: int, message_id: int) -> None:
        async with self._repo._transaction() as tx:
            await tx.execute("UPDATE posts SET message_id=? WHERE id=?", message_id, post_id)

    async def drop_post(self, post_id: int) -> None:
        """Forget a post whose message could not be sent (it has no answers)."""
        async with self._repo._transaction() as tx:
            await tx.execute("DELETE FROM posts WHERE id=? AND message_id IS NULL", post_id)

    async def reveal_post(self, post_id: int, now: float) -> bool:
        """Close the post to answers; False if it was revealed already."""
        async with self._repo._transaction() as tx:
            cursor = await tx.execute(
                "UPDATE posts SET revealed_at=? WHERE id=? AND revealed_at IS NULL", now, post_id
            )
            return cursor.rowcount == 1

    async def answer_post(
        self, post_id: int, user_id: int, chosen: int, correct: bool, now: float
    ) -> bool:
        """Store a member's one answer to an open post; False if they had answered, or the
        post is revealed."""
        async with self._repo._transaction() as tx:
            row = await tx.fetchone("SELECT revealed_at FROM posts WHERE id=?", post_id)
            if row is None or row["revealed_at"] is not None:
                return False
            cursor = await tx.execute(
                """INSERT INTO post_answers (post_id, user_id, chosen, correct, answered_at)
                   VALUES (?, ?, ?, ?, ?) ON CONFLICT(post_id, user_id) DO NOTHING""",
                post_id,
                user_id,
                chosen,
                int(correct),
                now,
            )
            return cursor.rowcount == 1

    async def post_tally(self, post_id: int) -> PostTally:
        row = await self._repo._fetchone(
            """SELECT COUNT(*) AS n, COALESCE(SUM(correct), 0) AS n_right
               FROM post_answers WHERE post_id=?""",
            post_id,
        )
        return PostTally(int(row["n"]), int(row["n_right"]))

    # schedules

    async def save_schedule(
        self, quiz_id: str, chat: str, minute_of_day: int, admin_id: int, now: float
    ) -> Schedule:
        async with self._repo._transaction() as tx:
            await tx.execute(
                """INSERT INTO push_schedules (quiz_id, chat, minute_of_day, created_at,
                                               created_by)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(quiz_id, chat) DO UPDATE SET
                       minute_of_day=excluded.minute_of_day, created_at=excluded.created_at,
                       created_by=excluded.created_by""",
                quiz_id,
                chat,
                minute_of_day,
                now,
                admin_id,
            )
            await tx.execute(
                """INSERT INTO audit_log (at, admin_id, action, quiz_id, detail)
                   VALUES (?, ?, 'schedule', ?, ?)""",
                now,
                admin_id,
                quiz_id,
                json.dumps({"chat": chat, "minute_of_day": minute_of_day}, sort_keys=True),
            )
        row = await self._repo._fetchone(
            "SELECT * FROM push_schedules WHERE quiz_id=? AND chat=?", quiz_id, chat
        )
        return Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"])

    async def delete_schedule(
        self, quiz_id: str, chat: str, admin_id: int, now: float
    ) -> Schedule | None:
        """Remove the schedule (audited); the one removed, or None if there was none."""
        async with self._repo._transaction() as tx:
            row = await tx.fetchone(
                "SELECT * FROM push_schedules WHERE quiz_id=? AND chat=?", quiz_id, chat
            )
            if row is None:
                return None
            await tx.execute("DELETE FROM push_schedules WHERE id=?", row["id"])
            await tx.execute(
                """INSERT INTO audit_log (at, admin_id, action, quiz_id, detail)
                   VALUES (?, ?, 'unschedule', ?, ?)""",
                now,
                admin_id,
                quiz_id,
                json.dumps({"chat": chat}),
            )
        return Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"])

    async def schedules(self) -> list[Schedule]:
        rows = await self._repo._fetchall("SELECT * FROM push_schedules ORDER BY id")
        return [
            Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"]) for row in rows
        ]

    # statistics

    async def quiz_totals(self) -> dict[str, QuizTotals]:
        rows = await self._repo._fetchall(
            f"""SELECT quiz_id, COUNT(DISTINCT user_id) AS learners, COUNT(*) AS n,
                       COALESCE(SUM(correct), 0) AS n_right
                FROM ({_ALL_ANSWERS}) GROUP BY quiz_id"""
        )
        return {
            row["quiz_id"]: QuizTotals(row["quiz_id"], row["learners"], row["n"], row["n_right"])
            for row in rows
        }

    async def question_stats(self) -> list[QuestionStat]:
        rows = await self._repo._fetchall(
            f"""SELECT quiz_id, question_id, COUNT(*) AS n, COALESCE(SUM(correct), 0) AS n_right
                FROM ({_ALL_ANSWERS}) GROUP BY quiz_id, question_id"""
        )
        return [
            QuestionStat(row["quiz_id"], row["question_id"], row["n"], row["n_right"])
            for row in rows
        ]

    async def learner_count(self) -> int:
        row = await self._repo._fetchone(f"SELECT COUNT(DISTINCT user_id) FROM ({_ALL_ANSWERS})")
        return int(row[0])
