"""`kill -9` during an exam: every answer acknowledged is kept, the restart gives no time back,
and the exam ends once at its limit, from the job armed again at start."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser
from tests.support.exams import EXAM_BANK, EXAM_ID, RIGHT, WRONG, Examinee, paper_of
from tests.support.harness import bank_folder
from tests.support.learner import Learner
from tests.support.process import bot_process

ADA = FakeUser(1301, "Ada", "en")


async def test_kill_9_mid_exam_keeps_the_answers_and_the_limit(
    api: FakeBotApi, tmp_path: Path
) -> None:
    banks = bank_folder(tmp_path, mini=EXAM_BANK)
    db_path = tmp_path / "quiz.sqlite3"
    env = api.bot_environment(db_path, QUIZ_CONTENT_DIR=str(banks))
    ada = Examinee(Learner(api, ADA))
    async with bot_process(env, tmp_path) as running:
        panel = await ada.start()
        paper = paper_of(db_path, ADA.id)
        toast = await ada.choose(panel, WRONG[paper[0]])
        assert toast["text"].startswith("Saved")
        toast = await ada.choose(await ada.panel("Your answer:"), RIGHT[paper[0]])  # changed
        assert toast["text"].startswith("Saved")  # acknowledged: committed before
        await running.kill_9()

    with sqlite3.connect(db_path) as db:
        [(item, chosen)] = db.execute("SELECT item, chosen FROM exam_responses").fetchall()
        assert (item, chosen) == (paper[0], 0)  # the changed answer, the right option
        # as if the five minutes had almost run while the bot was down: two seconds are left
        db.execute("UPDATE exam_attempts SET ends_at=?", (time.time() + 2,))

    seen = len(ada.learner.messages())
    async with bot_process(env, tmp_path) as running:
        result = await api.wait_for_bot_message(ADA.id, "— time is up", after=seen)
        assert "Score: <b>1 / 4</b>" in result.html
        await running.kill_9()
    async with bot_process(env, tmp_path):
        await ada.learner.send(f"/exam {EXAM_ID}", "it allows 1 attempt")  # ended, once
    assert sum("— time is up" in m.text for m in ada.learner.messages()) == 1
