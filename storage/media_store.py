"""Pictures: the files of banks kept in SQLite, and Telegram's `file_id` of each uploaded
file, per bot, so that a file is uploaded once and then sent by its id. No Telegram here: ids
are opaque text.

A bank stored in the database (content_banks) keeps its picture files here (banks on disk
keep theirs beside the YAML): one row per distinct file by SHA-256, shared by the banks that
name it, and each bank's names for its files. They are written in the bank's transaction
(`keep_bank_pictures`, from storage/content_store.py); a file no bank names any more is
deleted in the same transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from storage.database import Database, Transaction


@dataclass(frozen=True)
class BankPictures:
    """Every picture file a bank names: `uses` maps its path in the bank to the file's
    SHA-256; `files` holds the bytes, by SHA-256, of those the database may not have yet."""

    uses: Mapping[str, str]
    files: Mapping[str, bytes] = field(default_factory=dict, repr=False)


async def keep_bank_pictures(
    tx: Transaction, quiz_id: str, pictures: BankPictures, now: float
) -> None:
    """The bank's pictures become `pictures`, inside the bank's own transaction; files no bank
    names any more are deleted. A file neither stored nor given fails the transaction."""
    for sha256, data in pictures.files.items():
        if sha256 in pictures.uses.values():
            await tx.execute(
                """INSERT INTO pictures (sha256, data, size, stored_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT(sha256) DO NOTHING""",
                sha256,
                data,
                len(data),
                now,
            )
    await tx.execute("DELETE FROM bank_pictures WHERE quiz_id=?", quiz_id)
    for location, sha256 in sorted(pictures.uses.items()):
        await tx.execute(
            "INSERT INTO bank_pictures (quiz_id, location, sha256) VALUES (?, ?, ?)",
            quiz_id,
            location,
            sha256,
        )
    await tx.execute("DELETE FROM pictures WHERE sha256 NOT IN (SELECT sha256 FROM bank_pictures)")


class MediaStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    # files of stored banks

    async def picture(self, sha256: str) -> bytes | None:
        """A stored bank's picture file, by its SHA-256."""
        row = await self._database.fetchone("SELECT data FROM pictures WHERE sha256=?", sha256)
        return None if row is None else bytes(row["data"])

    async def bank_pictures(self, quiz_id: str) -> dict[str, bytes]:
        """A stored bank's picture files, by their path in the bank."""
        rows = await self._database.fetchall(
            """SELECT b.location, p.data FROM bank_pictures b
               JOIN pictures p ON p.sha256 = b.sha256 WHERE b.quiz_id=?""",
            quiz_id,
        )
        return {row["location"]: bytes(row["data"]) for row in rows}

    async def stored(self, sha256s: Collection[str]) -> set[str]:
        """Which of these files the database holds."""
        return set(await self.sizes(sha256s))

    async def sizes(self, sha256s: Collection[str]) -> dict[str, int]:
        """The size of each of these files that the database holds."""
        found: dict[str, int] = {}
        wanted = sorted(set(sha256s))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = await self._database.fetchall(
                f"SELECT sha256, size FROM pictures WHERE sha256 IN ({marks})", *chunk
            )
            found |= {row["sha256"]: int(row["size"]) for row in rows}
        return found

    async def sizes_of_other_banks(self, quiz_id: str) -> dict[str, int]:
        """The size of each file that a stored bank other than `quiz_id` names."""
        rows = await self._database.fetchall(
            """SELECT DISTINCT p.sha256, p.size FROM pictures p
               JOIN bank_pictures b ON b.sha256 = p.sha256 WHERE b.quiz_id != ?""",
            quiz_id,
        )
        return {row["sha256"]: int(row["size"]) for row in rows}

    # Telegram's file_id of each file uploaded

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
