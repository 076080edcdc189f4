"""An attempt read against its quiz as it is now: retired questions count nowhere; and the
score an attempt is stored with when it ends is that reading's."""

from __future__ import annotations

from content.rules import attempt_progress
from storage import Storage


def test_retired_items_count_nowhere() -> None:
    now = attempt_progress(("a", "b", "c", "d"), {"a", "b"}, {"b"})
    assert now.items == ("a", "c", "d")
    assert (now.done, now.total) == (1, 3)
    assert now.next_item == "c" and now.number("c") == 2
    assert now.with_answer("c").next_item == "d"
    assert attempt_progress(("a", "b"), {"a"}, {"b"}).next_item is None


async def test_an_attempt_ends_with_the_score_and_total_it_is_given(storage: Storage) -> None:
    await storage.learners.touch_user(1, "Ada", "en", 0.0)
    attempt = await storage.learners.start_attempt(1, "quiz", ("a", "b", "c"), 0.0)
    await storage.learners.record_answer(attempt, "a", 0, True, 1.0, finishes=False)
    await storage.learners.record_answer(attempt, "b", 0, True, 2.0, finishes=False)
    # "b" was retired: the last answer ends the attempt at 1 of 2, not 2 of 3
    outcome = await storage.learners.record_answer(
        attempt, "c", 1, False, 3.0, finishes=True, result=(1, 2)
    )
    assert outcome.finished and outcome.score == 1
    record = (await storage.learners.quiz_records(1))["quiz"]
    assert (record.best_score, record.best_total, record.running_answered) == (1, 2, None)


async def test_finishing_an_attempt_with_nothing_left_to_ask(storage: Storage) -> None:
    await storage.learners.touch_user(1, "Ada", "en", 0.0)
    attempt = await storage.learners.start_attempt(1, "quiz", ("a", "b"), 0.0)
    await storage.learners.record_answer(attempt, "a", 0, False, 1.0, finishes=False)
    assert await storage.learners.finish_attempt(attempt.id, 0, 1, 2.0)
    assert not await storage.learners.finish_attempt(attempt.id, 1, 1, 3.0)  # once only
    record = (await storage.learners.quiz_records(1))["quiz"]
    assert (record.last_score, record.last_total, record.attempts_finished) == (0, 1, 1)
    assert await storage.learners.running_attempt(1, "quiz") is None
