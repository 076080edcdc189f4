"""The audit log: who changed content or chats, and what each deletion of data removed.

An audited change writes its entry in its own transaction (`write(tx, ...)` from the store
that makes the change), so the change and its entry are committed together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from storage.database import Database, Transaction

OPERATOR = 0  # the admin_id of actions that are no admin's (a schedule, /forgetme, prune)


@dataclass(frozen=True)
class AuditEntry:
    at: float
    admin_id: int
    action: str
    quiz_id: str | None
    detail: str  # JSON


class AuditLog:
    def __init__(self, database: Database) -> None:
        self._database = database

    @staticmethod
    async def write(
        tx: Transaction,
        action: str,
        admin_id: int | None,
        now: float,
        quiz_id: str | None,
        detail: Mapping[str, Any],
    ) -> None:
        """Add an entry inside the caller's transaction (`admin_id` None: `OPERATOR`)."""
        await tx.execute(
            "INSERT INTO audit_log (at, admin_id, action, quiz_id, detail) VALUES (?, ?, ?, ?, ?)",
            now,
            OPERATOR if admin_id is None else admin_id,
            action,
            quiz_id,
            json.dumps(dict(detail), ensure_ascii=False, sort_keys=True),
        )

    async def entries(self, limit: int = 100) -> list[AuditEntry]:
        """The latest entries, newest first."""
        rows = await self._database.fetchall(
            "SELECT * FROM audit_log ORDER BY id DESC LIMIT ?", limit
        )
        return [
            AuditEntry(row["at"], row["admin_id"], row["action"], row["quiz_id"], row["detail"])
            for row in rows
        ]
