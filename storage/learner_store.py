"""Learners' part of the database: who they are (with their language, time zone and reminder),
their attempts and answers, and their spaced-repetition cards.

Learners are read on every update and written rarely: `get_user` is a read-through cache, kept
coherent because every write to `users` goes through `_user_write` (and `uncache` for the
deletions of storage/privacy.py). It also remembers who has no record (the members of a
large group who never wrote to the bot in private: each of their taps would read it again); a
read that a write overtook is not cached. Answers are written in batches (storage/answer_batch.py):
`record_answer` returns once its batch is committed.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from storage.answer_batch import AnswerBatcher, AnswerOutcome, PendingAnswer
from storage.batching import ReadBatcher
from storage.card_reviews import CardReview
from storage.database import Database, Transaction, row_as

USER_CACHE_SIZE = 10_000


@dataclass(frozen=True)
class User:
    user_id: int
    first_name: str
    telegram_language: str | None
    language: str | None
    active: bool
    timezone: str | None = None
    remind_at: str | None = None
    last_reminded: str | None = None
    daily_goal: int | None = None  # answers a day the learner aims at; None: no goal


@dataclass(frozen=True)
class Attempt:
    id: int
    user_id: int
    quiz_id: str
    question_ids: tuple[str, ...]
    started_at: float
    finished_at: float | None
    score: float | None  # partial credit counts: 7.5 of 10
    kind: str = "quiz"
    assignment_id: int | None = None  # a homework's attempt, started from its link

    @property
    def total(self) -> int:
        return len(self.question_ids)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class Answer:
    question_id: str
    chosen: int  # the option (single), a bit per option picked (multiple: 1 << option), 0 for
    # True and 1 for False (true_false: the choice as shown), -1 for a typed reply
    correct: bool  # fully right
    answered_at: float
    credit: float | None = None  # -1 to 1, where the question scores in parts; else None

    @property
    def score(self) -> float:
        """What the answer counts for: its partial credit, else 1 if right and 0 if not."""
        return self.credit if self.credit is not None else float(self.correct)

    @classmethod
    def of_row(cls, item: str, row: Any) -> Answer:
        credit = row["credit"]
        return cls(
            item,
            row["chosen"],
            bool(row["correct"]),
            row["answered_at"],
            None if credit is None else float(credit),
        )


@dataclass(frozen=True)
class QuizRecord:
    """A learner's record on one quiz."""

    quiz_id: str
    attempts_finished: int
    best_score: float | None  # partial credit counts
    best_total: int | None
    last_score: float | None
    last_total: int | None
    running_answered: int | None
    running_total: int | None


@dataclass(frozen=True)
class AwaitedReply:
    """The question a learner's next text message answers: an attempt's item, asked in a
    message (a reply to that message answers it too)."""

    attempt_id: int
    position: int
    message_id: int
    asked_at: float
    photo_message_id: int | None = None  # its picture, when sent apart from its text

    def asked_in(self, message_id: int) -> bool:
        return message_id in (self.message_id, self.photo_message_id)


def _options(bits: int) -> frozenset[int]:
    return frozenset(i for i in range(bits.bit_length()) if bits >> i & 1)


def attempt_of(row: Any) -> Attempt:
    """An `attempts` row as an Attempt."""
    return row_as(Attempt, row, question_ids=tuple(json.loads(row["question_ids"])))


@dataclass(frozen=True)
class StoredCard:
    """A learner's spaced-repetition card for one question (FSRS state as JSON)."""

    quiz_id: str
    question_id: str
    card_json: str
    due: float
    last_review: float | None
    lapses: int = 0  # Agains while it was in the Review state (storage/card_reviews.py)
    lapsed_at: float | None = None  # its last lapse


def _card(row: Any) -> StoredCard:
    return StoredCard(
        row["quiz_id"], row["question_id"], row["card"], row["due"], row["last_review"],
        row["lapses"], row["lapsed_at"],
    )  # fmt: skip


REVIEW = "review"
REVIEW_QUIZ_ID = ":review"  # never a quiz id: one running review session per learner
# a round of practice of what the learner just missed: its items are named as a review's, and
# its answers are reviews of their cards (short-term steps; never a lapse)
PRACTICE = "practice"
PRACTICE_PREFIX = ":practice:"  # never a quiz id; + the attempt whose misses it practises
# an exam (storage/exam_store.py): named after its quiz, one running per learner and quiz (and
# homework: `assignment_id`) beside their own attempt at it
EXAM = "exam"
EXAM_PREFIX = ":exam:"  # never a quiz id; + the quiz's id


