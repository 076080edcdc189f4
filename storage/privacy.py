"""Deleting a learner's data: what `/forgetme` and `python -m storage prune` both do.

A learner's own records go: answers, review log, spaced-repetition cards, attempts (running and
finished), and the `users` row (name, languages, time zone, reminder). Their answers in group
quizzes and to posted questions are kept but anonymized: the Telegram id is replaced by a
negative placeholder (one per forgotten learner, never an id Telegram uses) and the name is
emptied, so a group's ranking and a post's tally keep their totals and show "(deleted)" where
the person was. An answer to a question still open is held (storage/held_answers.py): it keeps
the person's id, nameless, so they cannot answer that question again, and is anonymized when
the question closes. Group quizzes they started and homework they set forget who did it. Admins' own actions
(banks, posts, schedules, the audit log) are not a learner's data and stay.

Each deletion is audited in the same transaction, without the person: the audit row says what
was removed and how many rows, never whose (no id, no hash of one: a hash of a Telegram id is
reversible by trying every id).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage import held_answers
from storage.audit import AuditLog
from storage.database import Database, Transaction
from storage.learner_store import LearnerStore

log = logging.getLogger(__name__)

FORGET_ACTION = "forget_learner"  # /forgetme
PRUNE_ACTION = "prune_inactive"  # python -m storage prune

# Deleted, in this order (rows that point at others first), by learner.
_DELETES = (
    ("group_picks", "DELETE FROM group_picks WHERE user_id=?"),
    ("chat_admins", "DELETE FROM chat_admins WHERE user_id=?"),
    ("review_log", "DELETE FROM review_log WHERE user_id=?"),
    ("cards", "DELETE FROM cards WHERE user_id=?"),
    ("answers", "DELETE FROM answers WHERE user_id=?"),
    ("attempts", "DELETE FROM attempts WHERE user_id=?"),
    ("chat_requests", "DELETE FROM chat_requests WHERE user_id=?"),
    ("users", "DELETE FROM users WHERE user_id=?"),
)
# Kept for others' totals, with the person replaced by a placeholder: answers to group quizzes
# and to posted questions (both group sessions since schema 6; counted apart, as before); an
# answer held for the one-answer rule is left to its question's close.
_ANONYMIZE = """UPDATE group_answers SET user_id=?, name=''
    WHERE user_id=? AND forgotten_as IS NULL
      AND session_id IN (SELECT id FROM group_sessions WHERE kind=?)"""
_ANONYMIZES = (
    ("group_answers", "timed"),
    ("post_answers", "post"),
)

# Last sign of life of every learner: joining, a quiz started, an answer anywhere. Not
# `users.updated_at`: the bot moves it too (a reminder sent, a block noticed).
INACTIVE_SINCE = """
WITH activity(user_id, at) AS (
    SELECT user_id, created_at FROM users
    UNION ALL SELECT user_id, MAX(started_at, COALESCE(finished_at, 0)) FROM attempts
    UNION ALL SELECT user_id, answered_at FROM answers
    UNION ALL SELECT user_id, answered_at FROM group_answers WHERE forgotten_as IS NULL
)
SELECT user_id FROM activity WHERE user_id > 0
GROUP BY user_id HAVING MAX(at) < ? ORDER BY user_id
"""


@dataclass(frozen=True)
class Forgotten:
    """What a deletion removed (`deleted`), anonymized (`anonymized`) and held until their
    question closes (`held`), in rows per table."""

    learners: int
    deleted: dict[str, int]
    anonymized: dict[str, int]
    held: dict[str, int]

    def describe(self) -> str:
        parts = [f"{table} {n}" for table, n in self.deleted.items()]
        kept = [f"{table} {n}" for table, n in self.anonymized.items()]
        held = [f"{table} {n}" for table, n in self.held.items()]
        return (
            f"{self.learners} learner(s): deleted {', '.join(parts)}; anonymized "
            f"{', '.join(kept)}; held until their question closes {', '.join(held)}"
        )

    def audit_detail(self) -> str:
        return json.dumps(
            {
                "learners": self.learners,
                "deleted": self.deleted,
                "anonymized": self.anonymized,
                "held": self.held,
            },
            sort_keys=True,
        )


class Privacy:
    """/forgetme and `python -m storage prune`; `learners` is told whom it no longer knows."""

    def __init__(self, database: Database, learners: LearnerStore) -> None:
        self._database = database
        self._learners = learners

    async def forget_learner(self, user_id: int, now: float) -> Forgotten:
        """Delete the learner's data, anonymize their group and post answers, audit it."""
        try:
            async with self._database.transaction() as tx:
                return await forget(tx, [user_id], now, FORGET_ACTION)
        finally:
            self._learners.uncache([user_id])

    async def prune_inactive(
        self, before: float, now: float, *, dry_run: bool = False
    ) -> Forgotten:
        """Forget every learner with no activity since `before`; with `dry_run`, only say what
        that would remove (the same work, rolled back)."""
        pruned: list[Forgotten] = []
        user_ids: list[int] = []
        try:
            async with self._database.transaction() as tx:
                user_ids = [int(row[0]) for row in await tx.fetchall(INACTIVE_SINCE, before)]
                pruned.append(await forget(tx, user_ids, now, PRUNE_ACTION, {"before": before}))
                if dry_run:
                    raise _RollBack
        except _RollBack:
            pass
        finally:
            self._learners.uncache(user_ids)
        return pruned[0]

    async def release_held(self, now: float) -> int:
        """Anonymize the held answers whose question takes no more answers at `now` though
        nobody closed it (storage/held_answers.py); how many. Writes only when there are."""
        if not await held_answers.any_ended(self._database, now):
            return 0
        async with self._database.transaction() as tx:
            released = await held_answers.release(tx, now)
        log.info("%d held answer(s) of forgotten learners anonymized", released)
        return released


