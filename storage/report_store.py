"""What reports read: a group session's answers member by member, and every learner's latest
finished attempt at a quiz with its answers. Reads only.

A report can be large (a 10,000-member group over 50 questions is 500,000 answers; the latest
attempts at a popular quiz as many): its rows are read a page at a time (`PAGE` rows, each page
a statement of its own, by the key it is ordered by), so that the event loop turns them into
objects a page at a time, between other updates, never all at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.database import Database

PAGE = 5_000  # rows read and converted in one go
ATTEMPTS_PAGE = 500  # attempts whose answers are read in one statement


# A report holds hundreds of thousands of answers, so each is a plain tuple: the garbage
# collector stops following an exact tuple of plain values after its first look, but follows
# every instance of a class for ever (a NamedTuple's too): 500,000 of them made each of its
# full passes take 50 to 380 ms, on the event loop, a dozen times per report.

# One member's answer to one question of a group session: (user_id, position, chosen,
# correct, credit); a forgotten member's id is their placeholder (below 0); credit is what it
# counts for, -1 to 1.
SessionAnswer = tuple[int, int, int, bool, float]

# One answer of an attempt as a report shows it: (chosen, correct, credit, reply): what was
# chosen (or typed), whether it was fully right, what it counts for (-1 to 1).
GivenAnswer = tuple[int, bool, float, str | None]


@dataclass(frozen=True)
class MemberMarks:
    """A member's marks in a group session: the credit stored with each answer (-1 to 1) by
    position, for the questions they answered."""

    user_id: int
    name: str
    marks: dict[int, float]


@dataclass(frozen=True)
class AnswerGroup:
    """The answers to one question that were the same (one option or set of options chosen,
    or one reply typed): how many, what they count for, how long each took (seconds)."""

    question_id: str
    chosen: int
    reply: str | None
    count: int
    credit: float  # summed over the answers
    correct: bool  # fully right
    seconds: tuple[float, ...]


@dataclass(frozen=True)
class QuestionShare:
    """A question answered in a chat (its group quizzes and homework): how often, and the
    credit it got, summed."""

    quiz_id: str
    question_id: str
    answered: int
    credit: float


@dataclass(frozen=True)
class LatestAttempt:
    """A learner's latest finished attempt at a quiz, with its answers by question id."""

    user_id: int
    name: str
    attempt_id: int
    score: float  # partial credit counts
    total: int
    started_at: float
    finished_at: float
    answers: dict[str, GivenAnswer]  # by question id

    @property
    def question_marks(self) -> dict[str, float]:
        """Each answered question's credit, by question id."""
        return {question_id: credit for question_id, (_, _, credit, _) in self.answers.items()}


WEEK = 7 * 86_400
FIRST_MONDAY = 4 * 86_400  # 1970-01-05, the first Monday after the epoch (a Thursday)


@dataclass(frozen=True)
class WeekActivity:
    """A chat's answers in one week (Monday to Sunday, UTC): its group quizzes' and homework's."""

    week: int  # weeks since 1970-01-05
    answers: int
    learners: int  # members who answered, forgotten ones counted without their name
    right: int  # the answers fully right

    @property
    def starts_at(self) -> int:
        return FIRST_MONDAY + self.week * WEEK


def _answer_group(row: Any) -> AnswerGroup:
    seconds = tuple(float(s) for s in row["seconds"].split(",")) if row["seconds"] else ()
    return AnswerGroup(
        row["question_id"],
        row["chosen"],
        row["reply"],
        row["n"],
        float(row["credit"]),
        bool(row["correct"]),
        seconds,
    )


