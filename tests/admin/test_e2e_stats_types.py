"""/stats per question type, end to end: learners play the types bank in private; the admin
sees each type's answers and score, a multiple question's average score and the most common
wrong replies of numeric and typed questions (their words, never their names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.admin import failed_calls
from tests.support.harness import make_settings
from tests.support.learner import Learner
from tests.support.types import pick, reply, submit, types_bank

ADMIN = FakeUser(995, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    return make_settings(
        api, db_path, content_dir=types_bank(tmp_path), admin_ids=frozenset({ADMIN.id})
    )


async def play(learner: Learner, picks: list[str], number: str, typed: str) -> None:
    """True/false right; the multiple question with `picks`; a number; a typed reply."""
    first = await learner.send("/quiz types", "Question 1 of 8")
    _, multiple = await learner.choose(first, 0, "Question 2 of 8")
    for label in picks:
        await pick(learner, multiple, label)
    await submit(learner, multiple)
    await learner.api.wait_for_bot_message(learner.chat_id, "Question 3 of 8")
    await reply(learner, number, "Question 4 of 8")
    await reply(learner, typed, "Question 5 of 8")


async def test_stats_show_each_type_the_average_partial_score_and_common_wrong_replies(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    await play(Learner(api, FakeUser(6001, "Zainab", "en")), ["Tensor", "Pipeline"], "12", "stall")
    await play(Learner(api, FakeUser(6002, "Yusuf", "en")), ["Tensor"], "12 GB", " Stall")
    await play(Learner(api, FakeUser(6003, "Xavier", "en")), ["Banana"], "13", "bubble")
    admin = Learner(api, ADMIN)
    report = await admin.send("/stats", "By type")
    text = report.text
    assert "One right option" not in text  # the bank has no single question
    assert "True or false 3 answers, 100% right" in text
    assert "Several right options 3 answers, average score 33%" in text  # (2/3 + 1/3 + 0) / 3
    assert "• m 33% of 3: Which are parallelisms?" in text
    assert "Number 3 answers, 0% right" in text and "Typed answer 3 answers, 33% right" in text
    # "12" and "12 GB" are two replies as written; "stall" and " Stall" one (case, spaces)
    assert "• n “\u206812\u2069” ×1, “\u206812 GB\u2069” ×1, “\u206813\u2069” ×1" in text
    assert "• t “\u2068Stall\u2069” ×2: The idle time" in text  # one spelling of the two
    for name in ("Zainab", "Yusuf", "Xavier"):
        assert name not in text
    assert failed_calls(api) == []
