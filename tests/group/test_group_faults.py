"""Group quizzes and posts when Telegram or the chat refuses: the session ends instead of
blocking the chat, the admin who started it is told in private, nobody else is taken for
someone who blocked the bot, and only what can succeed later is tried again (with a cap)."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.core import faults
from bot.group import flow as group_flow
from bot.sandbox import STALE_QUERY, FakeBotApi, FakeUser
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, GROUP_ID, Room, group_answers, reveal_data


@pytest.fixture(autouse=True)
def info_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)


def running_sessions(settings: Settings) -> list[int]:
    with sqlite3.connect(settings.db_path) as db:
        rows = db.execute("SELECT id FROM group_sessions WHERE finished_at IS NULL").fetchall()
    return [row[0] for row in rows]


def active(settings: Settings) -> dict[int, int]:
    with sqlite3.connect(settings.db_path) as db:
        return dict(db.execute("SELECT user_id, active FROM users").fetchall())


def retry_jobs(application: QuizApplication) -> list[str]:
    assert application.job_queue is not None
    return [str(j.name) for j in application.job_queue.jobs() if "group-retry" in str(j.name)]


def our_problems(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name.startswith("bot") and (r.levelno >= logging.ERROR or r.exc_info)
    ]


def lines_with(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if text in r.getMessage()]


async def test_a_group_where_the_bot_may_not_write_ends_the_quiz_and_tells_its_admin(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    api.restrict_bot(room.chat)
    async with running_bot(settings):
        await Learner(api, ADA).send("/start", "Hello")  # Ada has a chat with the bot
        api.send_text(ADA, "/groupquiz tiny 60", room.chat)
        told = await api.wait_for_bot_message(ADA.id, "has ended")
        assert "Tiny <quiz> & co" in told.text and str(GROUP_ID) in told.text
        assert "Not enough rights to send text messages to the chat" in told.text
        assert running_sessions(settings) == []
        api.restrict_bot(room.chat, messages=True, polls=True)
        await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")  # not "already running"
    refused = [(c.method, c.params.get("chat_id")) for c in api.calls if not c.ok]
    assert refused == [("sendMessage", GROUP_ID)]  # the intro, once: never retried
    assert active(settings) == {ADA.id: 1}
    assert not our_problems(caplog), api.describe()


async def test_a_group_that_removes_the_bot_mid_quiz_ends_it_and_marks_nobody(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    async with running_bot(settings) as application:
        for person in (ADA, BO):  # both use the bot in private too
            await Learner(api, person).send("/start", "Hello")
        q1 = await room.say(ADA, "/groupquiz tiny 2", "Question 1 of 3")
        assert (await room.tap(BO, q1, 1)).startswith("✅")
        api.kick_bot(room.chat)
        told = await api.wait_for_bot_message(ADA.id, "has ended")  # after the timer's reveal
        assert "Forbidden: bot was kicked from the supergroup chat" in told.text
        assert running_sessions(settings) == [] and retry_jobs(application) == []
    refused = [c.method for c in api.calls if not c.ok]
    assert refused == ["editMessageText", "sendMessage"]  # the reveal, the next question: once
    assert active(settings) == {ADA.id: 1, BO.id: 1}
    assert not our_problems(caplog), api.describe()


async def test_a_command_meeting_a_group_that_removed_the_bot_marks_nobody(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    """The group's /groupquiz reached the bot just before it was removed: the look-up of the
    sender's status is refused, and Ada (who uses the bot in private) is not taken for someone
    who blocked it."""
    async with running_bot(settings):
        await Learner(api, ADA).send("/start", "Hello, \u2068Ada\u2069")
        api.kick_bot(room.chat)
        api.send_text(ADA, "/groupquiz tiny 60", room.chat)
        (line,) = await api.wait_for(lambda: lines_with(caplog, "not completed"))
    assert line.levelno == logging.INFO and line.exc_info is None
    assert f"getChatMember to chat {GROUP_ID}: Forbidden: bot was kicked" in line.getMessage()
    assert active(settings) == {ADA.id: 1}
    assert not lines_with(caplog, "marked inactive")
    assert not our_problems(caplog), api.describe()


async def test_an_admin_who_never_opened_a_chat_with_the_bot_costs_one_line(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    api.restrict_bot(room.chat)
    async with running_bot(settings):
        api.send_text(ADA, "/groupquiz tiny 60", room.chat)
        (line,) = await api.wait_for(lambda: lines_with(caplog, "not told"))
        assert running_sessions(settings) == []
    assert "can't initiate conversation with a user" in line.getMessage()
    assert line.levelno == logging.INFO
    assert api.bot_messages(ADA.id) == []
    assert active(settings) == {}  # she never wrote to the bot in private: no row of hers
    assert not our_problems(caplog), api.describe()


async def test_a_group_that_refuses_polls_is_told_once_and_the_quiz_ends(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    api.private_chat(ADA)
    api.restrict_bot(room.chat, messages=True, polls=False)
    async with running_bot(settings) as application:
        api.send_text(ADA, "/groupquiz tiny 60 poll", room.chat)
        notice = await api.wait_for_bot_message(GROUP_ID, "Quiz polls cannot be posted here")
        assert "/groupquiz tiny without poll asks with buttons" in notice.text
        await api.wait_for_bot_message(ADA.id, "Not enough rights to send polls")
        assert running_sessions(settings) == [] and retry_jobs(application) == []
        await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")  # with buttons it works
    assert [c.ok for c in api.calls_to("sendPoll")] == [False]  # tried once, not every 5 s
    assert not our_problems(caplog), api.describe()


async def test_a_question_that_cannot_be_posted_for_long_ends_the_session_after_a_cap(
    api: FakeBotApi,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    room: Room,
) -> None:
    # the bot's quick retries and the session's slower ones, shortened for the test
    monkeypatch.setattr(faults, "RETRY_DELAYS", (0.05,))
    monkeypatch.setattr(group_flow, "ASK_RETRY_DELAYS", (0.2, 0.4), raising=False)
    api.private_chat(ADA)
    async with running_bot(settings) as application:
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        api.fail("sendMessage", 503, "Service Unavailable", times=6)  # 3 posts of 2 tries
        await room.reveal_tap(ADA, q1)  # Reveal: question 2 is due
        told = await api.wait_for_bot_message(ADA.id, "has ended")
        assert "could not be posted in 3 tries" in told.text
        assert "Service Unavailable (503)" in told.text
        assert running_sessions(settings) == [] and retry_jobs(application) == []
    assert [c.method for c in api.calls if not c.ok] == ["sendMessage"] * 6
    later = [r.getMessage() for r in lines_with(caplog, "not posted, try")]
    assert [line.split(" in ")[0][-5:] for line in later] == ["try 2", "try 3"], later
    assert not our_problems(caplog), api.describe()


async def test_an_admins_reveal_answered_too_late_for_telegram_still_reveals(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    now = [time.monotonic()]
    api.clock = lambda: now[0]
    async with running_bot(settings):
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        assert (await room.tap(BO, q1, 1)).startswith("✅")
        seen = len(room.messages())
        late = api.tap(ADA, q1, reveal_data(q1), forge=True)  # Reveal, then a slow moment
        now[0] += 20
        assert "1 chose it" in (await room.revealed(q1)).text
        await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
    (refused,) = [c for c in api.calls_to("answerCallbackQuery") if not c.ok]
    assert refused.params["callback_query_id"] == late and refused.description == STALE_QUERY
    (line,) = lines_with(caplog, "answered too late")
    assert line.levelno == logging.INFO
    assert not our_problems(caplog), api.describe()


async def test_push_tells_trouble_on_telegrams_side_from_a_chat_that_refuses(
    api: FakeBotApi, tmp_path: Path, settings: Settings
) -> None:
    channel = api.group(-100555, "news", admins=set(), type="channel")
    admin = Learner(api, ADA)
    configured = make_settings(
        api, settings.db_path, content_dir=settings.content_dir, admin_ids=frozenset({ADA.id})
    )
    async with running_bot(configured):
        api.fail("sendMessage", 503, "Service Unavailable", times=len(faults.RETRY_DELAYS) + 1)
        trouble = await admin.send("/push tiny @news", "did not take the post")
        assert "Service Unavailable (503)" in trouble.text and "/push again" in trouble.text
        done = await admin.send("/push tiny @news", "posted to @news")
        assert "Question 1 of 3" in done.text  # the failed post was not counted as posted
        api.kick_bot(channel)
        await admin.send("/push tiny @news", "I cannot post in @news")
    assert len(api.bot_messages(channel.id)) == 1


async def test_a_502_storm_during_a_group_quiz_costs_no_member_an_answer_given_in_time(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture, room: Room
) -> None:
    """Taps of one chat are handled one after another. A toast or a redraw of the live count
    that Telegram answers with 502 is tried again for seconds: if that happened inside a tap's
    turn, each member waited for the retries of everyone who tapped before, and answers given
    in time came in after the deadline ("Time is up") or for fewer points."""
    members = [FakeUser(100 + i, f"M{i}") for i in range(8)]
    async with running_bot(settings):
        q1 = await room.say(ADA, "/groupquiz tiny 12", "Question 1 of 3")
        api.fail("editMessageText", 502, "Bad Gateway", times=1000)  # the count, for good
        api.fail("answerCallbackQuery", 502, "Bad Gateway", times=len(members))  # once each
        right = q1.button_data()[1]
        question = api.messages[(GROUP_ID, q1.message_id)]
        taps = [api.tap(member, question, right) for member in members]
        toasts = [(await api.wait_for_answer(query, timeout=30))["text"] for query in taps]
        api.clear_faults()
    assert all(toast.startswith("✅ Right!") for toast in toasts), toasts
    answered = group_answers(settings.db_path)
    assert [row[1] for row in answered] == [member.id for member in members]
    assert min(row[3] for row in answered) > 900, answered  # each within ~2 s of the question
    assert not our_problems(caplog), api.describe()
