"""A group that became a supergroup: everything kept under the chat's old id moved to its new
one, in one transaction.

Telegram gives a basic group a new id when it is upgraded (it grew past 200 members, or an
admin changed a setting only supergroups have); the old id takes no call any more. Every row
that names the chat moves: its settings, what the bot knows of it and its admins, its group
quizzes and posted questions (their answers and scores follow their session), its all-time
scores, its homework and its daily schedules. tests/storage/test_chat_moves.py reads the
schema and fails when a table with a chat column is not moved here.

Moving twice is a no-op (Telegram sends the news twice, in either order). Rows already under
the new id (the bot saw the supergroup before it learnt of the upgrade) are merged: the new
chat's own wins where both have one value (a setting it set, what Telegram said of it, a
schedule of the same quiz, a member's answer to a question posted in both), and what adds up
adds up (all-time scores, admins, answers). A timed quiz still running in the old chat ends
here ("stopped"): its questions' messages stay in the old chat, out of the bot's reach, and
its answers and scores move with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import held_answers
from storage.database import Transaction


@dataclass(frozen=True)
class ChatMove:
    """What a move did: the old chat's timed quizzes it ended, the old chat's schedules it
    dropped for the new chat's own of the same quiz, and how many rows it moved."""

    ended_sessions: tuple[int, ...] = ()
    dropped_schedules: tuple[int, ...] = ()
    rows: int = 0

    @property
    def moved(self) -> bool:
        return self.rows > 0 or bool(self.ended_sessions)


async def move_chat(tx: Transaction, old: int, new: int, now: float) -> ChatMove:
    """Move every row of chat `old` to chat `new` (see the module's docstring)."""
    if old == new:
        return ChatMove()
    ended = await _end_running_quizzes(tx, old, now)
    rows = await _merge_posts(tx, old, new)
    rows += await _count(tx, "UPDATE group_sessions SET chat_id=? WHERE chat_id=?", new, old)
    rows += await _count(tx, "UPDATE assignments SET chat_id=? WHERE chat_id=?", new, old)
    dropped = await _move_schedules(tx, old, new)
    rows += len(dropped) + await _count(
        tx, "UPDATE push_schedules SET chat=? WHERE chat=?", str(new), str(old)
    )
    await tx.execute(
        """INSERT INTO chat_scores
           SELECT ?, who, points, correct, answered, total_time FROM chat_scores WHERE chat_id=?
           ON CONFLICT (chat_id, who) DO UPDATE SET points = points + excluded.points,
               correct = correct + excluded.correct, answered = answered + excluded.answered,
               total_time = total_time + excluded.total_time""",
        new,
        old,
    )
    await tx.execute(
        """INSERT INTO chat_settings (chat_id, timezone, language, updated_at)
           SELECT ?, timezone, language, updated_at FROM chat_settings WHERE chat_id=?
           ON CONFLICT (chat_id) DO UPDATE SET
               timezone = COALESCE(chat_settings.timezone, excluded.timezone),
               language = COALESCE(chat_settings.language, excluded.language)""",
        new,
        old,
    )
    await tx.execute(
        """INSERT INTO known_chats (chat_id, type, title, bot_status, admins_checked_at,
               updated_at)
           SELECT ?, 'supergroup', title, bot_status, admins_checked_at, ? FROM known_chats
           WHERE chat_id=? ON CONFLICT (chat_id) DO NOTHING""",
        new,
        now,
        old,
    )
    await tx.execute(
        "INSERT OR IGNORE INTO chat_admins SELECT ?, user_id FROM chat_admins WHERE chat_id=?",
        new,
        old,
    )
    for table in ("chat_scores", "chat_settings", "known_chats", "chat_admins"):
        rows += await _count(tx, f"DELETE FROM {table} WHERE chat_id=?", old)
    return ChatMove(ended, dropped, rows)


async def _count(tx: Transaction, sql: str, *params: object) -> int:
    cursor = await tx.execute(sql, *params)
    return max(cursor.rowcount, 0)


async def _end_running_quizzes(tx: Transaction, old: int, now: float) -> tuple[int, ...]:
    rows = await tx.fetchall(
        """SELECT id FROM group_sessions
           WHERE chat_id=? AND kind='timed' AND finished_at IS NULL ORDER BY id""",
        old,
    )
    ended = tuple(int(row["id"]) for row in rows)
    for session_id in ended:
        await tx.execute(
            "UPDATE group_sessions SET finished_at=?, outcome='stopped' WHERE id=?",
            now,
            session_id,
        )
        await held_answers.release(tx, now, session_id)
    return ended


async def _merge_posts(tx: Transaction, old: int, new: int) -> int:
    """A question posted in both chats is one post per chat at most: the old chat's answers
    join the new chat's post (a member who answered both keeps the new answer), and the old
    post goes. The triggers on `group_answers` keep the question's totals right."""
    pairs = await tx.fetchall(
        """SELECT o.id AS old_post, n.id AS new_post FROM group_sessions o
           JOIN group_sessions n ON n.chat_id=? AND n.kind='post' AND n.quiz_id=o.quiz_id
                AND n.question_ids=o.question_ids
           WHERE o.chat_id=? AND o.kind='post'""",
        new,
        old,
    )
    for pair in pairs:
        await tx.execute(
            "UPDATE OR IGNORE group_answers SET session_id=? WHERE session_id=?",
            pair["new_post"],
            pair["old_post"],
        )
        for table in ("group_answers", "group_picks", "group_questions"):
            await tx.execute(f"DELETE FROM {table} WHERE session_id=?", pair["old_post"])
        await tx.execute("DELETE FROM group_sessions WHERE id=?", pair["old_post"])
    return len(pairs)


async def _move_schedules(tx: Transaction, old: int, new: int) -> tuple[int, ...]:
    """The old chat's schedules of a quiz the new chat has a schedule of: dropped."""
    rows = await tx.fetchall(
        """SELECT o.id FROM push_schedules o JOIN push_schedules n
               ON n.chat=? AND n.quiz_id=o.quiz_id
           WHERE o.chat=? ORDER BY o.id""",
        str(new),
        str(old),
    )
    dropped = tuple(int(row["id"]) for row in rows)
    for schedule_id in dropped:
        await tx.execute("DELETE FROM push_schedules WHERE id=?", schedule_id)
    return dropped