class _RollBack(Exception):
    """Raised inside a transaction to roll it back on purpose."""


async def forget(
    tx: Transaction,
    user_ids: Sequence[int],
    now: float,
    action: str,
    detail: dict[str, Any] | None = None,
) -> Forgotten:
    """Delete (and anonymize) the data of `user_ids` inside the caller's transaction, and
    audit it as `action` with `detail` (never an identity)."""
    deleted = dict.fromkeys((table for table, _ in _DELETES), 0)
    anonymized = dict.fromkeys((table for table, _ in _ANONYMIZES), 0)
    held = dict.fromkeys((table for table, _ in _ANONYMIZES), 0)
    placeholder = await _next_placeholder(tx)
    learners = 0
    for user_id in user_ids:
        touched = 0
        for table, kind in _ANONYMIZES:
            n = await held_answers.hold(tx, user_id, placeholder, kind, now)
            held[table] += n
            cursor = await tx.execute(_ANONYMIZE, placeholder, user_id, kind)
            anonymized[table] += cursor.rowcount
            touched += n + cursor.rowcount
        if touched:
            placeholder -= 1
        await tx.execute("UPDATE group_sessions SET started_by=NULL WHERE started_by=?", user_id)
        # homework they set: its results go through the group's link, as an anonymous admin's
        await tx.execute("UPDATE assignments SET created_by=NULL WHERE created_by=?", user_id)
        for table, sql in _DELETES:
            cursor = await tx.execute(sql, user_id)
            deleted[table] += cursor.rowcount
            touched += cursor.rowcount
        learners += 1 if touched else 0
    forgotten = Forgotten(learners, deleted, anonymized, held)
    if learners:
        audit = json.loads(forgotten.audit_detail()) | (detail or {})
        await AuditLog.write(tx, action, None, now, None, audit)
    return forgotten


async def _next_placeholder(tx: Transaction) -> int:
    """A negative id below every placeholder given so far (held ones included)."""
    row = await tx.fetchone(
        """SELECT (SELECT MIN(user_id) FROM group_answers),
                  (SELECT MIN(forgotten_as) FROM group_answers WHERE forgotten_as IS NOT NULL)"""
    )
    return min([0, *(value for value in row if value is not None)]) - 1
