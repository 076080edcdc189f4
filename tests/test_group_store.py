"""Unit tests of storage/group_store.py (Repository.groups) against a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Repository
from storage.group_store import AnswerStatus, GroupSession, RevealStep

CHAT = -1001
T0 = 1_700_000_000.0
IDS = ("q1", "q2")


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[Repository]:
    repository = await Repository.open(tmp_path / "quiz.sqlite3")
    yield repository
    await repository.close()


async def start(repo: Repository, chat_id: int = CHAT) -> GroupSession:
    session = await repo.groups.start_session(
        chat_id=chat_id, chat_type="supergroup", quiz_id="arith", question_ids=IDS,
        seconds=20, mode="buttons", language="en", started_by=7, now=T0,
    )  # fmt: skip
    assert session is not None
    return session


async def answer(
    repo: Repository, session: GroupSession, user_id: int, chosen: int, now: float,
    position: int = 0,
) -> AnswerStatus:  # fmt: skip
    outcome = await repo.groups.record_answer(
        session_id=session.id, position=position, question_id=IDS[position], user_id=user_id,
        name=f"u{user_id}", chosen=chosen, correct=chosen == 0, elapsed=now - T0,
        points=1000 if chosen == 0 else 0, now=now,
    )  # fmt: skip
    return outcome.status


async def test_one_running_session_per_chat(repo: Repository) -> None:
    first = await start(repo)
    assert first.position == 0 and first.running and first.total == 2
    again = await repo.groups.start_session(
        chat_id=CHAT, chat_type="supergroup", quiz_id="other", question_ids=IDS,
        seconds=20, mode="buttons", language="en", started_by=8, now=T0,
    )  # fmt: skip
    assert again is None
    assert (await start(repo, chat_id=-2002)).id != first.id
    assert await repo.groups.stop_session(first.id, T0 + 1)
    assert not await repo.groups.stop_session(first.id, T0 + 2)
    assert (await start(repo)).id != first.id


async def test_first_answer_stands_and_late_or_revealed_answers_are_closed(
    repo: Repository,
) -> None:
    session = await start(repo)
    assert await answer(repo, session, 1, 0, T0 + 1) is AnswerStatus.CLOSED  # not asked yet
    await repo.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    assert await answer(repo, session, 1, 0, T0 + 1) is AnswerStatus.RECORDED
    outcome = await repo.groups.record_answer(
        session_id=session.id, position=0, question_id="q1", user_id=1, name="u1",
        chosen=1, correct=False, elapsed=2, points=0, now=T0 + 2,
    )  # fmt: skip
    assert (outcome.status, outcome.chosen, outcome.points) == (AnswerStatus.ALREADY, 0, 1000)
    assert await answer(repo, session, 2, 1, T0 + 21) is AnswerStatus.CLOSED  # too late
    assert await answer(repo, session, 3, 1, T0 + 5, position=1) is AnswerStatus.CLOSED
    assert await answer(repo, session, 4, 1, T0 + 6) is AnswerStatus.RECORDED
    assert await repo.groups.answer_counts(session.id, 0) == {0: 1, 1: 1}
    assert await repo.groups.reveal(session.id, 0, T0 + 7) == RevealStep(True, 1)
    assert await repo.groups.reveal(session.id, 0, T0 + 8) == RevealStep(False)
    assert await answer(repo, session, 5, 0, T0 + 8) is AnswerStatus.CLOSED


async def test_concurrent_taps_of_one_person_record_one_answer(repo: Repository) -> None:
    session = await start(repo)
    await repo.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    results = await asyncio.gather(*(answer(repo, session, 1, n % 2, T0 + 1) for n in range(6)))
    assert results.count(AnswerStatus.RECORDED) == 1
    assert await repo.groups.count_answers() == 1


async def test_the_last_reveal_finishes_the_session_and_scores_add_up(repo: Repository) -> None:
    session = await start(repo)
    await repo.groups.question_asked(session.id, 0, "q1", 10, "poll-1", T0, T0 + 20)
    await answer(repo, session, 1, 0, T0 + 2)
    await answer(repo, session, 2, 0, T0 + 1)
    await repo.groups.reveal(session.id, 0, T0 + 20)
    await repo.groups.question_asked(session.id, 1, "q2", 11, None, T0 + 20, T0 + 40)
    await answer(repo, session, 1, 0, T0 + 21, position=1)
    assert await repo.groups.reveal(session.id, 1, T0 + 40) == RevealStep(True, None)
    ended = await repo.groups.get_session(session.id)
    assert ended is not None and not ended.running and ended.outcome == "finished"
    assert await repo.groups.running_sessions() == []
    assert await repo.groups.latest_session(CHAT) == ended
    scores = {row.user_id: row for row in await repo.groups.session_scores(session.id)}
    assert scores[1].points == 2000 and scores[1].correct == 2 and scores[1].answered == 2
    assert scores[2].points == 1000 and scores[2].total_time == pytest.approx(1.0)
    asked = await repo.groups.asked_by_poll("poll-1")
    assert asked is not None and asked.position == 0 and asked.revealed_at == T0 + 20

    second = await start(repo)
    await repo.groups.question_asked(second.id, 0, "q1", 12, None, T0, T0 + 20)
    await answer(repo, second, 2, 0, T0 + 3)
    chat = {row.user_id: row.points for row in await repo.groups.chat_scores(CHAT)}
    assert chat == {1: 2000, 2: 2000}
    assert await repo.groups.latest_session(CHAT) == await repo.groups.get_session(second.id)