def practice_of(attempt_id: int) -> str:
    """The attempt name of a practice of attempt `attempt_id`'s misses: pressing its button
    again resumes it while it runs."""
    return f"{PRACTICE_PREFIX}{attempt_id}"


def names_items(kind: str) -> bool:
    """Whether an attempt of this kind names each item `quiz/question` (reviews and
    practice rounds mix quizzes)."""
    return kind in (REVIEW, PRACTICE)


def exam_name(quiz_id: str) -> str:
    """The attempt name of an exam of quiz `quiz_id`."""
    return f"{EXAM_PREFIX}{quiz_id}"


def exam_quiz_id(name: str) -> str:
    """The quiz an exam's attempt name names (`exam_name`)."""
    return name.removeprefix(EXAM_PREFIX)


def review_item(quiz_id: str, question_id: str) -> str:
    """How a review session names one question: its quiz and its id ('/' is in neither)."""
    return f"{quiz_id}/{question_id}"


def attempt_item_parts(attempt: Attempt, item: str) -> tuple[str, str]:
    """(quiz id, question id) of one item of an attempt."""
    if names_items(attempt.kind):
        quiz_id, _, question_id = item.partition("/")
        return quiz_id, question_id
    if attempt.kind == EXAM:
        return exam_quiz_id(attempt.quiz_id), item
    return attempt.quiz_id, item


