"""SQLite storage of everything asked of a whole chat: sessions, asked questions, answers.

A session is of one of two kinds:

- `TIMED`: a group quiz (/groupquiz): its questions one after the other, each open for
  `seconds`, scored for a leaderboard. At most one runs per chat.
- `POST`: a posted question (/push, /schedule): one question, no timer (its deadline is
  +infinity), closed by the next push, worth no points, on no leaderboard. Any number may be
  open in a chat, each question at most once per chat. Its buttons carry its `post_id`.

Both take each person's first answer only, count answers and reveal the same way.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from storage import held_answers
from storage.audit import AuditLog
from storage.database import Database, Transaction, row_as
from storage.group_batch import AnswerStatus as AnswerStatus  # what `record_answer` says
from storage.group_batch import GroupAnswerOutcome as GroupAnswerOutcome
from storage.group_batch import PendingGroupAnswer, chat_batcher, write_group_answers
from storage.pick_batch import PendingPick, write_picks
from storage.pick_batch import PickOutcome as PickOutcome

TIMED = "timed"
POST = "post"
PUSH_ACTION = "push"  # the audit log's name for a posted question


@dataclass(frozen=True)
class GroupSession:
    id: int
    chat_id: int
    chat_type: str
    quiz_id: str
    question_ids: tuple[str, ...]
    seconds: int
    mode: str  # "buttons" | "poll"
    language: str
    started_by: int | None
    started_at: float
    position: int  # the question being asked (or about to be)
    finished_at: float | None
    outcome: str | None  # "finished" | "stopped"
    kind: str = TIMED
    post_id: int | None = None  # a POST's number, which its buttons carry
    thread_id: int | None = None  # the forum topic it runs in (None: General, or no forum)

    @property
    def total(self) -> int:
        return len(self.question_ids)

    @property
    def running(self) -> bool:
        """Still taking answers (for a POST: not revealed yet)."""
        return self.finished_at is None

    @property
    def posted(self) -> bool:
        return self.kind == POST


@dataclass(frozen=True)
class AskedQuestion:
    session_id: int
    position: int
    question_id: str
    message_id: int
    poll_id: str | None
    asked_at: float
    deadline: float
    revealed_at: float | None
    photo: bool = False  # sent as a photo with the question as its caption


@dataclass(frozen=True)
class TapTarget:
    """What a tap on a question's button names, as stored: the session (None: no such
    session) and the question asked at that position (None: not asked)."""

    session: GroupSession | None
    asked: AskedQuestion | None


TAP_TARGETS_CACHED = 256


@dataclass(frozen=True)
class RevealStep:
    """What revealing a question did: `revealed` is False when it was revealed already."""

    revealed: bool
    next_position: int | None = None  # None: that was the last question, the session ended


@dataclass(frozen=True)
class Tally:
    """How many answered a question, and how many of them right."""

    answers: int
    correct: int


@dataclass(frozen=True)
class ScoreRow:
    user_id: int
    name: str
    points: int
    correct: int
    answered: int
    total_time: float

    @property
    def forgotten(self) -> bool:
        """The points of a learner who deleted their data (storage/privacy.py)."""
        return self.user_id < 0


@dataclass(frozen=True)
class MemberResult:
    """One question a session asked, and a member's answer to it (None: not answered)."""

    position: int
    question_id: str
    chosen: int | None
    correct: bool | None


def _session(row: Any) -> GroupSession:
    return row_as(GroupSession, row, question_ids=tuple(json.loads(row["question_ids"])))


def _asked(row: Any) -> AskedQuestion:
    return row_as(AskedQuestion, row, photo=bool(row["photo"]))


# A person's points under their latest name, as kept by migration 21's triggers (a held
# answer counts as its placeholder's already, nameless, and lends its name to nobody).
_SCORES = """SELECT t.who, COALESCE(n.name, '') AS name, t.points, t.correct, t.answered,
       t.total_time
FROM {table} t LEFT JOIN member_names n ON n.user_id = t.who
WHERE t.{key} = ?"""


