"""Homework taken as an exam, end to end: `/assign <quiz> <deadline> exam [minutes]` in a group,
each member's exam in private from the homework's link, the right answers kept from everyone
until the deadline (a member's own review, the private quiz, a group quiz or a post of that
bank in the group), a running exam ended at the deadline, the results in the group and the
teacher's report with each section's points and the time taken."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core import deeplinks
from bot.core.context import SERVICES_KEY, Services
from bot.core.tables import rows_of
from bot.sandbox import FakeBotApi
from tests.support.exams import EXAM_BANK, RIGHT, WRONG, Examinee, paper_of, stored
from tests.support.harness import bank_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, DI, GROUP_ID, Room


@dataclass
class Clock:
    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(api, tmp_path, {"mini": EXAM_BANK})


async def test_an_exam_homework_from_assign_to_results_and_report(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    room.chat.members = {BO.id, CY.id, DI.id}
    ada = Learner(api, ADA)
    bo, cy = (Examinee(Learner(api, user)) for user in (BO, CY))
    clock = Clock()
    async with running_bot(settings, clock) as application:
        await ada.send("/start", "I am")  # the teacher can be written to
        await room.say(ADA, "/assign mini-exam 2h exam 0", "are a whole number from 1 to 1440")
        await room.say(ADA, "/assign mini-exam 2h exam ten", "are a whole number from 1 to 1440")
        await room.say(ADA, "/assign mini-exam 2h exam 10 more", "one word too many")
        await room.say(ADA, "/assign mini-exam exam", "Which deadline?")
        post = await room.say(ADA, "/assign mini-exam 2h exam 10", "Homework #1")
        assert "an exam of 4 questions, ⏱ 10:00" in post.text
        assert "the right answers shown after the deadline" in post.text
        [(deadline,)] = stored(settings.db_path, "SELECT deadline FROM assignments")

        # Bo takes it from the link, all right but one, and hands in
        api.press_link(BO, post)
        panel = await bo.panel("Question 1 of 4 · ⏱ 10:00 left")
        paper = paper_of(settings.db_path, BO.id)
        answers: dict[str, str | list[str]] = {
            **RIGHT,
            "w2": ["red", "blue"],
            paper[0]: WRONG[paper[0]],
        }
        result = await bo.hand_in(await bo.answer_all(panel, answers))
        assert "Score: <b>2.75 / 4</b> (68.8 %) — passed" in result.html
        assert "The right answers are shown after the homework's deadline" in result.text
        toast = await bo.learner.tap(result, bo.button(result, "Review"))
        assert toast["text"].startswith("The right answers are shown after the homework's")
        # no practice of what he missed either: offered none, a forged one is refused
        assert not any("Practise" in b["text"] for b in result.buttons)
        homework_attempt = stored(
            settings.db_path, "SELECT id FROM attempts WHERE assignment_id=1 AND user_id=?", BO.id
        )[0][0]
        toast = await bo.learner.tap(result, f"1:pm:{homework_attempt}", forge=True)
        assert toast["text"] == "Practice of what you missed opens once the homework has closed."
        # until the deadline the bank's answers stay hidden from Bo in private too
        await bo.learner.send("/quiz mini-exam", "its answers stay hidden until then")
        await bo.learner.send("/exam mini-exam", "📝")  # a private exam: allowed, reviewed later
        own = await bo.panel("Question 1 of 4")
        await bo.hand_in(own)
        own_result = [m for m in bo.learner.messages() if "Score:" in m.text][-1]
        toast = await bo.learner.tap(own_result, bo.button(own_result, "Review"))
        assert toast["text"].startswith("A homework exam of this quiz is open for you")
        own_attempt = stored(
            settings.db_path,
            "SELECT id FROM attempts WHERE kind='exam' AND assignment_id IS NULL AND user_id=?",
            BO.id,
        )[0][0]
        toast = await bo.learner.tap(own_result, f"1:pm:{own_attempt}", forge=True)
        assert toast["text"].startswith("A homework exam of this quiz is open for you")
        # the link again: handed in, told so
        seen = len(bo.learner.messages())
        api.press_link(BO, post)
        await api.wait_for_bot_message(BO.id, "You handed in", after=seen)
        # no group quiz, no post of that bank in the group until the deadline
        await room.say(ADA, "/groupquiz mini-exam", "Homework #1 is an exam of this quiz here")
        # its report before the deadline, even by a signed link to it (the bot posts one at
        # the deadline), says who is done, no score, grid or answer
        services: Services = application.bot_data[SERVICES_KEY]
        payload = services.links.encode(deeplinks.AssignmentReport(1), services.clock())
        seen = len(ada.messages())
        api.open_link(ADA, deeplinks.url(application.bot.username, payload))
        early = await api.wait_for(
            lambda: next((m for m in ada.messages()[seen:] if m.document), None)
        )
        assert early.caption is not None and "come at its deadline" in early.caption
        assert rows_of(api.file_content(early.document or {})) == [
            ["name", "user id", "done"],
            ["Bo", str(BO.id), "yes"],
        ]
        await api.wait_for(lambda: "✅ 1 done" in room.current(post).text or None)

    # back 3 seconds before the deadline: Cy opens it then, answers one question and leaves
    # the exam running: it ends with the deadline, and counts, before the results
    clock.offset = deadline - time.time() - 3
    seen_group, seen_ada = len(room.messages()), len(ada.messages())
    async with running_bot(settings, clock):
        seen = len(cy.learner.messages())
        api.press_link(CY, post)
        intro = await api.wait_for_bot_message(CY.id, "📝", after=seen)
        assert "The homework's deadline comes before the exam's time limit" in intro.text
        panel = await cy.panel("Question 1 of 4 · ⏱ 0:0")
        await cy.answer(panel, {**RIGHT, "w2": ["red", "blue"]})
        await cy.panel("Your answer:")
        results = await api.wait_for_bot_message(GROUP_ID, "results", after=seen_group)
        lines = results.text.splitlines()
        assert "Bo" in lines[1] and "2.8/4" in lines[1]
        assert "Cy" in lines[2] and "1/4" in lines[2]  # ended at the deadline: counted
        cy_result = await api.wait_for_bot_message(CY.id, "— time is up")
        assert "Score:" in cy_result.text
        document = await api.wait_for(
            lambda: next((m for m in ada.messages()[seen_ada:] if m.document), None)
        )
        rows = rows_of(api.file_content(document.document or {}))
        assert rows[0][:8] == [
            "name",
            "user id",
            "done",
            "score",
            "total",
            "time (s)",
            "Sums",
            "Words",
        ]
        by_name = {row[0]: row for row in rows[1:]}
        assert by_name["Bo"][2:5] == ["yes", "2.75", "4"]
        assert [by_name["Bo"][6], by_name["Bo"][7]] == ["0.75", "2"]
        assert by_name["<Cy & Co>"][2:5] == ["yes", "1", "4"]
        assert float(by_name["<Cy & Co>"][5]) <= 4  # from the link to the deadline
        # after the deadline: Bo reads the review, and the bank is open to him again
        toast = await bo.learner.tap(result, bo.button(result, "Review"))
        page = await api.wait_for_bot_message(BO.id, "📖 Review")
        assert toast["text"] is None and "✅" in page.text
        await bo.learner.send("/quiz mini-exam", "Question 1 of 5")
        await room.say(ADA, "/groupquiz mini-exam", "Mini exam")
