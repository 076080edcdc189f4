"""Unit tests of storage.ContentStore (`Storage.content`) against a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Storage
from tests.support.posting import answer_post, post

T0 = 1_700_000_000.0
ADMIN = 42


async def test_bank_saved_with_retired_questions_and_audit(storage: Storage, db_path: Path) -> None:
    store = storage.content
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
    log = await storage.audit.entries()
    assert [entry.action for entry in log] == ["import", "retire", "import"][::-1]
    assert json.loads(log[-1].detail) == {"added": ["a"]}
    assert all(entry.admin_id == ADMIN for entry in log)
    await storage.close()
    reopened = await Storage.open(db_path)
    try:
        assert [b.yaml for b in await reopened.content.banks()] == ["id: q # v3\n"]
    finally:
        await reopened.close()


async def test_stats_count_private_and_posted_answers(storage: Storage) -> None:
    await storage.learners.touch_user(1, "Ada", "en", T0)
    attempt = await storage.learners.start_attempt(1, "q", ("q1", "q2"), T0)
    await storage.learners.record_answer(attempt, "q1", 0, True, T0)
    await storage.learners.record_answer(attempt, "q2", 1, False, T0)
    posted = await post(storage, -5, "q", "q2", ADMIN, T0)
    await answer_post(storage, posted, 2, 1, False, T0)
    stats = {s.question_id: (s.answers, s.correct) for s in await storage.content.question_stats()}
    assert stats == {"q1": (1, 1), "q2": (2, 0)}
    assert await storage.content.learner_count() == 2


async def test_schedules_are_kept_one_per_quiz_and_chat(storage: Storage) -> None:
    first = await storage.content.save_schedule("q", "@news", 9 * 60, ADMIN, T0)
    second = await storage.content.save_schedule("q", "@news", 10 * 60, ADMIN, T0)
    assert first.id == second.id
    assert [(s.chat, s.minute_of_day) for s in await storage.content.schedules()] == [
        ("@news", 600)
    ]
