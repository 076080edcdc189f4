"""Answers held for the one-answer rule: a forgotten learner's answers to questions still open.

A group question (and a posted one) takes each member's first answer only, and it knows a
member by their Telegram id. When a learner is forgotten (storage/privacy.py), an answer of
theirs to a question that still takes answers cannot lose their id at once: they could answer
again, be counted twice, and, since a group toast says right or wrong, try until right. So it
is held: it keeps their id, its name is emptied, and `forgotten_as` keeps the placeholder it
will take. It takes it (and no longer says whose it was) in the same commit that closes its
question: a reveal or a stop (`GroupStore`), or, for a question nobody closes, once it takes
no more answers by time: a timed question's deadline (at most 600 s), a post after
`HOLD_LIMIT` (it would stay open until the chat's next /push: maybe never). That last release
is `Privacy.release_held`, run by the bot every minute.

While held, an answer counts once in the live count and the tally, and rankings show it as the
placeholder's, "(deleted)", like the learner's other answers.
"""

from __future__ import annotations

from storage.database import Database, Transaction

# A post's answers are held at most this long after it was posted (the longest a timed
# question is open is 600 s: its deadline comes first). A week: longer than a daily schedule's
# gap and a weekly /push's, so the one-answer rule holds for posts closed the usual ways, and
# shorter than the backups' rotation (14 days), which a deletion has to wait for anyway.
HOLD_LIMIT = 7 * 86_400.0

# The question of `group_answers`' row can still take answers at a moment (GroupStore's
# record_answer takes one exactly then), and was asked at most HOLD_LIMIT before it. Its two
# parameters: the moment, and the moment less HOLD_LIMIT (`_open_at`).
_STILL_OPEN = """EXISTS (
    SELECT 1 FROM group_sessions s JOIN group_questions q ON q.session_id = s.id
    WHERE s.id = group_answers.session_id AND q.position = group_answers.position
      AND s.finished_at IS NULL AND s.position = q.position AND q.revealed_at IS NULL
      AND q.deadline >= ? AND q.asked_at >= ?)"""

_HOLD = f"""UPDATE group_answers SET forgotten_as = ?, name = ''
    WHERE user_id = ? AND forgotten_as IS NULL
      AND session_id IN (SELECT id FROM group_sessions WHERE kind = ?) AND {_STILL_OPEN}"""

_ENDED = f"forgotten_as IS NOT NULL AND NOT {_STILL_OPEN}"


def _open_at(now: float) -> tuple[float, float]:
    return now, now - HOLD_LIMIT


async def hold(tx: Transaction, user_id: int, placeholder: int, kind: str, now: float) -> int:
    """Hold the learner's answers to questions of sessions of `kind` still open at `now`, to
    become `placeholder`'s when they close; how many."""
    cursor = await tx.execute(_HOLD, placeholder, user_id, kind, *_open_at(now))
    return int(cursor.rowcount)


async def release(tx: Transaction, now: float, session_id: int | None = None) -> int:
    """Anonymize the held answers (of one session, or of all) whose question is closed or takes
    no more answers at `now`; how many."""
    sql = f"UPDATE group_answers SET user_id = forgotten_as, forgotten_as = NULL WHERE {_ENDED}"
    if session_id is None:
        cursor = await tx.execute(sql, *_open_at(now))
    else:
        cursor = await tx.execute(f"{sql} AND session_id = ?", *_open_at(now), session_id)
    return int(cursor.rowcount)


async def any_ended(database: Database, now: float) -> bool:
    """Whether a held answer is due for release at `now` (a read, outside any transaction)."""
    sql = f"SELECT 1 FROM group_answers WHERE {_ENDED} LIMIT 1"
    return await database.fetchone(sql, *_open_at(now)) is not None