class GroupStore:
    def __init__(self, database: Database) -> None:
        self._database = database
        self._answers = chat_batcher(
            database.transaction, write_group_answers, "group-answer-batches"
        )
        self._picks = chat_batcher(database.transaction, write_picks, "group-pick-batches")
        # what taps name, read once per question rather than once per tap: every write to
        # sessions and asked questions goes through this store and empties it (`_changed`)
        self._tap_targets: dict[tuple[str, int, int], TapTarget] = {}
        self._changes = 0

    async def drain(self) -> None:
        """Wait until every answer and pick handed in so far is written (or has failed)."""
        await self._answers.drain()
        await self._picks.drain()

    # sessions

    async def start_session(
        self,
        *,
        chat_id: int,
        chat_type: str,
        quiz_id: str,
        question_ids: tuple[str, ...],
        seconds: int,
        mode: str,
        language: str,
        started_by: int | None,
        now: float,
        thread_id: int | None = None,
    ) -> GroupSession | None:
        """Start a timed quiz in the chat (in forum topic `thread_id`); None when one is
        running there already."""
        async with self._write() as tx:
            cursor = await tx.execute(
                """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids,
                       seconds, mode, language, started_by, started_at, thread_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(chat_id, COALESCE(thread_id, 0))
                       WHERE finished_at IS NULL AND kind = 'timed'
                   DO NOTHING""",
                chat_id,
                chat_type,
                quiz_id,
                json.dumps(list(question_ids)),
                seconds,
                mode,
                language,
                started_by,
                now,
                thread_id,
            )
            session_id = cursor.lastrowid if cursor.rowcount == 1 else None
        return None if session_id is None else await self.get_session(session_id)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Transaction]:
        """A transaction that writes sessions or asked questions: afterwards, what taps name is
        read again."""
        try:
            async with self._database.transaction() as tx:
                yield tx
        finally:
            self._changes += 1
            self._tap_targets.clear()

    def forget_sessions(self) -> None:
        """Read again what taps name: sessions were changed elsewhere (a chat's move)."""
        self._changes += 1
        self._tap_targets.clear()

    async def tap_target(
        self, *, session_id: int | None = None, post_id: int | None = None, position: int = 0
    ) -> TapTarget:
        """The session a tap names (by its id, or a post's by its number) and the question
        asked at `position`, read once while neither changes: a thousand members tapping one
        question cost one read. Whether the question still takes answers is decided when the
        answer is written, not here."""
        key = (
            ("post", post_id, 0) if post_id is not None else ("session", session_id or 0, position)
        )
        cached = self._tap_targets.get(key)
        if cached is not None:
            return cached
        changes = self._changes
        session = await (self.post(post_id) if post_id is not None else self.get_session(key[1]))
        asked = await self.asked(session.id, position) if session is not None else None
        target = TapTarget(session, asked)
        if changes == self._changes:  # no write overtook these reads
            if len(self._tap_targets) >= TAP_TARGETS_CACHED:
                self._tap_targets.clear()
            self._tap_targets[key] = target
        return target

    async def get_session(self, session_id: int) -> GroupSession | None:
        return await self._database.fetchone_as(
            _session, "SELECT * FROM group_sessions WHERE id=?", session_id
        )

    async def running_session(
        self, chat_id: int, thread_id: int | None = None
    ) -> GroupSession | None:
        """The chat's running timed quiz (in forum topic `thread_id`; None: General)."""
        return await self._database.fetchone_as(
            _session,
            """SELECT * FROM group_sessions
               WHERE chat_id=? AND COALESCE(thread_id, 0)=COALESCE(?, 0)
                 AND finished_at IS NULL AND kind='timed'""",
            chat_id,
            thread_id,
        )

    async def running_sessions(self) -> list[GroupSession]:
        """Every running timed quiz (what a restart resumes)."""
        rows = await self._database.fetchall(
            "SELECT * FROM group_sessions WHERE finished_at IS NULL AND kind='timed' ORDER BY id"
        )
        return [_session(row) for row in rows]

    async def latest_session(
        self, chat_id: int, thread_id: int | None = None
    ) -> GroupSession | None:
        """The chat's running timed quiz, else its most recent one (in forum topic
        `thread_id`; None: General)."""
        return await self._database.fetchone_as(
            _session,
            """SELECT * FROM group_sessions
               WHERE chat_id=? AND COALESCE(thread_id, 0)=COALESCE(?, 0) AND kind='timed'
               ORDER BY finished_at IS NULL DESC, id DESC LIMIT 1""",
            chat_id,
            thread_id,
        )

    async def recent_sessions(self, chat_id: int, limit: int = 20) -> list[GroupSession]:
        """The chat's timed quizzes, the latest first (every topic of a forum)."""
        rows = await self._database.fetchall(
            """SELECT * FROM group_sessions WHERE chat_id=? AND kind='timed'
               ORDER BY id DESC LIMIT ?""",
            chat_id,
            limit,
        )
        return [_session(row) for row in rows]

    async def stop_session(self, session_id: int, now: float) -> bool:
        """End a running session early, and anonymize the answers held for forgotten
        learners, in one commit; False when it had ended already."""
        async with self._write() as tx:
            cursor = await tx.execute(
                """UPDATE group_sessions SET finished_at=?, outcome='stopped'
                   WHERE id=? AND finished_at IS NULL""",
                now,
                session_id,
            )
            if cursor.rowcount != 1:
                return False
            await held_answers.release(tx, now, session_id)
            return True

    # questions

    async def question_asked(
        self,
        session_id: int,
        position: int,
        question_id: str,
        message_id: int,
        poll_id: str | None,
        asked_at: float,
        deadline: float,
        photo: bool = False,
    ) -> None:
        """Record that the question at `position` was posted (a re-post replaces the record);
        `photo`: as a photo, the question its caption."""
        async with self._write() as tx:
            await tx.execute(
                """INSERT INTO group_questions (session_id, position, question_id, message_id,
                       poll_id, asked_at, deadline, photo)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(session_id, position) DO UPDATE SET
                       message_id=excluded.message_id, poll_id=excluded.poll_id,
                       asked_at=excluded.asked_at, deadline=excluded.deadline,
                       photo=excluded.photo""",
                session_id,
                position,
                question_id,
                message_id,
                poll_id,
                asked_at,
                deadline,
                int(photo),
            )

    async def asked(self, session_id: int, position: int) -> AskedQuestion | None:
        return await self._database.fetchone_as(
            _asked,
            "SELECT * FROM group_questions WHERE session_id=? AND position=?",
            session_id,
            position,
        )

    async def asked_by_poll(self, poll_id: str) -> AskedQuestion | None:
        return await self._database.fetchone_as(
            _asked, "SELECT * FROM group_questions WHERE poll_id=?", poll_id
        )

    async def reveal(self, session_id: int, position: int, now: float) -> RevealStep:
        """Close the question and move the session on, in one commit, which also anonymizes
        the answers held for forgotten learners (storage/held_answers.py); idempotent. A post
        whose message was never sent closes all the same (with nothing to show)."""
        async with self._write() as tx:
            session = await tx.fetchone(
                "SELECT position, question_ids, finished_at, kind FROM group_sessions WHERE id=?",
                session_id,
            )
            if session is None or session["finished_at"] is not None:
                return RevealStep(revealed=False)
            if session["position"] != position:
                return RevealStep(revealed=False)
            cursor = await tx.execute(
                """UPDATE group_questions SET revealed_at=?
                   WHERE session_id=? AND position=? AND revealed_at IS NULL""",
                now,
                session_id,
                position,
            )
            if cursor.rowcount != 1 and not (
                session["kind"] == POST
                and await tx.fetchone(
                    "SELECT 1 FROM group_questions WHERE session_id=? AND position=?",
                    session_id,
                    position,
                )
                is None
            ):
                return RevealStep(revealed=False)
            following = position + 1
            if following >= len(json.loads(session["question_ids"])):
                await tx.execute(
                    """UPDATE group_sessions SET position=?, finished_at=?, outcome='finished'
                       WHERE id=?""",
                    following,
                    now,
                    session_id,
                )
                step = RevealStep(revealed=True, next_position=None)
            else:
                await tx.execute(
                    "UPDATE group_sessions SET position=? WHERE id=?", following, session_id
                )
                step = RevealStep(revealed=True, next_position=following)
            await held_answers.release(tx, now, session_id)
            return step

    # posted questions

    async def start_post(
        self,
        *,
        chat_id: int,
        chat_type: str,
        quiz_id: str,
        question_id: str,
        language: str,
        posted_by: int | None,
        now: float,
    ) -> GroupSession | None:
        """Record, with its audit entry, that the question is being posted into the chat, under
        the next post number; None if it was posted there before. Its message follows with
        `post_sent`, or `drop_unsent` if it could not be sent."""
        async with self._write() as tx:
            cursor = await tx.execute(
                """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids,
                       seconds, mode, language, started_by, started_at, kind, post_id)
                   VALUES (?, ?, ?, ?, 0, 'buttons', ?, ?, ?, 'post',
                       (SELECT COALESCE(MAX(post_id), 0) + 1 FROM group_sessions))
                   ON CONFLICT(chat_id, quiz_id, question_ids) WHERE kind = 'post' DO NOTHING""",
                chat_id,
                chat_type,
                quiz_id,
                json.dumps([question_id]),
                language,
                posted_by,
                now,
            )
            session_id = cursor.lastrowid if cursor.rowcount == 1 else None
            if session_id is None:
                return None
            detail = {"chat_id": chat_id, "question": question_id}
            await AuditLog.write(tx, PUSH_ACTION, posted_by, now, quiz_id, detail)
        return await self.get_session(session_id)

    async def post_sent(
        self, session_id: int, question_id: str, message_id: int, now: float, photo: bool = False
    ) -> None:
        """The post's message is in the chat: its question is open until revealed."""
        await self.question_asked(
            session_id, 0, question_id, message_id, None, now, math.inf, photo
        )

    async def drop_unsent(self, session_id: int) -> None:
        """Forget a post whose message could not be sent (it has no answers)."""
        async with self._write() as tx:
            await tx.execute(
                """DELETE FROM group_sessions WHERE id=? AND kind='post'
                   AND NOT EXISTS (SELECT 1 FROM group_questions WHERE session_id=?)""",
                session_id,
                session_id,
            )

    async def post(self, post_id: int) -> GroupSession | None:
        """The posted question whose buttons carry `post_id`."""
        return await self._database.fetchone_as(
            _session, "SELECT * FROM group_sessions WHERE post_id=?", post_id
        )

    async def open_posts(self, chat_id: int) -> list[GroupSession]:
        """The chat's posted questions not revealed yet, oldest first."""
        rows = await self._database.fetchall(
            """SELECT * FROM group_sessions
               WHERE chat_id=? AND kind='post' AND finished_at IS NULL ORDER BY id""",
            chat_id,
        )
        return [_session(row) for row in rows]

    async def posted_question_ids(self, chat_id: int, quiz_id: str) -> set[str]:
        rows = await self._database.fetchall(
            """SELECT question_ids FROM group_sessions
               WHERE chat_id=? AND quiz_id=? AND kind='post'""",
            chat_id,
            quiz_id,
        )
        return {question_id for row in rows for question_id in json.loads(row[0])}

    # answers

    async def record_answer(
        self,
        *,
        session_id: int,
        position: int,
        question_id: str,
        user_id: int,
        name: str,
        chosen: int,
        correct: bool,
        elapsed: float,
        points: int,
        now: float,
        credit: float | None = None,
    ) -> GroupAnswerOutcome:
        """Store a person's first answer to the current, open question, in the next batch of
        answers (storage/group_batch.py); returns after its COMMIT. `credit` (-1 to 1) is
        kept where the question scores in parts; else `correct` says it all.

        Refused (CLOSED) unless the session runs, `position` is its current question, that
        question is not revealed and its deadline has not passed at `now`.
        """
        return await self._answers.record(
            PendingGroupAnswer(
                session_id=session_id,
                position=position,
                question_id=question_id,
                user_id=user_id,
                name=name,
                chosen=chosen,
                correct=correct,
                elapsed=elapsed,
                points=points,
                answered_at=now,
                credit=credit,
            )
        )

    async def toggle_pick(
        self,
        *,
        session_id: int,
        position: int,
        question_id: str,
        user_id: int,
        option: int,
        now: float,
    ) -> PickOutcome:
        """Pick `option` of a multiple question for a member, or unpick it, while the question
        takes answers (as `record_answer` decides it) and the member has not answered it; in
        the next batch of picks (storage/pick_batch.py), returns after its COMMIT."""
        return await self._picks.record(
            PendingPick(session_id, position, question_id, user_id, option, now)
        )

    async def picks(self, session_id: int, position: int, user_id: int) -> int:
        """A member's selection on a multiple question, a bit per option (0: none)."""
        row = await self._database.fetchone(
            "SELECT options FROM group_picks WHERE session_id=? AND position=? AND user_id=?",
            session_id,
            position,
            user_id,
        )
        return int(row["options"]) if row is not None else 0

    async def standing_answer(
        self, session_id: int, position: int, user_id: int
    ) -> GroupAnswerOutcome | None:
        """A member's answer that stands on a question (ALREADY, with what they chose and
        their points), if they answered it."""
        row = await self._database.fetchone(
            """SELECT chosen, points FROM group_answers
               WHERE session_id=? AND position=? AND user_id=?""",
            session_id,
            position,
            user_id,
        )
        if row is None:
            return None
        return GroupAnswerOutcome(AnswerStatus.ALREADY, int(row["chosen"]), int(row["points"]))

    async def answer_counts(self, session_id: int, position: int) -> dict[int, int]:
        """How many chose each option (options nobody chose are absent)."""
        rows = await self._database.fetchall(
            """SELECT chosen, COUNT(*) AS n FROM group_answers
               WHERE session_id=? AND position=? GROUP BY chosen""",
            session_id,
            position,
        )
        return {row["chosen"]: row["n"] for row in rows}

    async def tally(self, session_id: int, position: int) -> Tally:
        row = await self._database.fetchone(
            """SELECT COUNT(*) AS n, COALESCE(SUM(correct), 0) AS n_right FROM group_answers
               WHERE session_id=? AND position=?""",
            session_id,
            position,
        )
        return Tally(int(row["n"]), int(row["n_right"]))

    async def session_scores(self, session_id: int) -> list[ScoreRow]:
        return await self._scores("session_scores", "session_id", session_id)

    async def chat_scores(self, chat_id: int) -> list[ScoreRow]:
        """The chat's all-time ranking: its timed quizzes (posted questions score nothing)."""
        return await self._scores("chat_scores", "chat_id", chat_id)

    async def _scores(self, table: str, key: str, value: int) -> list[ScoreRow]:
        rows = await self._database.fetchall(_SCORES.format(table=table, key=key), value)
        return [
            ScoreRow(who, name, int(points), int(correct), int(answered), float(total_time))
            for who, name, points, correct, answered, total_time in rows
        ]

    async def member_languages(self, chat_id: int) -> list[tuple[str | None, str | None]]:
        """(chosen language, Telegram's) of the learners who answered in the chat (those with
        a private chat with the bot; at most the first 1,000 found)."""
        rows = await self._database.fetchall(
            """SELECT u.language, u.telegram_language FROM users u
               WHERE u.user_id IN (
                   SELECT DISTINCT a.user_id FROM group_answers a
                   JOIN group_sessions s ON s.id = a.session_id
                   WHERE s.chat_id=? AND a.user_id > 0 LIMIT 1000)""",
            chat_id,
        )
        return [(row["language"], row["telegram_language"]) for row in rows]

    async def member_results(self, session_id: int, user_id: int) -> list[MemberResult]:
        """Every question the session asked (in order), with this member's answer to it."""
        rows = await self._database.fetchall(
            """SELECT q.position, q.question_id, a.chosen, a.correct FROM group_questions q
               LEFT JOIN group_answers a ON a.session_id = q.session_id
                   AND a.position = q.position AND a.user_id = ?
               WHERE q.session_id = ? ORDER BY q.position""",
            user_id,
            session_id,
        )
        return [
            MemberResult(
                row["position"],
                row["question_id"],
                row["chosen"],
                None if row["correct"] is None else bool(row["correct"]),
            )
            for row in rows
        ]

    async def count_answers(self) -> int:
        row = await self._database.fetchone("SELECT COUNT(*) FROM group_answers")
        return int(row[0])
