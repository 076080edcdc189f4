"""A group's own settings: the language the bot posts in there and the time zone its
homework deadlines are read in (`chat_settings`), set by the chat's admins. Read on every
command in a group, written rarely: a read-through cache, kept coherent because every write
goes through this store.

And the commands waiting for a chat to be picked with Telegram's chat picker
(`chat_requests`): kept until the pick arrives, or for a day."""

from __future__ import annotations

from dataclasses import dataclass

from storage.database import Database, row_as

CACHE_SIZE = 10_000
REQUEST_LIFETIME = 86_400.0  # seconds a chat picker waits for its pick


@dataclass(frozen=True)
class ChatRequest:
    """A command waiting for a chat: who asked, for what (`action`), with what (`details`,
    JSON), when."""

    id: int
    user_id: int
    action: str
    details: str
    created_at: float


@dataclass(frozen=True)
class ChatSettings:
    timezone: str | None = None
    language: str | None = None


class ChatStore:
    def __init__(self, database: Database) -> None:
        self._database = database
        self._cache: dict[int, ChatSettings] = {}

    async def settings(self, chat_id: int) -> ChatSettings:
        cached = self._cache.get(chat_id)
        if cached is not None:
            return cached
        row = await self._database.fetchone(
            "SELECT timezone, language FROM chat_settings WHERE chat_id=?", chat_id
        )
        found = ChatSettings() if row is None else ChatSettings(row["timezone"], row["language"])
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[chat_id] = found
        return found

    async def set_timezone(self, chat_id: int, timezone: str, now: float) -> None:
        await self._set(chat_id, "timezone", timezone, now)

    async def set_language(self, chat_id: int, language: str | None, now: float) -> None:
        await self._set(chat_id, "language", language, now)

    async def _set(self, chat_id: int, column: str, value: str | None, now: float) -> None:
        assert column in ("timezone", "language")  # ours, never a caller's text
        self._cache.pop(chat_id, None)
        async with self._database.transaction() as tx:
            await tx.execute(
                f"""INSERT INTO chat_settings (chat_id, {column}, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT(chat_id) DO UPDATE SET {column}=excluded.{column},
                        updated_at=excluded.updated_at""",
                chat_id,
                value,
                now,
            )
        self._cache.pop(chat_id, None)

    # commands waiting for a picked chat

    async def open_request(self, user_id: int, action: str, details: str, now: float) -> int:
        """Keep what a command will do once a chat is picked; its number. Requests older than
        a day go at the same time."""
        async with self._database.transaction() as tx:
            await tx.execute(
                "DELETE FROM chat_requests WHERE created_at < ?", now - REQUEST_LIFETIME
            )
            cursor = await tx.execute(
                """INSERT INTO chat_requests (user_id, action, details, created_at)
                   VALUES (?, ?, ?, ?)""",
                user_id,
                action,
                details,
                now,
            )
            return int(cursor.lastrowid or 0)

    async def request(self, number: int, now: float) -> ChatRequest | None:
        """The waiting request of that number; None when there is none, or it is too old."""
        return await self._database.fetchone_as(
            lambda row: row_as(ChatRequest, row),
            "SELECT * FROM chat_requests WHERE id=? AND created_at >= ?",
            number,
            now - REQUEST_LIFETIME,
        )

    async def close_request(self, number: int) -> bool:
        """The request is carried out: False when another pick carried it out first."""
        async with self._database.transaction() as tx:
            cursor = await tx.execute("DELETE FROM chat_requests WHERE id=?", number)
            return cursor.rowcount == 1
