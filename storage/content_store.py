"""The admins' part of the database: banks changed through the bot, retired questions, push
schedules, and the statistics of /stats. Every change is committed with its audit entry.

Posted questions themselves are group sessions (storage/group_store.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from storage.audit import AuditLog
from storage.database import Database
from storage.media_store import BankPictures, keep_bank_pictures


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
class WrongReply:
    """A wrong typed reply (numeric and typed questions, private chats) and how often."""

    quiz_id: str
    question_id: str
    reply: str
    count: int


@dataclass(frozen=True)
class CreditStat:
    """The credit of a question's private answers: its sum and count (a multiple question's
    partial credit; an older answer counts as right or wrong)."""

    quiz_id: str
    question_id: str
    answers: int
    credit: float


@dataclass(frozen=True)
class QuizTotals:
    quiz_id: str
    learners: int
    answers: int
    correct: int


# /stats reads the figures kept as answers come and go (migration 20: `question_totals` and
# `quiz_learners`, by triggers): every private answer and every answer to a posted question
# (answers to timed group quizzes count on their leaderboards, not here); a forgotten learner's
# posted answers count as their placeholder's, held ones included (storage/held_answers.py).


class ContentStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    # banks

    async def banks(self) -> list[StoredBank]:
        rows = await self._database.fetchall("SELECT * FROM content_banks ORDER BY quiz_id")
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
        pictures: BankPictures | None = None,
    ) -> None:
        """Store the whole bank, the questions it retires (id, text) and brings back, its
        picture files (`pictures`: all it names; None leaves them as they are) and the audit
        entry: one transaction, so a failure leaves the previous bank in place."""
        async with self._database.transaction() as tx:
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
            if pictures is not None:
                await keep_bank_pictures(tx, quiz_id, pictures, now)
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
            await AuditLog.write(tx, action, admin_id, now, quiz_id, detail)

    async def retired(self, quiz_id: str | None = None) -> list[RetiredQuestion]:
        sql = "SELECT * FROM retired_questions"
        params: tuple[Any, ...] = ()
        if quiz_id is not None:
            sql += " WHERE quiz_id=?"
            params = (quiz_id,)
        rows = await self._database.fetchall(sql + " ORDER BY retired_at, question_id", *params)
        return [
            RetiredQuestion(row["quiz_id"], row["question_id"], row["text"], row["retired_at"])
            for row in rows
        ]

    async def known_question_ids(self, quiz_id: str) -> set[str]:
        """Every question id the quiz ever had that left a trace: retired, answered or posted."""
        rows = await self._database.fetchall(
            """SELECT question_id FROM retired_questions WHERE quiz_id=?
               UNION SELECT question_id FROM question_totals
               WHERE quiz_id=? AND private_answers > 0""",
            quiz_id,
            quiz_id,
        )
        posts = await self._database.fetchall(
            "SELECT question_ids FROM group_sessions WHERE kind='post' AND quiz_id=?", quiz_id
        )
        posted = {question_id for row in posts for question_id in json.loads(row[0])}
        return {row["question_id"] for row in rows} | posted

    # schedules

    async def save_schedule(
        self, quiz_id: str, chat: str, minute_of_day: int, admin_id: int, now: float
    ) -> Schedule:
        async with self._database.transaction() as tx:
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
            detail = {"chat": chat, "minute_of_day": minute_of_day}
            await AuditLog.write(tx, "schedule", admin_id, now, quiz_id, detail)
        row = await self._database.fetchone(
            "SELECT * FROM push_schedules WHERE quiz_id=? AND chat=?", quiz_id, chat
        )
        return Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"])

    async def delete_schedule(
        self, quiz_id: str, chat: str, admin_id: int, now: float
    ) -> Schedule | None:
        """Remove the schedule (audited); the one removed, or None if there was none."""
        async with self._database.transaction() as tx:
            row = await tx.fetchone(
                "SELECT * FROM push_schedules WHERE quiz_id=? AND chat=?", quiz_id, chat
            )
            if row is None:
                return None
            await tx.execute("DELETE FROM push_schedules WHERE id=?", row["id"])
            await AuditLog.write(tx, "unschedule", admin_id, now, quiz_id, {"chat": chat})
        return Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"])

    async def schedules(self) -> list[Schedule]:
        rows = await self._database.fetchall("SELECT * FROM push_schedules ORDER BY id")
        return [
            Schedule(row["id"], row["quiz_id"], row["chat"], row["minute_of_day"]) for row in rows
        ]

    # statistics

    async def quiz_totals(self) -> dict[str, QuizTotals]:
        rows = await self._database.fetchall(
            """SELECT t.quiz_id, l.learners, SUM(t.answers) AS n, SUM(t.correct) AS n_right
               FROM question_totals t
               JOIN (SELECT quiz_id, COUNT(*) AS learners FROM quiz_learners GROUP BY quiz_id) l
                 ON l.quiz_id = t.quiz_id
               GROUP BY t.quiz_id"""
        )
        return {
            row["quiz_id"]: QuizTotals(row["quiz_id"], row["learners"], row["n"], row["n_right"])
            for row in rows
        }

    async def question_stats(self) -> list[QuestionStat]:
        rows = await self._database.fetchall(
            """SELECT quiz_id, question_id, answers, correct FROM question_totals
               WHERE answers > 0"""
        )
        return [QuestionStat(row[0], row[1], row[2], row[3]) for row in rows]

    async def wrong_replies(self) -> list[WrongReply]:
        """Each wrong typed reply as the learner wrote it, counted, most frequent first."""
        rows = await self._database.fetchall(
            """SELECT quiz_id, question_id, reply, COUNT(*) AS n FROM answers
               WHERE reply IS NOT NULL AND correct = 0
               GROUP BY quiz_id, question_id, reply ORDER BY n DESC, reply"""
        )
        return [
            WrongReply(row["quiz_id"], row["question_id"], row["reply"], row["n"]) for row in rows
        ]

    async def questions_with_credit(self) -> list[CreditStat]:
        """The credit of the private answers of every question answered with one."""
        rows = await self._database.fetchall(
            """SELECT quiz_id, question_id, private_answers, credit FROM question_totals
               WHERE credited > 0"""
        )
        return [CreditStat(row[0], row[1], row[2], float(row[3])) for row in rows]

    async def learner_count(self) -> int:
        row = await self._database.fetchone("SELECT COUNT(DISTINCT who) FROM quiz_learners")
        return int(row[0])
