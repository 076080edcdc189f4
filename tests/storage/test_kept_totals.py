"""The figures of /stats and the leaderboards are kept as answers come and go (migrations 14
and 15's triggers): whatever happens (private answers with partial credit and typed replies,
posted questions answered, timed group quizzes in two chats, members renamed, learners
forgotten while a question is open, held answers released), they are what counting every
stored answer says, as /stats and /leaderboard counted before."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Storage
from storage.group_store import ScoreRow
from storage.held_answers import HOLD_LIMIT
from tests.support.posting import answer_post

NOW = 1_767_000_000.0
CHAT = -100_700
CHATS = (CHAT, -100_701)
LEARNERS = (1, 2, 3)
MEMBERS = (*LEARNERS, 50, 51)  # 50 and 51 never started the bot
QUIZZES = ("arith", "words")
QUESTIONS = ("q1", "q2", "q3")

# what /stats counted before its figures were kept: every private answer and posted answer
ALL_ANSWERS = """
    SELECT user_id, quiz_id, question_id, correct FROM answers
    UNION ALL
    SELECT COALESCE(a.forgotten_as, a.user_id), s.quiz_id, a.question_id, a.correct
    FROM group_sessions s JOIN group_answers a ON a.session_id = s.id
    WHERE s.kind = 'post'
"""

private = st.tuples(
    st.just("private"),
    st.sampled_from(LEARNERS),
    st.sampled_from(QUIZZES),
    st.sampled_from(QUESTIONS),
    st.booleans(),
    st.sampled_from([None, 0.0, 0.5, 1.0]),
    st.sampled_from([None, "bubble", "pipeline"]),
)
posted = st.tuples(
    st.just("post"),
    st.sampled_from(QUIZZES),
    st.sampled_from(QUESTIONS),
    st.lists(st.tuples(st.sampled_from(MEMBERS), st.booleans()), max_size=4),
)
timed = st.tuples(
    st.just("timed"), st.sampled_from(CHATS), st.lists(st.sampled_from(MEMBERS), max_size=3)
)
reveal = st.tuples(st.just("reveal"), st.sampled_from(CHATS))
forget = st.tuples(st.just("forget"), st.sampled_from(LEARNERS))
release = st.tuples(st.just("release"))
steps = st.lists(st.one_of(private, posted, timed, reveal, forget, release), max_size=14)

# what a leaderboard counted before its figures were kept
SCORES = """SELECT COALESCE(a.forgotten_as, a.user_id) AS who,
       (SELECT b.name FROM group_answers b WHERE b.user_id=COALESCE(a.forgotten_as, a.user_id)
          AND b.forgotten_as IS NULL
        ORDER BY b.answered_at DESC LIMIT 1) AS name,
       SUM(a.points), SUM(a.correct), COUNT(*), SUM(a.elapsed)
FROM group_answers a JOIN group_sessions s ON s.id = a.session_id
WHERE {where}
GROUP BY who"""


async def play(path: Path, script: list[tuple[Any, ...]]) -> Storage:
    storage = await Storage.open(path)
    now = NOW
    for step in script:
        now += 60
        kind = step[0]
        if kind == "private":
            _, user, quiz, question, correct, credit, reply = step
            await storage.learners.touch_user(user, f"name-{user}", "en", now)
            attempt = await storage.learners.start_attempt(user, quiz, (question,), now)
            await storage.learners.record_answer(
                attempt, question, 0, correct, now, credit=credit, reply=reply
            )
        elif kind == "post":
            _, quiz, question, answers = step
            session = await storage.groups.start_post(
                chat_id=CHAT, chat_type="channel", quiz_id=quiz, question_id=question,
                language="", posted_by=None, now=now,
            )  # fmt: skip
            if session is None:  # posted into this chat before
                continue
            await storage.groups.post_sent(session.id, question, 7, now)
            for user, correct in answers:
                await answer_post(storage, session, user, 0, correct, now)
        elif kind == "timed":  # the chat's running quiz, started if none, answered
            _, chat, members = step
            session = await storage.groups.running_session(chat)
            if session is None:
                session = await storage.groups.start_session(
                    chat_id=chat, chat_type="supergroup", quiz_id="arith",
                    question_ids=QUESTIONS, seconds=30, mode="buttons", language="en",
                    started_by=None, now=now,
                )  # fmt: skip
                assert session is not None
            position = session.position
            if await storage.groups.asked(session.id, position) is None:
                question = QUESTIONS[position]
                await storage.groups.question_asked(
                    session.id, position, question, 9, None, now, now + 30
                )
            for n, user in enumerate(members):
                await storage.groups.record_answer(
                    session_id=session.id, position=position, question_id=QUESTIONS[position],
                    user_id=user, name=f"name-{user}-{now:.0f}", chosen=0, correct=n % 2 == 0,
                    elapsed=1.5 + n, points=500 - n, now=now + n,
                )  # fmt: skip
        elif kind == "reveal":  # the chat's running quiz's question revealed
            session = await storage.groups.running_session(step[1])
            if session is not None:
                await storage.groups.reveal(session.id, session.position, now)
        elif kind == "forget":
            await storage.privacy.forget_learner(step[1], now)
        else:
            now += HOLD_LIMIT  # every post answered so far is past holding
            await storage.privacy.release_held(now)
    return storage


def counted(path: Path) -> dict[str, Any]:
    """/stats's figures, counted from every stored answer."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return {
            "learners": db.execute(
                f"SELECT COUNT(DISTINCT user_id) FROM ({ALL_ANSWERS})"
            ).fetchone()[0],
            "quizzes": {
                row[0]: (row[1], row[2], row[3])
                for row in db.execute(
                    f"""SELECT quiz_id, COUNT(DISTINCT user_id), COUNT(*), SUM(correct)
                        FROM ({ALL_ANSWERS}) GROUP BY quiz_id"""
                )
            },
            "questions": Counter(
                {
                    (row[0], row[1]): (row[2], row[3])
                    for row in db.execute(
                        f"""SELECT quiz_id, question_id, COUNT(*), SUM(correct)
                            FROM ({ALL_ANSWERS}) GROUP BY quiz_id, question_id"""
                    )
                }
            ),
            "credit": {
                (row[0], row[1]): (row[2], round(row[3], 9))
                for row in db.execute(
                    """SELECT quiz_id, question_id, COUNT(*), SUM(COALESCE(credit, correct))
                       FROM answers GROUP BY quiz_id, question_id HAVING COUNT(credit) > 0"""
                )
            },
            "wrong": sorted(
                db.execute(
                    """SELECT quiz_id, question_id, reply, COUNT(*) FROM answers
                       WHERE reply IS NOT NULL AND correct = 0
                       GROUP BY quiz_id, question_id, reply"""
                ).fetchall()
            ),
            "sessions": {
                session: sorted(
                    (row[0], row[1] or "", row[2], row[3], row[4], round(row[5], 6))
                    for row in db.execute(SCORES.format(where="a.session_id=?"), (session,))
                )
                for (session,) in db.execute("SELECT id FROM group_sessions").fetchall()
            },
            "chats": {
                chat: sorted(
                    (row[0], row[1] or "", row[2], row[3], row[4], round(row[5], 6))
                    for row in db.execute(
                        SCORES.format(where="s.chat_id=? AND s.kind='timed'"), (chat,)
                    )
                )
                for chat in CHATS
            },
            "known": {
                quiz: {
                    row[0]
                    for row in db.execute(
                        """SELECT question_id FROM answers WHERE quiz_id=?
                           UNION SELECT value FROM group_sessions, json_each(question_ids)
                           WHERE kind = 'post' AND quiz_id=?""",
                        (quiz, quiz),
                    )
                }
                for quiz in QUIZZES
            },
        }


