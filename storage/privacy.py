"""Deleting a learner's data: what `/forgetme` and `python -m storage prune` both do.

A learner's own records go: answers, review log, spaced-repetition cards, attempts (running and
finished), and the `users` row (name, languages, time zone, reminder). Their answers in group
quizzes and to posted questions are kept but anonymized: the Telegram id is replaced by a
negative placeholder (one per forgotten learner, never an id Telegram uses) and the name is
emptied, so a group's ranking and a post's tally keep their totals and show "(deleted)" where
the person was. Group quizzes they started forget who started them. Admins' own actions
(banks, posts, schedules, the audit log) are not a learner's data and stay.

Each deletion is audited in the same transaction, without the person: the audit row says what
was removed and how many rows, never whose (no id, no hash of one: a hash of a Telegram id is
reversible by trying every id).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

FORGET_ACTION = "forget_learner"  # /forgetme
PRUNE_ACTION = "prune_inactive"  # python -m storage prune
OPERATOR = 0  # the audit log's admin_id for actions that are no admin's

# Deleted, in this order (rows that point at others first), by learner.
_DELETES = (
    ("review_log", "DELETE FROM review_log WHERE user_id=?"),
    ("cards", "DELETE FROM cards WHERE user_id=?"),
    ("answers", "DELETE FROM answers WHERE user_id=?"),
    ("attempts", "DELETE FROM attempts WHERE user_id=?"),
    ("users", "DELETE FROM users WHERE user_id=?"),
)
# Kept for others' totals, with the person replaced by a placeholder.
_ANONYMIZES = (
    ("group_answers", "UPDATE group_answers SET user_id=?, name='' WHERE user_id=?"),
    ("post_answers", "UPDATE post_answers SET user_id=? WHERE user_id=?"),
)

# Last sign of life of every learner: joining, a quiz started, an answer anywhere. Not
# `users.updated_at`: the bot moves it too (a reminder sent, a block noticed).
INACTIVE_SINCE = """
WITH activity(user_id, at) AS (
    SELECT user_id, created_at FROM users
    UNION ALL SELECT user_id, MAX(started_at, COALESCE(finished_at, 0)) FROM attempts
    UNION ALL SELECT user_id, answered_at FROM answers
    UNION ALL SELECT user_id, answered_at FROM group_answers
    UNION ALL SELECT user_id, answered_at FROM post_answers
)
SELECT user_id FROM activity WHERE user_id > 0
GROUP BY user_id HAVING MAX(at) < ? ORDER BY user_id
"""


class _Tx(Protocol):
    async def execute(self, sql: str, *params: Any) -> Any: ...
    async def fetchone(self, sql: str, *params: Any) -> Any: ...
    async def fetchall(self, sql: str, *params: Any) -> list[Any]: ...


@dataclass(frozen=True)
class Forgotten:
    """What a deletion removed (`deleted`) and anonymized (`anonymized`), in rows per table."""

    learners: int
    deleted: dict[str, int]
    anonymized: dict[str, int]

    def describe(self) -> str:
        parts = [f"{table} {n}" for table, n in self.deleted.items()]
        kept = [f"{table} {n}" for table, n in self.anonymized.items()]
        return (
            f"{self.learners} learner(s): deleted {', '.join(parts)}; anonymized {', '.join(kept)}"
        )

    def audit_detail(self) -> str:
        return json.dumps(
            {"learners": self.learners, "deleted": self.deleted, "anonymized": self.anonymized},
            sort_keys=True,
        )


async def forget(
    tx: _Tx, user_ids: Sequence[int], now: float, action: str, detail: dict[str, Any] | None = None
) -> Forgotten:
    """Delete (and anonymize) the data of `user_ids` inside the caller's transaction, and
    audit it as `action` with `detail` (never an identity)."""
    deleted = dict.fromkeys((table for table, _ in _DELETES), 0)
    anonymized = dict.fromkeys((table for table, _ in _ANONYMIZES), 0)
    placeholder = await _next_placeholder(tx)
    learners = 0
    for user_id in user_ids:
        touched = 0
        for table, sql in _ANONYMIZES:
            cursor = await tx.execute(sql, placeholder, user_id)
            anonymized[table] += cursor.rowcount
            touched += cursor.rowcount
        if touched:
            placeholder -= 1
        await tx.execute("UPDATE group_sessions SET started_by=NULL WHERE started_by=?", user_id)
        for table, sql in _DELETES:
            cursor = await tx.execute(sql, user_id)
            deleted[table] += cursor.rowcount
            touched += cursor.rowcount
        learners += 1 if touched else 0
    forgotten = Forgotten(learners, deleted, anonymized)
    if learners:
        audit = json.loads(forgotten.audit_detail()) | (detail or {})
        await tx.execute(
            "INSERT INTO audit_log (at, admin_id, action, quiz_id, detail) VALUES (?, ?, ?, NULL, ?)",
            now,
            OPERATOR,
            action,
            json.dumps(audit, sort_keys=True),
        )
    return forgotten


async def _next_placeholder(tx: _Tx) -> int:
    """A negative id below every placeholder given so far."""
    row = await tx.fetchone(
        """SELECT MIN(lowest) FROM (
               SELECT MIN(user_id) AS lowest FROM group_answers
               UNION ALL SELECT MIN(user_id) FROM post_answers)"""
    )
    lowest = row[0] if row is not None and row[0] is not None else 0
    return min(lowest, 0) - 1
