"""What the bot knows of the groups and channels it is in.

- A group's own settings: the language the bot posts in there and the time zone its homework
  deadlines are read in (`chat_settings`), set by the chat's admins. Read on every command in
  a group, written rarely: a read-through cache, kept coherent because every write goes
  through this store.
- The commands waiting for a chat to be picked with Telegram's chat picker
  (`chat_requests`): kept until the pick arrives, or for a day.
- The chats the bot is in (`known_chats`, from Telegram's my_chat_member updates and the
  chats it quizzes) and who administers each (`chat_admins`, from getChatAdministrators and
  chat_member updates): the Bot API cannot list a person's chats, so this is where a
  teacher's classes are found. An admin list is a candidate list only: whoever opens a
  chat's data is checked again with getChatMember.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.chat_moves import ChatMove, move_chat
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


BOT_PRESENT = ("member", "administrator", "creator", "restricted")


@dataclass(frozen=True)
class KnownChat:
    chat_id: int
    type: str
    title: str
    admins_checked_at: float | None


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

    async def move(self, old: int, new: int, now: float) -> ChatMove:
        """Everything of chat `old` under `new`: a group became a supergroup
        (storage/chat_moves.py)."""
        try:
            async with self._database.transaction() as tx:
                return await move_chat(tx, old, new, now)
        finally:
            self._cache.pop(old, None)
            self._cache.pop(new, None)

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

    async def note_chat(
        self, chat_id: int, chat_type: str, title: str, bot_status: str, now: float
    ) -> None:
        """The bot's place in a chat, as Telegram said it last (a title of '' keeps the one
        known)."""
        async with self._database.transaction() as tx:
            await tx.execute(
                """INSERT INTO known_chats (chat_id, type, title, bot_status, updated_at)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(chat_id) DO UPDATE SET type=excluded.type,
                       title=CASE WHEN excluded.title='' THEN title ELSE excluded.title END,
                       bot_status=excluded.bot_status, updated_at=excluded.updated_at""",
                chat_id,
                chat_type,
                title,
                bot_status,
                now,
            )
            if bot_status not in BOT_PRESENT:
                await tx.execute("DELETE FROM chat_admins WHERE chat_id=?", chat_id)

    async def set_admins(self, chat_id: int, user_ids: set[int], now: float) -> None:
        """A chat's whole admin list, as getChatAdministrators gave it."""
        async with self._database.transaction() as tx:
            await tx.execute("DELETE FROM chat_admins WHERE chat_id=?", chat_id)
            await tx.executemany(
                "INSERT INTO chat_admins (chat_id, user_id) VALUES (?, ?)",
                [(chat_id, user_id) for user_id in sorted(user_ids)],
            )
            await tx.execute(
                "UPDATE known_chats SET admins_checked_at=? WHERE chat_id=?", now, chat_id
            )

    async def note_admin(self, chat_id: int, user_id: int, is_admin: bool) -> None:
        """One person became an admin of a chat, or stopped being one (chat_member)."""
        async with self._database.transaction() as tx:
            if is_admin:
                await tx.execute(
                    "INSERT OR IGNORE INTO chat_admins (chat_id, user_id) VALUES (?, ?)",
                    chat_id,
                    user_id,
                )
            else:
                await tx.execute(
                    "DELETE FROM chat_admins WHERE chat_id=? AND user_id=?", chat_id, user_id
                )

    async def note_admin_seen(
        self, chat_id: int, chat_type: str, title: str, user_id: int, now: float
    ) -> bool:
        """One of a chat's admins seen using the bot there (the bot is in that chat: it got
        their message). True when the bot did not know them as its admin before."""
        async with self._database.transaction() as tx:
            await tx.execute(
                f"""INSERT INTO known_chats (chat_id, type, title, bot_status, updated_at)
                    VALUES (?, ?, ?, 'member', ?)
                    ON CONFLICT(chat_id) DO UPDATE SET bot_status='member'
                    WHERE bot_status NOT IN ({_PRESENT_MARKS})""",
                chat_id,
                chat_type,
                title,
                now,
                *BOT_PRESENT,
            )
            cursor = await tx.execute(
                "INSERT OR IGNORE INTO chat_admins (chat_id, user_id) VALUES (?, ?)",
                chat_id,
                user_id,
            )
            return cursor.rowcount == 1

    async def chats_of_admin(self, user_id: int) -> list[KnownChat]:
        """The chats the bot is in that list `user_id` among their admins, by title."""
        rows = await self._database.fetchall(
            f"""SELECT k.chat_id, k.type, k.title, k.admins_checked_at
                FROM chat_admins a JOIN known_chats k ON k.chat_id = a.chat_id
                WHERE a.user_id=? AND k.bot_status IN ({_PRESENT_MARKS})
                ORDER BY k.title, k.chat_id""",
            user_id,
            *BOT_PRESENT,
        )
        return [_known(row) for row in rows]

    async def administers_any(self, user_id: int) -> bool:
        """Whether any chat the bot is in lists `user_id` among its admins: a teacher, to the
        commands declared for them in private."""
        row = await self._database.fetchone(
            f"""SELECT 1 FROM chat_admins a JOIN known_chats k ON k.chat_id = a.chat_id
                WHERE a.user_id=? AND k.bot_status IN ({_PRESENT_MARKS}) LIMIT 1""",
            user_id,
            *BOT_PRESENT,
        )
        return row is not None

    async def teachers(self) -> dict[int, bool]:
        """Everyone the chats the bot is in list among their admins, and whether they have a
        private chat with the bot (they wrote to it and have not blocked it since)."""
        rows = await self._database.fetchall(
            f"""SELECT a.user_id, EXISTS(
                    SELECT 1 FROM users u WHERE u.user_id = a.user_id AND u.active) AS reachable
                FROM chat_admins a JOIN known_chats k ON k.chat_id = a.chat_id
                WHERE k.bot_status IN ({_PRESENT_MARKS})
                GROUP BY a.user_id""",
            *BOT_PRESENT,
        )
        return {int(row["user_id"]): bool(row["reachable"]) for row in rows}

    async def present_chats(self) -> list[KnownChat]:
        """Every group and channel the bot is in, or has quizzed or set homework in."""
        rows = await self._database.fetchall(
            f"""WITH quizzed(chat_id) AS (
                    SELECT chat_id FROM group_sessions UNION SELECT chat_id FROM assignments)
                SELECT q.chat_id, COALESCE(k.type, 'group') AS type,
                       COALESCE(k.title, '') AS title, k.admins_checked_at
                FROM quizzed q LEFT JOIN known_chats k ON k.chat_id = q.chat_id
                WHERE k.chat_id IS NULL OR k.bot_status IN ({_PRESENT_MARKS})
                UNION
                SELECT chat_id, type, title, admins_checked_at FROM known_chats
                WHERE bot_status IN ({_PRESENT_MARKS}) AND type != 'private'
                ORDER BY 3, 1""",
            *BOT_PRESENT,
            *BOT_PRESENT,
        )
        return [_known(row) for row in rows]

    async def known_chat(self, chat_id: int) -> KnownChat | None:
        row = await self._database.fetchone(
            """SELECT chat_id, type, title, admins_checked_at FROM known_chats
               WHERE chat_id=?""",
            chat_id,
        )
        return None if row is None else _known(row)


_PRESENT_MARKS = ", ".join("?" * len(BOT_PRESENT))


def _known(row: Any) -> KnownChat:
    return KnownChat(row["chat_id"], row["type"], row["title"], row["admins_checked_at"])
