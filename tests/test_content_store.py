"""Unit tests of storage.ContentStore (`repo.content`) against a real SQLite file."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Repository

T0 = 1_700_000_000.0
ADMIN = 42


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[Repository]:
    repository = await Repository.open(tmp_path / "quiz.sqlite3")
    yield repository
    await repository.close()


async def test_bank_saved_with_retired_questions_and_audit(
    repo: Repository, tmp_path: Path
) -> None:
    store = repo.content
    await store.save_bank("q", "id: q\n", ADMIN, T0, "import", {"added": ["a"]})
    await store.save_bank(
        "q", "id: q # v2\n", ADMIN, T0 + 1, "retire", {"question": "b"}, retired=[("b", "Bee?")]
    )
    banks = await store.banks()
    assert [(b.quiz_id, b.yaml, b.updated_at) for b in banks] == [("q", "id: q # v2\n", T0 + 1)]
    retired = await store.retired("q")
    assert [(r.question_id, r.text) for r in retired] == [("b", "Bee?")]
    assert await store.known_question_ids("q") == {"b"}
    await store.save_bank("q", "id: q # v3\n", ADMIN, T0 + 2, "import", {}, restored=["b"])
    assert await store.retired() == []
    log = await store.audit_log()
    assert [entry.action for entry in log] == ["import", "retire", "import"][::-1]
    assert json.loads(log[-1].detail) == {"added": ["a"]}
    assert all(entry.admin_id == ADMIN for entry in log)
    await repo.close()
    reopened = await Repository.open(tmp_path / "quiz.sqlite3")
    try:
        assert [b.yaml for b in await reopened.content.banks()] == ["id: q # v3\n"]
    finally:
        await reopened.close()


async def test_posts_take_one_answer_per_member_until_revealed(repo: Repository) -> None:
    store = repo.content
    post = await store.reserve_post(-100, "q", "q1", ADMIN, T0)
    assert post is not None and not post.revealed and post.message_id is None
    await store.set_post_message(post.id, 7)
    assert await store.reserve_post(-100, "q", "q1", ADMIN, T0) is None
    assert (await store.get_post(post.id)) == dataclasses.replace(post, message_id=7)
    dropped = await store.reserve_post(-100, "q", "q2", ADMIN, T0)
    assert dropped is not None
    await store.drop_post(dropped.id)
    assert await store.posted_question_ids(-100, "q") == {"q1"}
    assert await store.answer_post(post.id, 1, 0, True, T0)
    assert not await store.answer_post(post.id, 1, 1, False, T0)
    assert await store.answer_post(post.id, 2, 1, False, T0)
    assert (await store.post_tally(post.id)).answers == 2
    assert [p.id for p in await store.open_posts(-100)] == [post.id]
    assert await store.reveal_post(post.id, T0)
    assert not await store.reveal_post(post.id, T0)
    assert not await store.answer_post(post.id, 3, 0, True, T0)
    assert await store.open_posts(-100) == []
    totals = await store.quiz_totals()
    assert (totals["q"].learners, totals["q"].answers, totals["q"].correct) == (2, 2, 1)


async def test_stats_count_private_and_posted_answers(repo: Repository) -> None:
    await repo.touch_user(1, "Ada", "en", T0)
    attempt = await repo.start_attempt(1, "q", ("q1", "q2"), T0)
    await repo.record_answer(attempt, "q1", 0, True, T0)
    await repo.record_answer(attempt, "q2", 1, False, T0)
    post = await repo.content.reserve_post(-5, "q", "q2", ADMIN, T0)
    assert post is not None
    await repo.content.answer_post(post.id, 2, 1, False, T0)
    stats = {s.question_id: (s.answers, s.correct) for s in await repo.content.question_stats()}
    assert stats == {"q1": (1, 1), "q2": (2, 0)}
    assert await repo.content.learner_count() == 2


async def test_schedules_are_kept_one_per_quiz_and_chat(repo: Repository) -> None:
    first = await repo.content.save_schedule("q", "@news", 9 * 60, ADMIN, T0)
    second = await repo.content.save_schedule("q", "@news", 10 * 60, ADMIN, T0)
    assert first.id == second.id
    assert [(s.chat, s.minute_of_day) for s in await repo.content.schedules()] == [("@news", 600)]
