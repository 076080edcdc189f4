"""The exam store on a real SQLite file: one running exam per learner and quiz beside their own
attempt at it, responses taken only while the exam runs and its time is not up, and the end
done once: answers and reviews of the cards only then, in one commit."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.exam_store import BY_LEARNER, BY_TIME, MarkedAnswer

ADA, BO = 1001, 1002
QUIZ = "mini-exam"


@pytest.fixture
async def learners(storage: Storage) -> Storage:
    for user_id, name in ((ADA, "Ada"), (BO, "Bo")):
        await storage.learners.touch_user(user_id, name, "en", 0.0)
    return storage


async def test_an_exam_runs_beside_the_learners_own_attempt_and_keeps_its_paper(
    learners: Storage,
) -> None:
    exams = learners.exams
    own = await learners.learners.start_attempt(ADA, QUIZ, ("n1", "n2", "n3"), 10.0)
    sitting = await exams.start(ADA, QUIZ, ("n2", "w1"), seed=7, paper="{}", now=10.0, seconds=60)
    assert sitting.attempt.id != own.id and sitting.quiz_id == QUIZ
    assert sitting.attempt.question_ids == ("n2", "w1") and sitting.ends_at == 70.0
    again = await exams.start(ADA, QUIZ, ("n3", "w2"), seed=8, paper="{}", now=20.0, seconds=60)
    assert again == sitting  # the running one, with the paper drawn first
    assert await exams.hidden_quizzes(ADA, 20.0) == {QUIZ}
    assert await exams.hidden_quizzes(BO, 20.0) == set()
    assert await learners.learners.running_attempt(ADA, QUIZ) == own
    assert [s.attempt.id for s in await exams.open_sittings()] == [sitting.attempt.id]


async def test_a_response_is_taken_only_while_the_exam_runs_and_its_time_is_not_up(
    learners: Storage,
) -> None:
    exams = learners.exams
    sitting = await exams.start(ADA, QUIZ, ("n1", "w2"), seed=1, paper="{}", now=0.0, seconds=60)
    attempt = sitting.attempt.id
    assert await exams.respond(attempt, "n1", 2, None, 10.0)
    assert await exams.respond(attempt, "n1", 0, None, 20.0)  # changed
    assert await exams.toggle(attempt, "w2", 0, 21.0) == 1
    assert await exams.toggle(attempt, "w2", 2, 22.0) == 5
    assert await exams.toggle(attempt, "w2", 0, 23.0) == 4
    assert await exams.toggle(attempt, "w2", 2, 24.0) == 0  # nothing picked: no response
    responses = await exams.responses(attempt)
    assert list(responses) == ["n1"] and responses["n1"].chosen == 0
    assert not await exams.respond(attempt, "n1", 1, None, 60.0)  # the time is up
    assert await exams.toggle(attempt, "w2", 1, 61.0) is None
    assert not await exams.clear(attempt, "n1", 61.0)
    assert (await exams.responses(attempt))["n1"].chosen == 0
    assert await exams.clear(attempt, "n1", 30.0)
    assert await exams.responses(attempt) == {}


async def test_the_end_is_once_and_only_then_the_responses_become_answers_and_reviews(
    learners: Storage,
) -> None:
    exams, database = learners.exams, learners.database
    sitting = await exams.start(ADA, QUIZ, ("n1", "n2"), seed=1, paper="{}", now=0.0, seconds=60)
    attempt = sitting.attempt.id
    await exams.respond(attempt, "n1", 0, None, 5.0)
    await exams.respond(attempt, "n2", 1, None, 6.0)
    counted = "SELECT COUNT(*) FROM {} WHERE user_id=?"
    for table in ("answers", "review_log", "cards"):
        assert (await database.fetchone(counted.format(table), ADA))[0] == 0
    answers = [
        MarkedAnswer("n1", 0, True, None, None, 5.0),
        MarkedAnswer("n2", 1, False, None, None, 6.0),
    ]
    assert await exams.end(sitting, BY_LEARNER, 30.0, 0.75, 2, answers)
    assert not await exams.end(sitting, BY_TIME, 60.0, 0.0, 2, [])  # the job, too late
    ended = await exams.get(attempt)
    assert ended is not None and not ended.open and ended.ended_by == BY_LEARNER
    assert (ended.attempt.finished_at, ended.attempt.score) == (30.0, 0.75)
    rows = await database.fetchall(
        "SELECT quiz_id, question_id, correct, answered_at FROM answers WHERE attempt_id=?",
        attempt,
    )
    assert [tuple(row) for row in rows] == [(QUIZ, "n1", 1, 5.0), (QUIZ, "n2", 0, 6.0)]
    reviews = await database.fetchall(
        "SELECT question_id, rating, reviewed_at FROM review_log WHERE user_id=? ORDER BY id", ADA
    )
    assert [(r[0], r[2]) for r in reviews] == [("n1", 30.0), ("n2", 30.0)]
    assert [r[1] for r in reviews][1] == 1  # Again: a wrong answer
    assert not await exams.respond(attempt, "n2", 0, None, 31.0)
    assert await exams.open_sittings() == [] and await exams.hidden_quizzes(ADA, 31.0) == set()
    assert [s.attempt.id for s in await exams.taken(ADA, QUIZ)] == [attempt]


async def test_forgetting_a_learner_deletes_their_exams(learners: Storage) -> None:
    exams = learners.exams
    sitting = await exams.start(BO, QUIZ, ("n1",), seed=1, paper="{}", now=0.0, seconds=60)
    await exams.respond(sitting.attempt.id, "n1", 0, None, 1.0)
    await learners.privacy.forget_learner(BO, 2.0)
    for table in ("exam_attempts", "exam_responses"):
        assert (await learners.database.fetchone(f"SELECT COUNT(*) FROM {table}"))[0] == 0
