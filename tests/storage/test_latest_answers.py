"""/progress reads the newest answer to each question of every quiz a learner touched in one
statement (`latest_answers_by_quiz`): whatever the learners answered, in quizzes and in
reviews, with partial credit, it is what asking quiz by quiz (`latest_answers`) gives."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import REVIEW, REVIEW_QUIZ_ID, Storage, review_item

NOW = 1_767_000_000.0
LEARNERS = (1, 2)
QUIZZES = ("arith", "words", "verbs")
QUESTIONS = ("q1", "q2", "q3")

answer = st.tuples(
    st.sampled_from(LEARNERS),
    st.sampled_from((*QUIZZES, REVIEW_QUIZ_ID)),  # a review's items name their quiz
    st.sampled_from(QUIZZES),
    st.lists(st.sampled_from(QUESTIONS), min_size=1, max_size=3, unique=True),
    st.integers(0, 3),
    st.sampled_from([None, 0.0, 0.5, 1.0]),
)


async def _both(script: list[tuple[Any, ...]]) -> list[tuple[Any, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "quiz.sqlite3")
        try:
            now = NOW
            for user in LEARNERS:
                await storage.learners.touch_user(user, f"Learner {user}", "en", now)
            for user, attempt_quiz, quiz, questions, chosen, credit in script:
                now += 60
                items = tuple(
                    review_item(quiz, q) if attempt_quiz == REVIEW_QUIZ_ID else q for q in questions
                )
                kind = REVIEW if attempt_quiz == REVIEW_QUIZ_ID else "quiz"
                attempt = await storage.learners.start_attempt(
                    user, attempt_quiz, items, now, kind=kind
                )
                for item in items:  # each attempt answered to its end, then the next starts
                    await storage.learners.record_answer(
                        attempt, item, chosen, credit == 1.0, now, credit=credit
                    )
            compared = []
            for user in (*LEARNERS, 99):
                by_quiz = await storage.learners.latest_answers_by_quiz(user)
                quiz_by_quiz = {
                    quiz: found
                    for quiz in QUIZZES
                    if (found := await storage.learners.latest_answers(user, quiz))
                }
                compared.append((by_quiz, quiz_by_quiz))
            return compared
        finally:
            await storage.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(answer, max_size=12))
def test_one_statement_gives_what_each_quiz_gives(script: list[tuple[Any, ...]]) -> None:
    for by_quiz, quiz_by_quiz in asyncio.run(_both(script)):
        assert by_quiz == quiz_by_quiz


def test_the_newest_answer_wins_in_every_quiz() -> None:
    script: list[tuple[Any, ...]] = [
        (1, "arith", "arith", ["q1", "q2"], 0, None),
        (1, REVIEW_QUIZ_ID, "arith", ["q1"], 2, 1.0),
        (1, "words", "words", ["q3"], 1, 0.5),
    ]
    (by_quiz, quiz_by_quiz), *_ = asyncio.run(_both(script))
    assert by_quiz == quiz_by_quiz
    assert {quiz: {q: a.chosen for q, a in found.items()} for quiz, found in by_quiz.items()} == {
        "arith": {"q1": 2, "q2": 0},
        "words": {"q3": 1},
    }