class LearnerStore:
    def __init__(self, database: Database) -> None:
        self._database = database
        self._users: OrderedDict[int, User | None] = OrderedDict()  # None: no such learner
        self._user_writes = 0  # writes to `users` so far: a read older than one is not cached
        # learner -> the question their next text message answers (None: none), read through
        # like `_users`: every question asked looks it up, and it rarely changes
        self._awaited: OrderedDict[int, AwaitedReply | None] = OrderedDict()
        self._answers = AnswerBatcher(database.transaction)
        # the learners a burst of taps looks up at once, read in one statement
        self._user_reads = ReadBatcher(self._read_users, max_batch=500, name="user-reads")

    async def drain(self) -> None:
        """Wait until every answer handed in so far is written (or has failed)."""
        await self._answers.drain()

    @asynccontextmanager
    async def _user_write(self, user_id: int) -> AsyncIterator[Transaction]:
        try:
            async with self._database.transaction() as tx:
                yield tx
        finally:
            self._user_writes += 1
            self._users.pop(user_id, None)

    def uncache(self, user_ids: Iterable[int]) -> None:
        """Forget the cached records of learners whose rows were changed elsewhere."""
        self._user_writes += 1
        for user_id in user_ids:
            self._users.pop(user_id, None)
            self._awaited.pop(user_id, None)

    # users

    async def touch_user(
        self, user_id: int, first_name: str, telegram_language: str | None, now: float
    ) -> User:
        """Create or refresh a learner seen in an update; returns their stored record."""
        existing = await self.get_user(user_id)
        if (
            existing is not None
            and existing.first_name == first_name
            and existing.telegram_language == telegram_language
            and existing.active
        ):
            return existing
        async with self._user_write(user_id) as tx:
            await tx.execute(
                """INSERT INTO users (user_id, first_name, telegram_language, created_at,
                                      updated_at)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(user_id) DO UPDATE SET first_name=excluded.first_name,
                       telegram_language=excluded.telegram_language, active=1,
                       updated_at=excluded.updated_at""",
                user_id,
                first_name,
                telegram_language,
                now,
                now,
            )
        user = await self.get_user(user_id)
        assert user is not None
        return user

    async def get_user(self, user_id: int) -> User | None:
        if user_id in self._users:
            self._users.move_to_end(user_id)
            return self._users[user_id]
        writes = self._user_writes
        user = await self._user_reads.get(user_id)
        if writes == self._user_writes:
            self._users[user_id] = user
            if len(self._users) > USER_CACHE_SIZE:
                self._users.popitem(last=False)
        return user

    async def _read_users(self, user_ids: list[int]) -> dict[int, User]:
        rows = await self._database.fetchall(
            f"SELECT * FROM users WHERE user_id IN ({', '.join('?' * len(user_ids))})", *user_ids
        )
        return {
            row["user_id"]: User(
                user_id=row["user_id"],
                first_name=row["first_name"],
                telegram_language=row["telegram_language"],
                language=row["language"],
                active=bool(row["active"]),
                timezone=row["timezone"],
                remind_at=row["remind_at"],
                last_reminded=row["last_reminded"],
                daily_goal=row["daily_goal"],
            )
            for row in rows
        }

    async def set_language(self, user_id: int, language: str, now: float) -> None:
        async with self._user_write(user_id) as tx:
            await tx.execute(
                "UPDATE users SET language=?, updated_at=? WHERE user_id=?", language, now, user_id
            )

    async def set_active(self, user_id: int, active: bool, now: float) -> None:
        async with self._user_write(user_id) as tx:
            await tx.execute(
                "UPDATE users SET active=?, updated_at=? WHERE user_id=?", int(active), now, user_id
            )

    # attempts and answers

    async def running_attempt(
        self, user_id: int, quiz_id: str, assignment_id: int | None = None
    ) -> Attempt | None:
        """The learner's running attempt at the quiz: their own (`assignment_id` None), or
        the one of that homework."""
        return await self._database.fetchone_as(
            attempt_of,
            """SELECT * FROM attempts WHERE user_id=? AND quiz_id=? AND assignment_id IS ?
                 AND finished_at IS NULL""",
            user_id,
            quiz_id,
            assignment_id,
        )

    async def get_attempt(self, attempt_id: int) -> Attempt | None:
        return await self._database.fetchone_as(
            attempt_of, "SELECT * FROM attempts WHERE id=?", attempt_id
        )

    async def start_attempt(
        self,
        user_id: int,
        quiz_id: str,
        question_ids: tuple[str, ...],
        now: float,
        kind: str = "quiz",
        assignment_id: int | None = None,
    ) -> Attempt:
        """Start an attempt, or return the one already running for this learner and quiz (and
        homework: a homework's attempt runs beside the learner's own)."""
        async with self._database.transaction() as tx:
            await tx.execute(
                """INSERT INTO attempts (user_id, quiz_id, question_ids, total, started_at, kind,
                                         assignment_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(user_id, quiz_id, COALESCE(assignment_id, 0))
                   WHERE finished_at IS NULL DO NOTHING""",
                user_id,
                quiz_id,
                json.dumps(list(question_ids)),
                len(question_ids),
                now,
                kind,
                assignment_id,
            )
        attempt = await self.running_attempt(user_id, quiz_id, assignment_id)
        assert attempt is not None
        return attempt

    async def answers(self, attempt_id: int) -> dict[str, Answer]:
        """The attempt's answers, keyed by attempt item (see `attempt_item`)."""
        rows = await self._database.fetchall(
            """SELECT a.quiz_id, a.question_id, a.chosen, a.correct, a.answered_at, a.credit,
                      t.kind
               FROM answers a JOIN attempts t ON t.id = a.attempt_id
               WHERE a.attempt_id=? ORDER BY a.id""",
            attempt_id,
        )
        answers = {}
        for row in rows:
            item = (
                review_item(row["quiz_id"], row["question_id"])
                if names_items(row["kind"])
                else row["question_id"]
            )
            answers[item] = Answer.of_row(item, row)
        return answers

    async def record_answer(
        self,
        attempt: Attempt,
        question_id: str,
        chosen: int,
        correct: bool,
        now: float,
        finishes: bool | None = None,
        card: CardReview | None = None,
        result: tuple[float, int] | None = None,
        *,
        credit: float | None = None,
        reply: str | None = None,
    ) -> AnswerOutcome:
        """Store one answer and, when it is the attempt's last, finish the attempt, in one
        commit (shared with the other answers of its batch).

        `question_id` is the attempt's item. `finishes` says whether this answer ends the
        attempt (the caller knows which questions were retired); by default the attempt ends
        once every one of its items has an answer. `card` is this answer as a review of the
        learner's spaced-repetition card for the question: the card is updated from its state
        in the same commit, and the review logged (storage/card_reviews.py).
        `result` is the (score, total) the attempt finishes with, when the caller counts only
        some of its items (questions retired meanwhile); by default every answer counts.
        `credit` is the answer's credit (-1 to 1, content/grading.py; by default `correct`'s),
        `reply` what the learner typed, for a question answered with a typed reply.
        """
        if question_id not in attempt.question_ids:
            raise ValueError(f"question {question_id!r} is not part of attempt {attempt.id}")
        quiz_id, plain_id = attempt_item_parts(attempt, question_id)
        return await self._answers.record(
            PendingAnswer(
                attempt.id,
                attempt.total,
                attempt.user_id,
                quiz_id,
                plain_id,
                chosen,
                correct,
                now,
                finishes,
                card,
                result,
                credit,
                reply,
            )
        )

    async def finish_attempt(self, attempt_id: int, score: float, total: int, now: float) -> bool:
        """End a running attempt that has nothing left to ask (its last questions were
        retired) with the score of what it asked; False if it had ended already."""
        return await self._database.update_once(
            "UPDATE attempts SET finished_at=?, score=?, total=? WHERE id=? AND finished_at IS NULL",
            now,
            score,
            total,
            attempt_id,
        )

    async def quiz_records(self, user_id: int) -> dict[str, QuizRecord]:
        """Best, last and running attempt of every quiz the learner has touched."""
        rows = await self._database.fetchall(
            """
            WITH finished AS (
                SELECT quiz_id, score, total, finished_at, id FROM attempts
                WHERE user_id=? AND finished_at IS NOT NULL AND kind='quiz'
            ),
            best AS (
                SELECT quiz_id, score, total,
                       ROW_NUMBER() OVER (PARTITION BY quiz_id
                           ORDER BY CAST(score AS REAL) / total DESC, finished_at) AS rank_best,
                       ROW_NUMBER() OVER (PARTITION BY quiz_id
                           ORDER BY finished_at DESC, id DESC) AS rank_last
                FROM finished
            ),
            running AS (
                SELECT a.quiz_id, a.total,
                       (SELECT COUNT(*) FROM answers WHERE attempt_id=a.id) AS answered
                FROM attempts a WHERE a.user_id=? AND a.finished_at IS NULL AND a.kind='quiz'
                  AND a.assignment_id IS NULL
            ),
            quizzes AS (
                SELECT quiz_id FROM finished UNION SELECT quiz_id FROM running
            )
            SELECT q.quiz_id,
                   (SELECT COUNT(*) FROM finished f WHERE f.quiz_id=q.quiz_id)
                       AS attempts_finished,
                   b.score AS best_score, b.total AS best_total,
                   l.score AS last_score, l.total AS last_total,
                   r.answered AS running_answered, r.total AS running_total
            FROM quizzes q
            LEFT JOIN best b ON b.quiz_id=q.quiz_id AND b.rank_best=1
            LEFT JOIN best l ON l.quiz_id=q.quiz_id AND l.rank_last=1
            LEFT JOIN running r ON r.quiz_id=q.quiz_id
            """,
            user_id,
            user_id,
        )
        return {row["quiz_id"]: row_as(QuizRecord, row) for row in rows}

    async def latest_answers_by_quiz(self, user_id: int) -> dict[str, dict[str, Answer]]:
        """`latest_answers` of every quiz the learner answered, in one statement: the newest
        answer per question found in the covering index (user, quiz, question), then read."""
        rows = await self._database.fetchall(
            """SELECT quiz_id, question_id, chosen, correct, answered_at, credit FROM answers
               WHERE id IN (SELECT MAX(id) FROM answers WHERE user_id=?
                            GROUP BY quiz_id, question_id)""",
            user_id,
        )
        found: dict[str, dict[str, Answer]] = {}
        for row in rows:
            found.setdefault(row["quiz_id"], {})[row["question_id"]] = Answer.of_row(
                row["question_id"], row
            )
        return found

    async def latest_answers(self, user_id: int, quiz_id: str) -> dict[str, Answer]:
        """The most recent answer the learner gave to each question of a quiz."""
        rows = await self._database.fetchall(
            """SELECT question_id, chosen, correct, answered_at, credit FROM answers a
               WHERE user_id=? AND quiz_id=? AND id = (
                   SELECT MAX(id) FROM answers b
                   WHERE b.user_id=a.user_id AND b.quiz_id=a.quiz_id
                     AND b.question_id=a.question_id)""",
            user_id,
            quiz_id,
        )
        return {row["question_id"]: Answer.of_row(row["question_id"], row) for row in rows}

    # a multiple question's selection, and the question a text message answers

    async def picks(self, attempt_id: int, item: str) -> frozenset[int]:
        """The options picked so far for an attempt's item (a multiple question)."""
        row = await self._database.fetchone(
            "SELECT options FROM picks WHERE attempt_id=? AND item=?", attempt_id, item
        )
        return _options(row["options"] if row is not None else 0)

    async def toggle_pick(
        self, attempt_id: int, item: str, option: int, now: float
    ) -> frozenset[int]:
        """Pick the option, or unpick it if it was picked; the selection after."""
        async with self._database.transaction() as tx:
            rows = await tx.fetchall(
                """INSERT INTO picks (attempt_id, item, options, updated_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT(attempt_id, item) DO UPDATE SET
                       options = (options | excluded.options) - (options & excluded.options),
                       updated_at = excluded.updated_at
                   RETURNING options""",
                attempt_id,
                item,
                1 << option,
                now,
            )
        return _options(rows[0]["options"])

    async def await_reply(
        self,
        user_id: int,
        attempt_id: int,
        position: int,
        message_id: int,
        now: float,
        photo_message_id: int | None = None,
    ) -> None:
        """The learner's next text message answers this question (numeric, typed), asked in
        `message_id` (and its picture in `photo_message_id`, when apart)."""
        self._awaited.pop(user_id, None)
        async with self._database.transaction() as tx:
            await tx.execute(
                """INSERT INTO awaited_replies (user_id, attempt_id, position, message_id,
                                                photo_message_id, asked_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT(user_id) DO UPDATE SET attempt_id=excluded.attempt_id,
                       position=excluded.position, message_id=excluded.message_id,
                       photo_message_id=excluded.photo_message_id,
                       asked_at=excluded.asked_at""",
                user_id,
                attempt_id,
                position,
                message_id,
                photo_message_id,
                now,
            )
        self._awaited[user_id] = AwaitedReply(
            attempt_id, position, message_id, now, photo_message_id
        )

    async def awaited_reply(self, user_id: int) -> AwaitedReply | None:
        if user_id in self._awaited:
            self._awaited.move_to_end(user_id)
            return self._awaited[user_id]
        row = await self._database.fetchone(
            "SELECT * FROM awaited_replies WHERE user_id=?", user_id
        )
        found = (
            None
            if row is None
            else AwaitedReply(
                row["attempt_id"],
                row["position"],
                row["message_id"],
                row["asked_at"],
                row["photo_message_id"],
            )
        )
        self._awaited[user_id] = found
        if len(self._awaited) > USER_CACHE_SIZE:
            self._awaited.popitem(last=False)
        return found

    async def stop_awaiting(self, user_id: int) -> None:
        """No text message answers a question now (another question was asked, or this one
        answered)."""
        if await self.awaited_reply(user_id) is None:
            return  # the usual case: known without a write, mostly without a read
        self._awaited.pop(user_id, None)
        async with self._database.transaction() as tx:
            await tx.execute("DELETE FROM awaited_replies WHERE user_id=?", user_id)

    # spaced repetition

    async def card(self, user_id: int, quiz_id: str, question_id: str) -> StoredCard | None:
        return await self._database.fetchone_as(
            _card,
            "SELECT * FROM cards WHERE user_id=? AND quiz_id=? AND question_id=?",
            user_id,
            quiz_id,
            question_id,
        )

    async def cards(self, user_id: int) -> list[StoredCard]:
        rows = await self._database.fetchall("SELECT * FROM cards WHERE user_id=?", user_id)
        return [_card(row) for row in rows]

    async def due_cards(self, user_id: int, now: float) -> list[StoredCard]:
        """Cards due now, most overdue first."""
        rows = await self._database.fetchall(
            "SELECT * FROM cards WHERE user_id=? AND due<=? ORDER BY due, quiz_id, question_id",
            user_id,
            now,
        )
        return [_card(row) for row in rows]

    async def count_due(self, user_id: int, before: float) -> int:
        row = await self._database.fetchone(
            "SELECT COUNT(*) FROM cards WHERE user_id=? AND due<=?", user_id, before
        )
        return int(row[0])

    async def next_due(self, user_id: int, after: float) -> float | None:
        row = await self._database.fetchone(
            "SELECT MIN(due) FROM cards WHERE user_id=? AND due>?", user_id, after
        )
        return None if row is None or row[0] is None else float(row[0])

    async def lapsed_cards(self, user_id: int, since: float) -> list[StoredCard]:
        """Cards that lapsed since `since`, most recent lapse first."""
        rows = await self._database.fetchall(
            """SELECT * FROM cards WHERE user_id=? AND lapsed_at>=?
               ORDER BY lapsed_at DESC, quiz_id, question_id""",
            user_id,
            since,
        )
        return [_card(row) for row in rows]

    async def review_counts(self, user_id: int, since: float) -> tuple[int, int]:
        """(right, all) among the reviews since `since` of cards seen before: the learner's
        true retention (a card's first answer is no recall, and not counted)."""
        row = await self._database.fetchone(
            """SELECT COUNT(*) AS n, COALESCE(SUM(rating > 1), 0) AS n_right FROM (
                   SELECT rating, reviewed_at, ROW_NUMBER() OVER (
                       PARTITION BY quiz_id, question_id ORDER BY reviewed_at, id) AS nth
                   FROM review_log WHERE user_id=?)
               WHERE nth > 1 AND reviewed_at >= ?""",
            user_id,
            since,
        )
        return int(row["n_right"]), int(row["n"])

    async def count_reviews(self, user_id: int, since: float) -> int:
        """The learner's answers since `since`, private and in groups (each is a review)."""
        row = await self._database.fetchone(
            "SELECT COUNT(*) FROM review_log WHERE user_id=? AND reviewed_at>=?", user_id, since
        )
        return int(row[0])

    async def leeches(self, quiz_id: str, lapses: int) -> list[tuple[int, str, str, int]]:
        """(learner, their first name, question, lapses) of every card of the quiz with at
        least `lapses` lapses (at least 1), by learner then question."""
        rows = await self._database.fetchall(  # `lapses > 0` lets cards_lapsed be used
            """SELECT c.user_id, u.first_name, c.question_id, c.lapses
               FROM cards c JOIN users u ON u.user_id = c.user_id
               WHERE c.quiz_id=? AND c.lapses>=? AND c.lapses > 0
               ORDER BY c.user_id, c.question_id""",
            quiz_id,
            lapses,
        )
        return [(r["user_id"], r["first_name"], r["question_id"], r["lapses"]) for r in rows]

    async def study_days(self, user_id: int, utc_offset_seconds: int) -> set[int]:
        """Days (counted from 1970-01-01 in the learner's time zone) with at least one answer."""
        rows = await self._database.fetchall(
            """SELECT DISTINCT CAST((answered_at + ?) / 86400 AS INTEGER) AS day
               FROM answers WHERE user_id=? ORDER BY day DESC LIMIT 1000""",
            utc_offset_seconds,
            user_id,
        )
        return {int(row["day"]) for row in rows}

    # time zones and reminders

    async def set_timezone(self, user_id: int, timezone: str, now: float) -> None:
        async with self._user_write(user_id) as tx:
            await tx.execute(
                "UPDATE users SET timezone=?, updated_at=? WHERE user_id=?", timezone, now, user_id
            )

    async def set_reminder(self, user_id: int, remind_at: str | None, now: float) -> None:
        """Set (`HH:MM`) or clear (None) the learner's daily reminder."""
        async with self._user_write(user_id) as tx:
            await tx.execute(
                """UPDATE users SET remind_at=?, last_reminded=NULL, updated_at=?
                   WHERE user_id=?""",
                remind_at,
                now,
                user_id,
            )

    async def set_goal(self, user_id: int, goal: int | None, now: float) -> None:
        """Set (answers a day) or clear (None) the learner's daily goal."""
        async with self._user_write(user_id) as tx:
            await tx.execute(
                "UPDATE users SET daily_goal=?, updated_at=? WHERE user_id=?", goal, now, user_id
            )

    async def mark_reminded(self, user_id: int, local_date: str, now: float) -> None:
        async with self._user_write(user_id) as tx:
            await tx.execute(
                "UPDATE users SET last_reminded=?, updated_at=? WHERE user_id=?",
                local_date,
                now,
                user_id,
            )

    async def users_with_reminders(self) -> list[User]:
        """Active learners who asked for a daily reminder."""
        rows = await self._database.fetchall(
            "SELECT user_id FROM users WHERE remind_at IS NOT NULL AND active=1 ORDER BY user_id"
        )
        users = [await self.get_user(row["user_id"]) for row in rows]
        return [user for user in users if user is not None]

    async def count_answers(self) -> int:
        row = await self._database.fetchone("SELECT COUNT(*) FROM answers")
        return int(row[0])
