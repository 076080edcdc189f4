"""`kill -9` during a homework: no finished attempt is lost, and its deadline fires once."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from bot.sandbox import FakeBotApi
from tests.support.harness import bank_folder
from tests.support.learner import Learner
from tests.support.process import bot_process
from tests.support.room import ADA, BANK, BO, GROUP_ID, Room


async def test_kill_9_keeps_the_attempts_and_the_deadline_fires_once(
    api: FakeBotApi, room: Room, tmp_path: Path
) -> None:
    banks = bank_folder(tmp_path, tiny=BANK)
    db_path = tmp_path / "quiz.sqlite3"
    env = api.bot_environment(db_path, QUIZ_CONTENT_DIR=str(banks))
    bo = Learner(api, BO)
    async with bot_process(env, tmp_path) as running:
        post = await room.say(ADA, "/assign tiny 1h", "Homework #1")
        seen = len(bo.messages())
        api.press_link(BO, post)
        question = await api.wait_for_bot_message(BO.id, "Two plus two?", after=seen)
        for option, expect in (("four", "Capital"), ("Paris", "Colour"), ("blue", "finished")):
            _, question = await bo.choose(question, option, expect)
        await running.kill_9()

    with sqlite3.connect(db_path) as db:
        [(finished,)] = db.execute(
            "SELECT finished_at FROM attempts WHERE assignment_id IS NOT NULL"
        ).fetchall()
        assert finished is not None  # Bo's finished attempt survived, tied to the homework
        # as if the hour had passed while the bot was down: two seconds are left
        db.execute("UPDATE assignments SET deadline=?", (time.time() + 2,))

    seen = len(room.messages())
    async with bot_process(env, tmp_path) as running:
        results = await api.wait_for_bot_message(GROUP_ID, "results", after=seen)
        assert "Bo" in results.text and "3/3" in results.text
        await running.kill_9()
    async with bot_process(env, tmp_path) as running:
        await room.say(ADA, "/assignments", "No homework is open here")
        await running.kill_9()
    assert sum("results" in m.text for m in room.messages()) == 1
