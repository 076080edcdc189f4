"""The shipped "Parallelism drill" bank (every question type, two diagrams, code) played whole
in private, in English and in Yoruba; its /preview; and a review session that brings back the
numeric and typed questions a learner missed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import FakeBotApi, FakeUser
from content.loader import load_bank_file
from content.model import Quiz
from tests.support.drill import HEADERS, REVIEW_HEADERS, answer
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner
from tests.support.tutor import ShiftedClock

DRILL = "parallelism-drill"
# 0-based positions answered wrong: a multiple, a numeric and a typed question
WRONG = {1, 4, 7}


@pytest.fixture(scope="module")
def drill() -> Quiz:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / DRILL / f"{DRILL}.yaml", "en").quiz
    assert quiz is not None
    return quiz


def failed(api: FakeBotApi) -> list[str]:
    return [f"{c.method}: {c.description}" for c in api.calls if not c.ok]


@pytest.mark.parametrize("language", ["en", "yo"])
async def test_the_drill_bank_is_played_whole(
    api: FakeBotApi, bot: QuizApplication, drill: Quiz, language: str
) -> None:
    learner = Learner(api, FakeUser(5001, "Ada", language))
    n = len(drill)
    header = HEADERS[language]
    message = await learner.send(f"/quiz {DRILL}", header.format(k=1, n=n))
    for position in range(n):
        expect = header.format(k=position + 2, n=n) if position + 1 < n else "/15"
        message = await answer(learner, drill, message, language, position not in WRONG, expect)
    # 12 right, a multiple with only its wrong options picked (0), a numeric and a typed one
    assert "12/15 (80%)" in message.text
    photos = [m for m in learner.messages() if m.photo]
    assert len(photos) == 3  # pd-1 and pd-7 (one file, uploaded once), pd-4's explanation
    # pd-1's reveal fits its caption: the photo's caption became the reveal
    assert photos[0].reply_markup is None and photos[0].caption is not None
    assert photos[0].edits == 1 and "💡" in photos[0].caption and "✅" in photos[0].caption
    assert len(api.photo_uploads) == 2
    assert not failed(api), failed(api)


async def test_the_drill_bank_preview_shows_every_type_without_answers(
    api: FakeBotApi, bot: QuizApplication, drill: Quiz
) -> None:
    learner = Learner(api, FakeUser(5002, "Bo", "en"))
    api.send_text(learner.user, f"/preview {DRILL}")
    last = await api.wait_for(
        lambda: next((m for m in learner.messages() if m.buttons), None)  # Start, at the end
    )
    shown = "\n".join(m.text for m in learner.messages()[: learner.messages().index(last) + 1])
    assert "(several right options)" in shown
    assert "True or false?" in shown
    assert "Answer: a number, in GB" in shown
    assert "Answer: typed in words" in shown
    assert "🖼 A 1F1B schedule, four stages" in shown  # the picture, in words
    html = "\n".join(m.html for m in learner.messages())
    assert '<pre><code class="language-python">stages, micro_batches = 4, 12' in html
    assert "all_reduce" in shown  # pd-12's options, inline code shown as code
    assert "pipeline bubble" not in shown and "allreduce" not in shown  # no accepted answer
    assert not [m for m in learner.messages() if m.photo]  # alt text, no photos
    assert not failed(api), failed(api)


async def test_missed_numeric_and_typed_questions_come_back_in_review(
    api: FakeBotApi, tmp_path: Path, drill: Quiz
) -> None:
    clock = ShiftedClock()
    settings = make_settings(api, tmp_path / "quiz.sqlite3")
    learner = Learner(api, FakeUser(5003, "Chi", "en"))
    async with running_bot(settings, clock):
        n = len(drill)
        message = await learner.send(f"/quiz {DRILL}", HEADERS["en"].format(k=1, n=n))
        for position in range(n):
            expect = HEADERS["en"].format(k=position + 2, n=n) if position + 1 < n else "/15"
            wrong = drill.questions[position].id in {"pd-5", "pd-9"}  # numeric, typed
            message = await answer(learner, drill, message, "en", not wrong, expect)
        clock.advance(11 * 60)
        message = await learner.send("/review", REVIEW_HEADERS["en"].format(k=1, n=2))
        message = await answer(
            learner, drill, message, "en", True, REVIEW_HEADERS["en"].format(k=2, n=2)
        )
        done = await answer(learner, drill, message, "en", True, "Review finished")
        assert "Score: 2/2" in done.text
    with sqlite3.connect(settings.db_path) as db:
        ratings = db.execute(
            "SELECT question_id, rating FROM review_log WHERE question_id IN ('pd-5', 'pd-9') "
            "ORDER BY id"
        ).fetchall()
    assert ratings == [("pd-5", 1), ("pd-9", 1), ("pd-5", 3), ("pd-9", 3)]
    assert not failed(api), failed(api)
