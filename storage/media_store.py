"""Pictures the bot has sent: Telegram's `file_id` of each uploaded file, per bot, so that a
file is uploaded once and then sent by its id. No Telegram here: ids are opaque text."""

from __future__ import annotations

from storage.database import Database


class MediaStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def file_id(self, bot_id: int, sha256: str) -> str | None:
        """The id Telegram gave this bot for the file with this SHA-256, if it gave one."""
        row = await self._database.fetchone(
            "SELECT file_id FROM photo_file_ids WHERE bot_id=? AND sha256=?", bot_id, sha256
        )
        return None if row is None else str(row["file_id"])

    async def remember(self, bot_id: int, sha256: str, file_id: str, now: float) -> None:
        async with self._database.transaction() as tx:
            await tx.execute(
                """INSERT INTO photo_file_ids (bot_id, sha256, file_id, stored_at)
                   VALUES (?, ?, ?, ?)
                   ON CONFLICT(bot_id, sha256) DO UPDATE SET file_id=excluded.file_id,
                       stored_at=excluded.stored_at""",
                bot_id,
                sha256,
                file_id,
                now,
            )

    async def forget(self, bot_id: int, sha256: str, file_id: str) -> None:
        """Telegram refused this id: the file is uploaded again next time (unless another
        upload stored a newer id meanwhile)."""
        async with self._database.transaction() as tx:
            await tx.execute(
                "DELETE FROM photo_file_ids WHERE bot_id=? AND sha256=? AND file_id=?",
                bot_id,
                sha256,
                file_id,
            )