async def kept(storage: Storage) -> dict[str, Any]:
    """/stats's figures as the store reads them."""
    content = storage.content
    return {
        "learners": await content.learner_count(),
        "quizzes": {
            quiz: (t.learners, t.answers, t.correct)
            for quiz, t in (await content.quiz_totals()).items()
        },
        "questions": Counter(
            {
                (s.quiz_id, s.question_id): (s.answers, s.correct)
                for s in await content.question_stats()
            }
        ),
        "credit": {
            (c.quiz_id, c.question_id): (c.answers, round(c.credit, 9))
            for c in await content.questions_with_credit()
        },
        "wrong": sorted(
            (w.quiz_id, w.question_id, w.reply, w.count) for w in await content.wrong_replies()
        ),
        "sessions": {
            session: _board(await storage.groups.session_scores(session))
            for session in await _sessions(storage)
        },
        "chats": {chat: _board(await storage.groups.chat_scores(chat)) for chat in CHATS},
        "known": {quiz: await content.known_question_ids(quiz) for quiz in QUIZZES},
    }


def _board(rows: list[ScoreRow]) -> list[tuple[Any, ...]]:
    return sorted(
        (r.user_id, r.name, r.points, r.correct, r.answered, round(r.total_time, 6)) for r in rows
    )


async def _sessions(storage: Storage) -> list[int]:
    found = await storage.database.fetchall("SELECT id FROM group_sessions")
    return [row[0] for row in found]


async def figures(script: list[tuple[Any, ...]]) -> tuple[dict[str, Any], dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.sqlite3"
        storage = await play(path, script)
        try:
            return await kept(storage), counted(path)
        finally:
            await storage.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_the_stats_kept_are_the_stats_counted(script: list[tuple[Any, ...]]) -> None:
    stored, recounted = asyncio.run(figures(script))
    assert stored == recounted


def test_a_forgotten_learners_held_post_answer_moves_to_their_placeholder() -> None:
    """One script in full: a post answered by a learner who is then forgotten while it is
    open (held), then released; their private answers gone from the counts; and the same
    person back, answering again: a new learner beside their placeholder."""
    script: list[tuple[Any, ...]] = [
        ("private", 1, "arith", "q1", False, 0.5, "bubble"),
        ("post", "arith", "q2", [(1, True), (50, False)]),
        ("forget", 1),
        ("release",),
        ("private", 1, "arith", "q3", True, None, None),
    ]
    stored, recounted = asyncio.run(figures(script))
    assert stored == recounted
    assert stored["learners"] == 3  # the placeholder, member 50 and learner 1 again
    assert stored["credit"] == {}
    assert stored["quizzes"] == {"arith": (3, 3, 2)}


def test_a_forgotten_members_held_quiz_answer_scores_for_their_placeholder() -> None:
    """A member answers a running quiz twice under two names, another chat's quiz once, is
    forgotten while the question is open (held, nameless), and the question is revealed
    (released): every board has the placeholder, nameless, with the member's points."""
    script: list[tuple[Any, ...]] = [
        ("timed", CHATS[0], [2, 50]),
        ("reveal", CHATS[0]),
        ("timed", CHATS[1], [2]),
        ("timed", CHATS[0], [2, 51]),
        ("forget", 2),
        ("reveal", CHATS[0]),
    ]
    stored, recounted = asyncio.run(figures(script))
    assert stored == recounted
    board = stored["chats"][CHATS[0]]
    assert [row[1:3] for row in board] == [
        ("", 1000),
        ("name-50-1767000060", 499),
        ("name-51-1767000240", 499),
    ]
