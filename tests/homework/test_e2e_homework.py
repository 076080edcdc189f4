"""Homework end to end: /assign in a group, members' private attempts through the deep link,
the live count, the one reminder, the deadline's results and the teacher's CSV, across
restarts of the real Application on the same SQLite file.

The bot's clock is the test's (`Clock`): a restart may move it on, as a bot that was down for
an hour finds it. The JobQueue runs on real time: a deadline 2 s after a restart fires on its
timer, one that passed while the bot was down fires at start. Every wait is on a condition."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from bot.config import Settings
from bot.core.tables import rows_of
from bot.sandbox import FakeBotApi, Message
from content.loader import parse_bank
from content.model import Question, Quiz
from content.rules import attempt_order
from storage import Storage
from tests.support.harness import running_bot
from tests.support.learner import Learner, right, text
from tests.support.room import ADA, BANK, BO, CY, DI, ED, GROUP_ID, Room


@dataclass
class Clock:
    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def _assignments(settings: Settings) -> list[tuple[int, float, float | None, str | None]]:
    with sqlite3.connect(settings.db_path) as db:
        return db.execute("SELECT id, deadline, closed_at, outcome FROM assignments").fetchall()


async def _answer_all(learner: Learner, first: Message, options: list[str]) -> None:
    """Answer the questions from `first` on with these options, in order."""
    question = first
    for number, option in enumerate(options):
        expect = "finished" if number == len(options) - 1 else "Question"
        _, question = await learner.choose(question, option, expect)


async def test_homework_from_assign_to_results_across_restarts(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    room.chat.members = {BO.id, CY.id, DI.id}
    ada, bo, cy, di = (Learner(api, user) for user in (ADA, BO, CY, DI))
    clock = Clock()
    async with running_bot(settings, clock):
        await ada.send("/start", "I am")  # the teacher can be written to
        # bad input: a clear reply, nothing stored
        await room.say(BO, "/assign tiny 2h", "Only the chat's admins")
        await room.say(ADA, "/assign nosuch 2h", "I have no quiz called")
        await room.say(ADA, "/assign tiny", "Which deadline?")
        await room.say(ADA, "/assign tiny 0m", "is not in the future")
        await room.say(ADA, "/assign tiny 30s", "too soon")
        await room.say(ADA, "/assign tiny soon", "cannot read")
        await room.say(ADA, "/assign tiny 2020-01-01 10:00", "is not in the future")
        assert _assignments(settings) == []
        await room.say(ADA, "/timezone Africa/Lagos", "time zone is now Africa/Lagos")
        # the calendar's first minute, east of UTC: before year 1 in UTC, refused as past
        await room.say(ADA, "/assign tiny 0001-01-01 00:00", "is not in the future")
        await room.say(ADA, "/assign tiny 9999-12-31 23:59", "too far away")
        assert _assignments(settings) == []

        post = await room.say(ADA, "/assign tiny 2h", "Homework #1")
        assert "(Africa/Lagos)" in post.text and "✅ 0 done" in post.text
        [(_, deadline, _, _)] = _assignments(settings)
        [start_button] = post.buttons
        assert start_button["text"] == "▶️ Start in private chat"
        assert abs(deadline - (clock() + 7200)) < 5

        # Cy does it all; Bo answers one question; Di opens it; Ed is not in the group
        seen = len(cy.messages())
        api.press_link(CY, post)
        await api.wait_for_bot_message(CY.id, "Deadline:", after=seen)
        first = await api.wait_for_bot_message(CY.id, "Two plus two?", after=seen)
        await _answer_all(cy, first, ["four", "Paris", "blue"])
        seen = len(bo.messages())
        api.press_link(BO, post)
        first = await api.wait_for_bot_message(BO.id, "Two plus two?", after=seen)
        await bo.choose(first, "four", "Capital of France?")
        seen = len(di.messages())
        api.press_link(DI, post)
        await api.wait_for_bot_message(DI.id, "Two plus two?", after=seen)
        seen = len(api.bot_messages(ED.id))
        api.press_link(ED, post)
        await api.wait_for_bot_message(ED.id, "for the members of the group", after=seen)
        await api.wait_for(lambda: "✅ 1 done" in room.current(post).text or None)
        listed = await room.say(BO, "/assignments", "Open homework")
        assert "#1" in listed.text and "✅ 1 done" in listed.text

    # down for an hour and a bit: past the reminder's time, before the deadline
    clock.offset += 3600 + 60
    async with running_bot(settings, clock):
        reminded = await api.wait_for_bot_message(BO.id, "One hour left")
        await api.wait_for_bot_message(DI.id, "One hour left")
        assert not any("One hour left" in m.text for m in cy.messages())
        seen = len(bo.messages())
        api.press_link(BO, reminded)  # the reminder's button carries on where Bo was
        second = await api.wait_for_bot_message(BO.id, "Capital of France?", after=seen)
        await _answer_all(bo, second, ["Lyon", "blue"])

    # back 2 seconds before the deadline: its timer fires while the bot runs
    clock.offset = deadline - time.time() - 2
    seen_group, seen_ada = len(room.messages()), len(ada.messages())
    async with running_bot(settings, clock):
        results = await api.wait_for_bot_message(GROUP_ID, "results", after=seen_group)
        lines = results.text.splitlines()
        assert "Cy & Co" in lines[1] and "3/3" in lines[1]  # best score first
        assert "Bo" in lines[2] and "2/3" in lines[2]
        assert "Started and not finished in time: 1" in results.text
        assert "Di" not in results.text  # who did not finish is a count, never a list
        assert "Closed" in room.current(post).text and room.current(post).buttons == []
        document = await api.wait_for(
            lambda: next((m for m in ada.messages()[seen_ada:] if m.document), None)
        )
        rows = rows_of(api.file_content(document.document or {}))
        assert rows[0][:6] == ["name", "user id", "done", "score", "total", "time (s)"]
        assert [row[:5] for row in rows[1:]] == [
            ["<Cy & Co>", str(CY.id), "yes", "3", "3"],
            ["Bo", str(BO.id), "yes", "2", "3"],
            ["Di", str(DI.id), "no", "", "3"],
        ]
        assert rows[2][6:] == ["2", "1", "0", "1", "B ✓", "B ✗", "B ✓"]  # the grid, the answers
        assert rows[3][6:] == ["0", "", "", "", "", "", ""]  # Di opened it, and no more
        seen = len(bo.messages())
        api.open_link(BO, start_button["url"])  # a link kept from before
        await api.wait_for_bot_message(BO.id, "This homework is closed", after=seen)

    # another start: the deadline does not fire twice
    closed = _assignments(settings)
    async with running_bot(settings, clock):
        await room.say(ADA, "/assignments", "No homework is open here")
    assert _assignments(settings) == closed
    assert sum("results" in m.text for m in room.messages()) == 1


async def test_a_deadline_passed_while_down_fires_at_start_and_unassign_cancels(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    clock = Clock()
    async with running_bot(settings, clock):
        first = await room.say(ADA, "/assign tiny 90m", "Homework #1")
        await room.say(ADA, "/assign tiny 2099-01-01 10:00", "too far away")
        second = await room.say(ADA, "/assign tiny 3d", "Homework #2")
        second_link = second.buttons[0]["url"]
        await room.say(BO, "/unassign 2", "Only the chat's admins")
        await room.say(ADA, "/unassign x", "digits 0-9")
        await room.say(ADA, "/unassign 7", "no open homework #7")
        await room.say(ADA, "/unassign 2", "Homework #2 cancelled")
        assert "Cancelled" in room.current(second).text
        seen = len(api.bot_messages(BO.id))
        api.open_link(BO, second_link)
        await api.wait_for_bot_message(BO.id, "was cancelled", after=seen)
    clock.offset += 2 * 3600  # the 90 minutes passed while the bot was down
    seen = len(room.messages())
    async with running_bot(settings, clock):
        results = await api.wait_for_bot_message(GROUP_ID, "results", after=seen)
        assert "Nobody finished it in time" in results.text
        # Ada never opened a private chat: a link in the group gets her the report
        offer = await api.wait_for_bot_message(GROUP_ID, "homework's report", after=seen)
        got = len(api.bot_messages(ADA.id))
        api.press_link(ADA, offer)
        await api.wait_for(
            lambda: next((m for m in api.bot_messages(ADA.id)[got:] if m.document), None)
        )
    assert [row[3] for row in _assignments(settings)] == ["finished", "cancelled"]
    assert "Closed" in room.current(first).text


async def test_homework_is_an_attempt_of_its_own_never_one_started_before(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    """Bo left the quiz at its last question before the homework existed: the homework's
    link starts him afresh at question 1, one tap does not hand it in, and his own attempt
    is still there to finish from /quiz."""
    room.chat.members = {BO.id}
    bo = Learner(api, BO)
    async with running_bot(settings, Clock()):
        first = await bo.send("/quiz tiny", "Two plus two?")
        _, second = await bo.choose(first, "four", "Capital of France?")
        await bo.choose(second, "Paris", "Colour of a clear sky?")
        post = await room.say(ADA, "/assign tiny 2h", "Homework #1")
        seen = len(bo.messages())
        api.press_link(BO, post)
        await api.wait_for_bot_message(BO.id, "Deadline:", after=seen)
        asked = await api.wait_for_bot_message(BO.id, "Question", after=seen)
        assert "Two plus two?" in asked.text and "Question 1 of 3" in asked.text
        await bo.choose(asked, "four", "Capital of France?")
        assert "✅ 0 done" in room.current(post).text
        listed = await room.say(ADA, "/assignments", "Open homework")
        assert "✅ 0 done" in listed.text
        # his own attempt waits where he left it
        resumed = await bo.send("/quiz tiny", "Colour of a clear sky?")
        assert "Question 3 of 3" in resumed.text
        await bo.choose(resumed, "blue", "finished")
        assert "✅ 0 done" in room.current(post).text
        # the homework's link carries on with the homework's attempt, at its question 2
        seen = len(bo.messages())
        api.press_link(BO, post)
        second = await api.wait_for_bot_message(BO.id, "Capital of France?", after=seen)
        _, third = await bo.choose(second, "Lyon", "Colour of a clear sky?")
        await bo.choose(third, "blue", "finished")
        await api.wait_for(lambda: "✅ 1 done" in room.current(post).text or None)
        # the first attempt counts: the link hands it back
        seen = len(bo.messages())
        api.press_link(BO, post)
        handed = await api.wait_for_bot_message(BO.id, "You handed in", after=seen)
        assert "2/3" in handed.text


def _wrong(question: Question) -> str:
    return text(question, 1 - question.answer)  # type: ignore[operator]


def _asked(quiz: Quiz, message: Message) -> Question:
    return next(q for q in quiz.questions if q.text.get("en", "en") in message.text)


async def test_where_the_best_counts_members_try_again_in_an_order_of_their_own(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    room.chat.members = {BO.id, CY.id}
    bo, cy = Learner(api, BO), Learner(api, CY)
    quiz = parse_bank(BANK, "tiny.yaml", "en").quiz
    assert quiz is not None
    async with running_bot(settings, Clock()):
        await room.say(ADA, "/assign tiny 2h best best", "one word too many")
        post = await room.say(ADA, "/assign tiny shuffle 2h BEST", "Homework #1")
        assert "best attempt" in post.text and "order of their own" in post.text
        orders = {user.id: attempt_order(quiz, f"1:{user.id}:0") for user in (BO, CY)}
        assert orders[BO.id] != orders[CY.id]
        for learner, user in ((bo, BO), (cy, CY)):
            seen = len(learner.messages())
            api.press_link(user, post)
            asked = await api.wait_for_bot_message(user.id, "Question 1 of 3", after=seen)
            assert _asked(quiz, asked).id == orders[user.id][0]
        # Bo gets all wrong, then tries again and gets all right: the best counts
        for score, pick in ((0, _wrong), (3, right)):
            seen = len(bo.messages())
            api.press_link(BO, post)
            asked = await api.wait_for_bot_message(BO.id, "Question 1 of 3", after=seen)
            for number in range(1, 4):
                expect = "finished" if number == 3 else f"Question {number + 1} of 3"
                _, asked = await bo.choose(asked, pick(_asked(quiz, asked)), expect)
            assert f"{score}/3" in asked.text
        assert any("Your best so far: 0/3" in m.text for m in bo.messages())
        await api.wait_for(lambda: "✅ 1 done" in room.current(post).text or None)
    with sqlite3.connect(settings.db_path) as db:
        tied = db.execute("SELECT user_id, score FROM attempts WHERE assignment_id=1 ORDER BY id")
        assert tied.fetchall() == [(BO.id, 0), (CY.id, None), (BO.id, 3)]
    storage = await Storage.open(settings.db_path)
    try:
        takers = {t.user_id: t for t in await storage.homework.takers(1)}
    finally:
        await storage.close()
    assert (takers[BO.id].score, takers[BO.id].tries) == (3, 2)
    assert (takers[CY.id].finished_at, takers[CY.id].tries) == (None, 1)


async def test_a_teacher_who_forgot_themselves_gets_no_report_the_group_gets_its_link(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    ada = Learner(api, ADA)
    clock = Clock()
    async with running_bot(settings, clock):
        await ada.send("/start", "I am")
        await room.say(ADA, "/assign tiny 2h", "Homework #1")
        ask = await ada.send("/forgetme", "This deletes everything")
        await ada.tap(ask, next(b["callback_data"] for b in ask.buttons if "Delete" in b["text"]))
        await api.wait_for(lambda: _created_by(settings) == [None] or None)
    clock.offset += 3 * 3600
    seen_group, seen_ada = len(room.messages()), len(ada.messages())
    async with running_bot(settings, clock):
        await api.wait_for_bot_message(GROUP_ID, "results", after=seen_group)
        await api.wait_for_bot_message(GROUP_ID, "homework's report", after=seen_group)
    assert not any(m.document for m in ada.messages()[seen_ada:])


def _created_by(settings: Settings) -> list[int | None]:
    with sqlite3.connect(settings.db_path) as db:
        return [row[0] for row in db.execute("SELECT created_by FROM assignments")]
