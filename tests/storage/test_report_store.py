"""What reports read, a page at a time: every row, once, whatever the page size (page
boundaries inside a question, inside a member's attempts), and the latest attempt per learner
as the report has always chosen it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from storage import Storage, report_store
from tests.support.db import rows

NOW = 1_767_000_000.0


async def _session(storage: Storage, members: int, questions: int) -> int:
    session = await storage.groups.start_session(
        chat_id=-100_900, chat_type="supergroup", quiz_id="arith",
        question_ids=tuple(f"q{n}" for n in range(questions)), seconds=30, mode="buttons",
        language="en", started_by=None, now=NOW,
    )  # fmt: skip
    assert session is not None
    for position in range(questions):
        at = NOW + position * 40
        await storage.groups.question_asked(
            session.id, position, f"q{position}", 9, None, at, at + 30
        )
        for member in range(1, members + 1):
            if (member + position) % 3:  # not everyone answers every question
                await storage.groups.record_answer(
                    session_id=session.id, position=position, question_id=f"q{position}",
                    user_id=member * 7, name=f"m{member}", chosen=member % 4,
                    correct=member % 4 == 0, elapsed=1.0, points=10, now=at + 1,
                )  # fmt: skip
        await storage.groups.reveal(session.id, position, at + 31)
    return session.id


@pytest.mark.parametrize("page", [1, 3, 4, 1000])
async def test_a_sessions_answers_are_all_read_once_whatever_the_page(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(report_store, "PAGE", page)
    storage = await Storage.open(db_path)
    try:
        session = await _session(storage, members=5, questions=3)
        read = await storage.reports.session_answers(session)
    finally:
        await storage.close()
    stored = rows(
        db_path,
        """SELECT user_id, position, chosen, correct = 1, COALESCE(credit, correct)
           FROM group_answers WHERE session_id=? ORDER BY position, user_id""",
        session,
    )
    assert [tuple(a) for a in read] == [(u, p, c, bool(r), k) for u, p, c, r, k in stored]
    assert len(read) == 10
    gc.collect()  # plain tuples of plain values: no longer followed by the collector's passes
    assert not any(gc.is_tracked(answer) for answer in read)


async def _attempt(storage: Storage, user: int, quiz: str, at: float, finished: bool) -> int:
    await storage.learners.touch_user(user, f"name-{user}", "en", at)
    attempt = await storage.learners.start_attempt(user, quiz, ("q1", "q2"), at)
    await storage.learners.record_answer(attempt, "q1", user % 3, user % 2 == 0, at + 1)
    if finished:
        await storage.learners.record_answer(attempt, "q2", 1, True, at + 2)
    return attempt.id


@pytest.mark.parametrize("page", [1, 2, 500])
async def test_the_latest_attempts_are_each_learners_latest_finished_one(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(report_store, "ATTEMPTS_PAGE", page)
    storage = await Storage.open(db_path)
    try:
        for user in range(1, 6):
            await _attempt(storage, user, "arith", NOW, finished=True)
            await _attempt(storage, user, "arith", NOW + 100 * user, finished=user % 2 == 0)
            await _attempt(storage, user, "other", NOW + 500, finished=True)
        latest = await storage.reports.latest_attempts("arith")
        some = await storage.reports.attempts([*(a.attempt_id for a in reversed(latest)), 99_999])
    finally:
        await storage.close()
    # what the report chose before it read in pages: per learner, the latest finished attempt
    expected = rows(
        db_path,
        """SELECT a.id, a.user_id FROM attempts a
           WHERE a.quiz_id='arith' AND a.kind='quiz' AND a.finished_at IS NOT NULL
             AND a.id = (SELECT b.id FROM attempts b
                         WHERE b.user_id=a.user_id AND b.quiz_id=a.quiz_id
                           AND b.kind='quiz' AND b.finished_at IS NOT NULL
                         ORDER BY b.finished_at DESC, b.id DESC LIMIT 1)
           ORDER BY a.user_id""",
    )
    assert [(a.attempt_id, a.user_id) for a in latest] == expected
    for attempt in latest:
        stored = rows(
            db_path,
            """SELECT question_id, chosen, correct, COALESCE(credit, correct), reply
               FROM answers WHERE attempt_id=?""",
            attempt.attempt_id,
        )
        assert attempt.answers == {q: (c, bool(r), float(k), t) for q, c, r, k, t in stored}
        assert len(attempt.answers) == 2
    assert some == latest  # by id, each once, an unknown id left out
    gc.collect()
    assert not any(gc.is_tracked(given) for a in latest for given in a.answers.values())
