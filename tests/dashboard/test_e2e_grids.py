"""The dashboard's grids and question figures end to end (the real Application, the stand-in
as Telegram, real SQLite): a group quiz's grid is the one `/report`'s file holds, mark for
mark (weights and all); a homework's grid is its attempts that count; an exam homework shows
only who is done until its deadline; each question's right %, time and wrong answers; the
class's hardest questions and leeches."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

from bot.config import Settings
from bot.core.tables import rows_of
from bot.sandbox import FakeBotApi
from storage.database import Database
from storage.report_store import ReportStore
from tests.support.dashboard import APP_URL, Browser, Clock, dashboard
from tests.support.exams import EXAM_BANK, RIGHT, Examinee
from tests.support.harness import bank_folder, make_settings
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, DI, GROUP_ID, Room

WEIGHED = """
id: weighed
title: "Weighed"
level: easy
shuffle_options: false
questions:
  - id: who
    text: "Who is entombed in Grant's tomb?"
    options: ["Grant", "Grant's wife", "No one"]
    answer: 0
    weights: [100, 50, -100]
    explanation: "Grant and his wife, above ground."
  - id: sum
    text: "Two plus two?"
    options: ["three", "four"]
    answer: 1
"""


def _settings(api: FakeBotApi, tmp_path: Path, **banks: str) -> Settings:
    return make_settings(
        api,
        tmp_path / "quiz.sqlite3",
        content_dir=bank_folder(tmp_path, **banks),
        group_min_seconds=1,
        app_url=APP_URL,
    )


async def test_a_group_quiz_grid_is_the_one_in_the_report_file_mark_for_mark(
    api: FakeBotApi, tmp_path: Path, clock: Clock
) -> None:
    settings = _settings(api, tmp_path, weighed=WEIGHED)
    clock.now = time.time() - 60  # /skip is for a question asked before the command was sent
    room = Room(api, api.group(GROUP_ID, "study", admins={ADA.id}))
    ada = Learner(api, ADA)
    async with dashboard(settings, clock) as (_, listener):
        api.send_text(ADA, "/start", api.private_chat(ADA))
        await api.wait_for(lambda: ada.messages() or None)
        who = await room.say(ADA, "/groupquiz weighed 60", "Question 1 of 2")
        assert (await room.tap(CY, who, 0)).startswith("✅")
        assert (await room.tap(DI, who, 1)).startswith("🟡 Partly right")
        assert (await room.tap(BO, who, 2)).startswith("❌ Not quite (-1)")
        two = await room.say(ADA, "/skip", "Question 2 of 2")
        assert (await room.tap(BO, two, 1)).startswith("✅")
        assert (await room.tap(DI, two, 0)).startswith("❌")
        await room.say(ADA, "/skip", "final results")
        seen = len(ada.messages())
        await room.say(ADA, "/report", "sent to you privately")
        document = await api.wait_for(
            lambda: next((m for m in ada.messages()[seen:] if m.document), None)
        )
        rows = rows_of(api.file_content(document.document or {}))

        browser = Browser(listener, api, ADA, clock)
        status, grid = await browser.get(f"api/chats/{GROUP_ID}/grid?quiz=weighed")
        assert status == 200
        status, by_number = await browser.get(
            f"api/chats/{GROUP_ID}/grid?session={grid['session']}"
        )
        assert status == 200 and by_number == grid
        status, fared = await browser.get(f"api/chats/{GROUP_ID}/questions?quiz=weighed")
        assert status == 200
        _, overview = await browser.get(f"api/chats/{GROUP_ID}")
        assert (await browser.get(f"api/chats/{GROUP_ID}/grid?session=999"))[0] == 404
        assert (await browser.get(f"api/chats/{GROUP_ID}/grid?session=x"))[0] == 400

    credit = rows[0].index("credit")
    in_file = {
        row[0]: [float(cell) if cell else None for cell in row[credit : credit + 3]]
        for row in rows[1:]
    }
    in_app = {
        learner["name"]: [learner["total"], *learner["marks"]] for learner in grid["learners"]
    }
    assert (
        in_app
        == in_file
        == {
            "<Cy & Co>": [1.0, 1.0, None],
            "Di": [0.5, 0.5, 0.0],
            "Bo": [0.0, -1.0, 1.0],
        }
    )
    assert [q["text"] for q in grid["questions"]] == [
        "Who is entombed in Grant's tomb?",
        "Two plus two?",
    ]
    who_fared, sum_fared = fared["questions"]
    assert who_fared["answered"] == 3 and who_fared["right"] == round(100 * 0.5 / 3)
    assert who_fared["explanation"] == "Grant and his wife, above ground."
    assert who_fared["seconds"] is not None and who_fared["seconds"] >= 0
    # a half-right option is not fully right: it is among the wrong answers, each once
    assert sorted(w["answer"] for w in who_fared["wrong"]) == ["B · Grant's wife", "C · No one"]
    assert sum_fared["wrong"] == [{"answer": "A · three", "count": 1}]
    assert sum_fared["right"] == 50 and sum_fared["answered"] == 2
    # answered 3 times, the least credit: the class's hardest; the other, twice, is not listed
    assert [(h["quiz"], h["number"], h["answered"]) for h in overview["hardest"]] == [
        ("weighed", 1, 3)
    ]


async def test_a_homework_grid_holds_the_attempts_that_count_and_how_each_question_fared(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    bo, cy = Learner(api, BO), Learner(api, CY)
    room.chat.members = {BO.id, CY.id}
    async with dashboard(app_settings, clock) as (_, listener):
        post = await room.say(ADA, "/assign tiny 2h", "Homework #1")
        for learner, options in ((bo, ["four", "Paris", "blue"]), (cy, ["three", "Paris"])):
            seen = len(learner.messages())
            api.press_link(learner.user, post)
            question = await api.wait_for_bot_message(learner.chat_id, "Two plus two?", after=seen)
            for number, option in enumerate(options):
                done = number == 2
                _, question = await learner.choose(question, option, "finished" if done else "?")
        # Cy forgets the first question again and again: a leech
        with sqlite3.connect(app_settings.db_path) as db:
            db.execute("UPDATE cards SET lapses=9 WHERE user_id=? AND question_id='t1'", (CY.id,))
        ada = Browser(listener, api, ADA, clock)
        _, overview = await ada.get(f"api/chats/{GROUP_ID}")
        status, grid = await ada.get(f"api/chats/{GROUP_ID}/grid?homework=1")
        assert status == 200
        _, fared = await ada.get(f"api/chats/{GROUP_ID}/questions?homework=1")
        cy_browser = Browser(listener, api, CY, clock)
        assert (await cy_browser.get(f"api/chats/{GROUP_ID}/grid?homework=1"))[0] == 403
        assert (await ada.get(f"api/chats/{GROUP_ID}/grid?homework=2"))[0] == 404

    [homework] = overview["homework"]
    assert (homework["id"], homework["done"], homework["opened"]) == (1, 1, 2)
    assert grid["hidden"] is False
    assert [(r["name"], r["done"], r["marks"], r["total"]) for r in grid["learners"]] == [
        ("Bo", True, [1, 1, 1], 3),
        ("<Cy & Co>", False, [0, 1, None], 1),
    ]
    first, second, third = fared["questions"]
    assert (first["answered"], first["right"], first["wrong"]) == (
        2,
        50,
        [{"answer": "A · three", "count": 1}],
    )
    assert first["explanation"].startswith("Two and two make four")
    assert (second["right"], second["wrong"], third["answered"]) == (100, [], 1)
    assert [(leech["name"], leech["number"], leech["lapses"]) for leech in overview["leeches"]] == [
        ("<Cy & Co>", 1, 9)
    ]


async def test_an_exam_homework_shows_only_who_is_done_until_its_deadline(
    api: FakeBotApi, tmp_path: Path, clock: Clock
) -> None:
    settings = replace(_settings(api, tmp_path, mini=EXAM_BANK), group_min_seconds=30)
    room = Room(api, api.group(GROUP_ID, "study", admins={ADA.id}))
    room.chat.members = {BO.id, CY.id}
    bo = Examinee(Learner(api, BO))
    async with dashboard(settings, clock) as (_, listener):
        post = await room.say(ADA, "/assign mini-exam 2h exam 10", "Homework #1")
        api.press_link(BO, post)
        panel = await bo.panel("Question 1 of 4")
        await bo.hand_in(await bo.answer_all(panel, dict(RIGHT)))
        ada = Browser(listener, api, ADA, clock)
        _, early = await ada.get(f"api/chats/{GROUP_ID}/grid?homework=1")
        hidden = await ada.get(f"api/chats/{GROUP_ID}/questions?homework=1")
        _, overview = await ada.get(f"api/chats/{GROUP_ID}")
        _, weeks_early = await ada.get(f"api/chats/{GROUP_ID}/weeks")
        with sqlite3.connect(settings.db_path) as db:
            [(deadline,)] = db.execute("SELECT deadline FROM assignments").fetchall()
        clock.now = deadline + 1
        ada = Browser(listener, api, ADA, clock)
        _, late = await ada.get(f"api/chats/{GROUP_ID}/grid?homework=1")
        shown = await ada.get(f"api/chats/{GROUP_ID}/questions?homework=1")
        _, weeks_late = await ada.get(f"api/chats/{GROUP_ID}/weeks")

    assert early["hidden"] is True and early["questions"] == []
    assert early["learners"] == [{"name": "Bo", "done": True}]  # no mark, no total
    assert hidden == (403, {"error": "hidden"})
    assert overview["homework"][0]["exam"] is True
    assert late["hidden"] is False and len(late["questions"]) == 5
    assert late["learners"][0]["name"] == "Bo" and late["learners"][0]["total"] > 0
    assert shown[0] == 200 and sum(q["answered"] for q in shown[1]["questions"]) == 3  # w2 left
    # the class's weeks: the exam's answers, and whether they were right, after the deadline
    assert [w["answers"] for w in weeks_early["weeks"] if w["answers"]] == []
    assert [(w["answers"], w["learners"]) for w in weeks_late["weeks"] if w["answers"]] == [(3, 1)]
    # how its questions fared in the class: nothing before the deadline, all of it after
    database = await Database.open(settings.db_path)
    try:
        reports = ReportStore(database)
        assert await reports.question_shares(GROUP_ID, 1, 0, deadline - 1) == []
        assert len(await reports.question_shares(GROUP_ID, 1, 0, deadline + 1)) == 3
        # answered before the window (the class's last weeks) began: not counted
        assert await reports.question_shares(GROUP_ID, 1, deadline, deadline + 1) == []
    finally:
        await database.close()