class ReportStore:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def session_answers(self, session_id: int) -> list[SessionAnswer]:
        """Every answer of the session, by question (position), then member."""
        found: list[SessionAnswer] = []
        after = (-1, 0)
        while True:
            rows = await self._database.fetchall(
                """SELECT COALESCE(forgotten_as, user_id), position, chosen, correct,
                          COALESCE(credit, correct), user_id
                   FROM group_answers WHERE session_id=? AND (position, user_id) > (?, ?)
                   ORDER BY position, user_id LIMIT ?""",
                session_id,
                *after,
                PAGE,
            )
            found += [
                (who, at, chosen, right == 1, credit) for who, at, chosen, right, credit, _ in rows
            ]
            if len(rows) < PAGE:
                return found
            after = (rows[-1][1], rows[-1][5])
            await asyncio.sleep(0)  # the next page after other updates had a turn

    async def session_marks(self, session_id: int) -> list[MemberMarks]:
        """Each member of a group session with their mark per position answered, in one row
        per member (a 10,000-member session over 50 questions is 10,000 rows, not 500,000).
        Forgotten members are left out."""
        rows = await self._database.fetchall(
            """SELECT user_id, MAX(name) AS name, group_concat(position || ':' || COALESCE(credit, correct)) AS marks
               FROM group_answers WHERE session_id=? AND forgotten_as IS NULL AND user_id > 0
               GROUP BY user_id""",
            session_id,
        )
        return [
            MemberMarks(
                row["user_id"],
                row["name"],
                {
                    int(p): float(m)
                    for p, _, m in (pair.partition(":") for pair in row["marks"].split(","))
                },
            )
            for row in rows
        ]

    async def session_answer_groups(self, session_id: int) -> list[AnswerGroup]:
        """A group session's answers, grouped by question and what was chosen (forgotten
        members' answers count, without their names)."""
        rows = await self._database.fetchall(
            """SELECT question_id, chosen, NULL AS reply, COUNT(*) AS n,
                      SUM(COALESCE(credit, correct)) AS credit, MAX(correct) AS correct,
                      group_concat(elapsed) AS seconds
               FROM group_answers WHERE session_id=? GROUP BY question_id, chosen""",
            session_id,
        )
        return [_answer_group(row) for row in rows]

    async def attempts_answer_groups(self, attempt_ids: list[int]) -> list[AnswerGroup]:
        """These attempts' answers, grouped by question and what was chosen or typed; an
        answer's time is from the one before it in its attempt (the first: from its start)."""
        if not attempt_ids:
            return []
        marks = ",".join("?" * len(attempt_ids))
        rows = await self._database.fetchall(
            f"""WITH timed AS (
                    SELECT a.question_id, a.chosen, a.reply, a.correct,
                           COALESCE(a.credit, a.correct) AS credit,
                           a.answered_at - COALESCE(
                               LAG(a.answered_at) OVER (
                                   PARTITION BY a.attempt_id ORDER BY a.answered_at, a.id),
                               t.started_at) AS seconds
                    FROM answers a JOIN attempts t ON t.id = a.attempt_id
                    WHERE a.attempt_id IN ({marks}))
                SELECT question_id, chosen, reply, COUNT(*) AS n, SUM(credit) AS credit,
                       MAX(correct) AS correct, group_concat(MAX(seconds, 0)) AS seconds
                FROM timed GROUP BY question_id, chosen, reply""",
            *attempt_ids,
        )
        return [_answer_group(row) for row in rows]

    async def question_shares(
        self, chat_id: int, at_least: int, since: float, now: float
    ) -> list[QuestionShare]:
        """Every question answered at least `at_least` times in the chat since `since` (its
        group quizzes and posted questions begun since, its homework's answers given since,
        but an exam's before its deadline: how its questions fare would be a key to it), least
        credit first. A session's answers are summed by position, in the order of its primary
        key (no sort of every answer); CROSS JOIN keeps SQLite's joins in the order written:
        from the chat's homework, never from every answer."""
        rows = await self._database.fetchall(
            """SELECT quiz_id, question_id, SUM(n) AS n, SUM(credit) AS credit FROM (
                   SELECT s.quiz_id, g.question_id, g.n, g.credit
                   FROM group_sessions s
                   JOIN (SELECT session_id, MIN(question_id) AS question_id, COUNT(*) AS n,
                                SUM(COALESCE(credit, correct)) AS credit
                         FROM group_answers
                         WHERE session_id IN (SELECT id FROM group_sessions
                                              WHERE chat_id = ?1 AND started_at >= ?4)
                         GROUP BY session_id, position) g ON g.session_id = s.id
                   UNION ALL
                   SELECT h.quiz_id, a.question_id, 1, COALESCE(a.credit, a.correct)
                   FROM assignments h CROSS JOIN attempts t ON t.assignment_id = h.id
                   CROSS JOIN answers a ON a.attempt_id = t.id
                   WHERE h.chat_id = ?1 AND a.answered_at >= ?4
                     AND (h.exam = 0 OR h.deadline <= ?3))
               GROUP BY quiz_id, question_id HAVING SUM(n) >= ?2
               ORDER BY SUM(credit) / SUM(n), quiz_id, question_id""",
            chat_id,
            at_least,
            now,
            since,
        )
        return [
            QuestionShare(row["quiz_id"], row["question_id"], row["n"], float(row["credit"]))
            for row in rows
        ]

    async def class_learners(self, chat_id: int) -> set[int]:
        """Everyone who answered in the chat (a group quiz, a posted question, a homework),
        but the forgotten (their kept scores are their placeholder's, below 0)."""
        rows = await self._database.fetchall(
            """SELECT t.who FROM group_sessions s JOIN session_scores t ON t.session_id = s.id
               WHERE s.chat_id = ?1 AND t.who > 0
               UNION
               SELECT t.user_id
               FROM assignments h CROSS JOIN attempts t ON t.assignment_id = h.id
               WHERE h.chat_id = ?1""",
            chat_id,
        )
        return {row[0] for row in rows}

    async def asked_positions(self, session_id: int) -> list[tuple[int, str]]:
        """(position, question id) of every question the session asked, in order."""
        rows = await self._database.fetchall(
            """SELECT position, question_id FROM group_questions
               WHERE session_id=? ORDER BY position""",
            session_id,
        )
        return [(row["position"], row["question_id"]) for row in rows]

    async def daily_answers(
        self, user_id: int, since: float, utc_offset: int
    ) -> dict[int, tuple[int, int]]:
        """A learner's answers since `since`, per local day (days since 1970-01-01 at that
        UTC offset): (right, wrong)."""
        rows = await self._database.fetchall(
            """SELECT CAST((answered_at + ?) / 86400 AS INTEGER) AS day,
                      SUM(correct) AS n_right, COUNT(*) AS n
               FROM answers WHERE user_id=? AND answered_at >= ? GROUP BY day""",
            utc_offset,
            user_id,
            since,
        )
        return {row["day"]: (int(row["n_right"]), int(row["n"] - row["n_right"])) for row in rows}

    async def weekly_activity(self, chat_id: int, since: float, now: float) -> list[WeekActivity]:
        """The chat's activity since `since`, week by week (weeks with none left out): its
        group quizzes and posted questions, each in the week it began, from their kept scores
        (migration 21: no answer is read), and its homework's answers in the week they were
        given, but an exam's before its deadline (whether they were right would be a key to
        it)."""
        rows = await self._database.fetchall(
            """SELECT week, SUM(answers) AS answers, COUNT(DISTINCT who) AS learners,
                      SUM(right) AS n_right FROM (
                   SELECT CAST((s.started_at - ?1) / ?2 AS INTEGER) AS week, t.who,
                          t.answered AS answers, t.correct AS right
                   FROM group_sessions s JOIN session_scores t ON t.session_id = s.id
                   WHERE s.chat_id = ?3 AND s.started_at >= ?4
                   UNION ALL
                   SELECT CAST((a.answered_at - ?1) / ?2 AS INTEGER), a.user_id, 1, a.correct
                   FROM assignments h CROSS JOIN attempts t ON t.assignment_id = h.id
                   CROSS JOIN answers a ON a.attempt_id = t.id
                   WHERE h.chat_id = ?3 AND a.answered_at >= ?4
                     AND (h.exam = 0 OR h.deadline <= ?5))
               GROUP BY week ORDER BY week""",
            FIRST_MONDAY,
            WEEK,
            chat_id,
            since,
            now,
        )
        return [
            WeekActivity(row["week"], row["answers"], row["learners"], row["n_right"])
            for row in rows
        ]

    async def latest_attempts(self, quiz_id: str) -> list[LatestAttempt]:
        """Each learner's latest finished attempt at the quiz (quiz attempts, not reviews)."""
        rows = await self._database.fetchall(
            """SELECT a.id, a.user_id, u.first_name, a.score, a.total, a.started_at,
                      a.finished_at
               FROM (SELECT id, user_id, score, total, started_at, finished_at,
                            ROW_NUMBER() OVER (PARTITION BY user_id
                                               ORDER BY finished_at DESC, id DESC) AS latest
                     FROM attempts
                     WHERE quiz_id=? AND kind='quiz' AND finished_at IS NOT NULL) a
               JOIN users u ON u.user_id = a.user_id
               WHERE a.latest = 1 ORDER BY a.user_id""",
            quiz_id,
        )
        return await self._with_answers(rows)

    async def attempts(self, attempt_ids: list[int]) -> list[LatestAttempt]:
        """These attempts (finished or not), with their answers."""
        rows: list[Any] = []
        for page in _pages(sorted(set(attempt_ids)), ATTEMPTS_PAGE):
            rows += await self._database.fetchall(
                f"""SELECT a.id, a.user_id, u.first_name, COALESCE(a.score, 0) AS score,
                           a.total, a.started_at, COALESCE(a.finished_at, 0) AS finished_at
                    FROM attempts a JOIN users u ON u.user_id = a.user_id
                    WHERE a.id IN ({",".join("?" * len(page))})""",
                *page,
            )
        rows.sort(key=lambda row: row["id"])
        return await self._with_answers(rows)

    async def _with_answers(self, rows: list[Any]) -> list[LatestAttempt]:
        """The attempts of `rows` with their answers, a page of attempts at a time."""
        found = []
        for start in range(0, len(rows), ATTEMPTS_PAGE):
            page = rows[start : start + ATTEMPTS_PAGE]
            answers: dict[int, dict[str, GivenAnswer]] = {row["id"]: {} for row in page}
            given = await self._database.fetchall(
                f"""SELECT attempt_id, question_id, chosen, correct,
                           COALESCE(credit, correct), reply
                    FROM answers WHERE attempt_id IN ({",".join("?" * len(answers))})""",
                *answers,
            )
            for attempt_id, question_id, chosen, correct, credit, reply in given:
                answers[attempt_id][question_id] = (chosen, correct == 1, float(credit), reply)
            found += [
                LatestAttempt(
                    user_id=row["user_id"],
                    name=row["first_name"],
                    attempt_id=row["id"],
                    score=float(row["score"] or 0),
                    total=int(row["total"]),
                    started_at=float(row["started_at"]),
                    finished_at=float(row["finished_at"]),
                    answers=answers[row["id"]],
                )
                for row in page
            ]
            await asyncio.sleep(0)  # the next page after other updates had a turn
        return found


def _pages(items: Sequence[int], size: int) -> list[Sequence[int]]:
    return [items[start : start + size] for start in range(0, len(items), size)]
