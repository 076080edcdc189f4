"""A group that became a supergroup: `Storage.move_chat` (storage/chat_moves.py) against a real
SQLite file. The schema is read with PRAGMA, so a table added later with a chat column fails
here until the move covers it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage import Storage
from storage.group_store import GroupSession
from tests.support.db import rows_of_chat, whole_database
from tests.support.posting import answer_post, post

OLD, NEW, OTHER = -4001, -1004001, -5005
T0 = 1_700_000_000.0
IDS = ("q1", "q2")


async def timed(storage: Storage, chat: int, quiz: str = "arith") -> GroupSession:
    session = await storage.groups.start_session(
        chat_id=chat, chat_type="group", quiz_id=quiz, question_ids=IDS,
        seconds=20, mode="buttons", language="en", started_by=7, now=T0,
    )  # fmt: skip
    assert session is not None
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    return session


async def answered(storage: Storage, session: GroupSession, user: int, points: int) -> None:
    await storage.groups.record_answer(
        session_id=session.id, position=0, question_id="q1", user_id=user, name=f"u{user}",
        chosen=0, correct=points > 0, elapsed=2.0, points=points, now=T0 + 2,
    )  # fmt: skip


async def a_class(storage: Storage, chat: int) -> GroupSession:
    """A class with a row in every table that names its chat; its running quiz."""
    await storage.chats.set_timezone(chat, "Africa/Lagos", T0)
    await storage.chats.set_language(chat, "yo", T0)
    await storage.chats.note_chat(chat, "group", "Form 3", "administrator", T0)
    await storage.chats.set_admins(chat, {1, 2}, T0)
    await storage.homework.create(
        chat_id=chat, thread_id=None, quiz_id="arith", deadline=T0 + 7200, language="en",
        timezone="Africa/Lagos", created_by=1, now=T0,
    )  # fmt: skip
    await storage.content.save_schedule("arith", str(chat), 450, 1, T0)
    posted = await post(storage, chat, "arith", "q2", 1, T0)
    await answer_post(storage, posted, 3, 0, True, T0 + 1)
    quiz = await timed(storage, chat)
    await answered(storage, quiz, 3, 900)
    return quiz


async def test_every_table_with_a_chat_column_moves(storage: Storage, db_path: Path) -> None:
    running = await a_class(storage, OLD)
    await a_class(storage, OTHER)  # another chat is left alone
    other_before = rows_of_chat(db_path, OTHER)
    before = rows_of_chat(db_path, OLD)
    # the class has a row in every table that names a chat: a table added later with a
    # chat column shows here first, and must be filled above and moved
    assert sorted(t for t, n in before.items() if n == 0) == [], before

    move = await storage.move_chat(OLD, NEW, T0 + 10)

    assert move.moved and move.ended_sessions == (running.id,) and move.dropped_schedules == ()
    assert set(rows_of_chat(db_path, OLD).values()) == {0}
    assert rows_of_chat(db_path, NEW) == before
    assert rows_of_chat(db_path, OTHER) == other_before
    assert (await storage.chats.settings(NEW)).timezone == "Africa/Lagos"
    assert [a.chat_id for a in await storage.homework.open_assignments()] == [NEW, OTHER]
    assert [s.chat for s in await storage.content.schedules()] == [str(NEW), str(OTHER)]
    [score] = await storage.groups.chat_scores(NEW)
    assert (score.user_id, score.points) == (3, 900)
    assert await storage.groups.running_session(NEW) is None  # ended, its scores kept
    ended = await storage.groups.get_session(running.id)
    assert ended is not None and ended.chat_id == NEW and ended.outcome == "stopped"
    [known] = [k for k in await storage.chats.chats_of_admin(1) if k.chat_id == NEW]
    assert known.type == "supergroup" and known.title == "Form 3"

    # the second service message: nothing changes
    kept = whole_database(db_path)
    again = await storage.move_chat(OLD, NEW, T0 + 20)
    assert not again.moved and again.ended_sessions == ()
    assert whole_database(db_path) == kept


async def test_rows_already_under_the_new_id_are_merged(storage: Storage, db_path: Path) -> None:
    old_quiz = await a_class(storage, OLD)
    await storage.groups.stop_session(old_quiz.id, T0 + 3)
    # the supergroup, seen before the news of the upgrade: its own settings, admins, a
    # schedule of the same quiz, the same question posted, a quiz with points of its own
    await storage.chats.set_language(NEW, "en", T0 + 5)
    await storage.chats.note_chat(NEW, "supergroup", "Form 3 (all)", "administrator", T0 + 5)
    await storage.chats.set_admins(NEW, {2, 9}, T0 + 5)
    await storage.content.save_schedule("arith", str(NEW), 600, 1, T0 + 5)
    new_post = await post(storage, NEW, "arith", "q2", 1, T0 + 5)
    await answer_post(storage, new_post, 3, 1, False, T0 + 6)  # answered in both: kept
    await answer_post(storage, new_post, 4, 0, True, T0 + 6)
    new_quiz = await timed(storage, NEW)
    await answered(storage, new_quiz, 3, 500)
    await answered(storage, new_quiz, 5, 700)
    with sqlite3.connect(db_path) as db:
        totals = db.execute("SELECT answers, correct FROM question_totals WHERE question_id='q2'")
        assert totals.fetchall() == [(3, 2)]

    move = await storage.move_chat(OLD, NEW, T0 + 10)

    assert move.moved and move.ended_sessions == ()  # it had been stopped
    assert set(rows_of_chat(db_path, OLD).values()) == {0}
    settings = await storage.chats.settings(NEW)
    assert (settings.language, settings.timezone) == ("en", "Africa/Lagos")  # new's, then old's
    [schedule] = await storage.content.schedules()
    assert (schedule.chat, schedule.minute_of_day) == (str(NEW), 600)
    assert len(move.dropped_schedules) == 1
    with sqlite3.connect(db_path) as db:
        admins = db.execute("SELECT user_id FROM chat_admins WHERE chat_id=?", (NEW,))
        assert sorted(r[0] for r in admins) == [1, 2, 9]
        title = db.execute("SELECT title, type FROM known_chats WHERE chat_id=?", (NEW,))
        assert title.fetchall() == [("Form 3 (all)", "supergroup")]
        posts = db.execute("SELECT id FROM group_sessions WHERE kind='post'").fetchall()
        assert posts == [(new_post.id,)]
        post_answers = db.execute(
            "SELECT user_id, correct FROM group_answers WHERE session_id=? ORDER BY user_id",
            (new_post.id,),
        )
        assert post_answers.fetchall() == [(3, 0), (4, 1)]  # Ada's answer in the new chat kept
        totals = db.execute("SELECT answers, correct FROM question_totals WHERE question_id='q2'")
        assert totals.fetchall() == [(2, 1)]  # the answers the one post holds
    scores = {row.user_id: row.points for row in await storage.groups.chat_scores(NEW)}
    assert scores == {3: 1400, 5: 700}  # all-time points add up
    with sqlite3.connect(db_path) as db:
        sums = db.execute(
            """SELECT COALESCE(forgotten_as, user_id), SUM(points) FROM group_answers a
               JOIN group_sessions s ON s.id = a.session_id
               WHERE s.chat_id=? AND s.kind='timed' GROUP BY 1""",
            (NEW,),
        )
        assert dict(sums.fetchall()) == scores  # as the triggers would have summed them


async def test_a_move_to_the_same_id_or_of_an_unknown_chat_changes_nothing(
    storage: Storage, db_path: Path
) -> None:
    await a_class(storage, OLD)
    kept = whole_database(db_path)
    assert not (await storage.move_chat(OLD, OLD, T0)).moved
    assert not (await storage.move_chat(-777, NEW, T0)).moved
    assert whole_database(db_path) == kept
