"""Faults of Telegram in a learner's quiz: what is retried, what is not, and what the log says.

The policy (bot/faults.py): a request that certainly did not reach Telegram (no connection,
502/503 from a proxy, 429) is tried again with backoff and a cap; one that may have arrived
(timed out after sending, 500, 504) is not repeated, and the learner's next command resumes; a
tap answered too late for Telegram is still recorded and revealed, with one INFO line.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from bot.app import QuizApplication
from bot.config import Settings
from bot.core import faults
from bot.core.faults import Fault
from bot.sandbox import STALE_QUERY, Call, FakeBotApi, FakeUser
from tests.core.test_api_timeouts import SLOW, short_timeouts  # noqa: F401 - a fixture, by name
from tests.support.db import stored_answers
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.tutor import ShiftedClock, sweep, take_quiz, tutor

QUIZ_ID = "model-pipeline-parallelism"
PROXY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@pytest.fixture(autouse=True)
def info_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)


def our_problems(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The bot's own errors, and any traceback it logged."""
    return [
        r
        for r in caplog.records
        if r.name.startswith("bot") and (r.levelno >= logging.ERROR or r.exc_info)
    ]


def sends_of(api: FakeBotApi, text: str) -> list[Call]:
    return [c for c in api.calls_to("sendMessage") if text in str(c.params.get("text", ""))]


async def resumes_at_question_2(learner: Learner) -> None:
    """`/quiz` brings back question 2, whose sending failed; answering it leads to question 3."""
    resumed = await learner.send(f"/quiz {QUIZ_ID}", "Question 2 of 8")
    await learner.choose(resumed, 0, "Question 3 of 8")


# the classification, the one function every path asks


@pytest.mark.parametrize(
    ("error", "fault"),
    [
        (Forbidden("Forbidden: bot was blocked by the user"), Fault.CHAT_REFUSES),
        (Forbidden("Forbidden: bot was kicked from the group chat"), Fault.CHAT_REFUSES),
        (Forbidden("Forbidden: bot can't initiate conversation with a user"), Fault.CHAT_REFUSES),
        (BadRequest("Bad Request: chat not found"), Fault.CHAT_REFUSES),
        (
            BadRequest("Bad Request: not enough rights to send text messages to the chat"),
            Fault.CHAT_REFUSES,
        ),
        (
            BadRequest("Bad Request: need administrator rights in the channel chat"),
            Fault.CHAT_REFUSES,
        ),
        (ChatMigrated(-1001), Fault.CHAT_REFUSES),
        (BadRequest("Bad Request: not enough rights to send polls to the chat"), Fault.REJECTED),
        (BadRequest("Bad Request: message is too long"), Fault.REJECTED),
        (BadRequest(STALE_QUERY), Fault.REJECTED),
        (InvalidToken(), Fault.REJECTED),
        (Conflict("Conflict: terminated by other getUpdates request"), Fault.REJECTED),
        (RetryAfter(3), Fault.RETRY_LATER),
        (faults.NotSent("aiohttp.ClientConnectorError: refused"), Fault.RETRY_LATER),
        (faults.ConnectTimedOut("no connection"), Fault.RETRY_LATER),
        (faults.ServerError(502, "Bad Gateway (502)"), Fault.RETRY_LATER),
        (faults.ServerError(503, "Service Unavailable (503)"), Fault.RETRY_LATER),
        (faults.ServerError(500, "Internal Server Error (500)"), Fault.MAYBE_DONE),
        (faults.ServerError(504, "Gateway Timeout (504)"), Fault.MAYBE_DONE),
        (TimedOut(), Fault.MAYBE_DONE),
        (NetworkError("aiohttp.ServerDisconnectedError: Server disconnected"), Fault.MAYBE_DONE),
    ],
)
def test_each_kind_of_failure_has_one_meaning(error: NetworkError, fault: Fault) -> None:
    assert faults.classify(error) is fault


@given(st.text(max_size=120), st.integers(min_value=1, max_value=6))
def test_only_what_did_not_reach_telegram_is_retried_and_never_forever(
    text: str, tries: int
) -> None:
    for error in (Forbidden(text), BadRequest(text), TimedOut(text), NetworkError(text)):
        assert faults.retry_delay(tries, error) is None
    assert faults.retry_delay(tries, RetryAfter(1)) is None  # the rate limiter's to wait out
    for error in (faults.NotSent(text), faults.ServerError(503, text)):
        delay = faults.retry_delay(tries, error)
        assert (delay is not None) == (tries <= len(faults.RETRY_DELAYS))
    assert faults.retry_delay(tries, faults.ServerError(500, text)) is None


def test_only_a_private_chat_that_refused_is_taken_for_a_person() -> None:
    blocked = Forbidden("Forbidden: bot was blocked by the user")
    faults.remember_call(blocked, faults.Call("sendMessage", 42, 1))
    kicked = Forbidden("Forbidden: bot was kicked from the supergroup chat")
    faults.remember_call(kicked, faults.Call("getChatMember", -100123, 1))
    channel = BadRequest("Bad Request: chat not found")
    faults.remember_call(channel, faults.Call("getChat", "@news", 1))
    slow = TimedOut()
    faults.remember_call(slow, faults.Call("sendMessage", 42, 1))
    assert [faults.refusing_user(e) for e in (blocked, kicked, channel, slow)] == [
        42, None, None, None,
    ]  # fmt: skip
    assert faults.refusing_user(Forbidden("from nowhere")) is None


# item 9: 5xx, refused connections, timeouts


async def test_a_502_page_from_a_proxy_then_a_503_then_the_question_exactly_once(
    api: FakeBotApi, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    learner = Learner(api, FakeUser(7201, "Ayo", "en"))
    async with running_bot(settings):
        await learner.send("/help", "/progress")
        api.fail("sendMessage", 502, "Bad Gateway", body=PROXY_PAGE)
        api.fail("sendMessage", 503, "Service Unavailable")
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        await learner.choose(question, 0, "Question 2 of 8")
    assert [c.ok for c in sends_of(api, "Question 1 of 8")] == [False, False, True]
    assert sum("Question 1 of 8" in m.text for m in learner.messages()) == 1
    retries = [r.getMessage() for r in caplog.records if "; try " in r.getMessage()]
    assert len(retries) == 2 and "Bad Gateway (502); try 2" in retries[0], retries
    assert not our_problems(caplog), api.describe()


async def test_connections_refused_for_a_moment_are_tried_again(
    api: FakeBotApi, bot: QuizApplication, caplog: pytest.LogCaptureFixture
) -> None:
    learner = Learner(api, FakeUser(7202, "Bimpe", "en"))
    await learner.send("/help", "/progress")
    await api.wait_until_polled()
    await api.refuse_connections(1.0)
    question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    assert api.listening_again_at is not None  # it came once the stand-in listened again
    await learner.choose(question, 0, "Question 2 of 8")
    assert [c.ok for c in sends_of(api, "Question 1 of 8")] == [True]  # refused tries sent nothing
    refused = [r.getMessage() for r in caplog.records if "ClientConnectorError" in r.getMessage()]
    assert refused and all("; try " in line for line in refused), refused
    assert not our_problems(caplog), api.describe()


async def test_telegram_down_for_longer_than_the_cap_costs_one_line_and_resume_works(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    learner = Learner(api, FakeUser(7203, "Chidi", "en"))
    tries = len(faults.RETRY_DELAYS) + 1
    async with running_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.fail("sendMessage", 503, "Service Unavailable", times=tries)
        query_id = api.tap(learner.user, question, question.button_data()[0])
        assert (await api.wait_for_answer(query_id))["text"]
        await api.wait_for(lambda: len(sends_of(api, "Question 2 of 8")) == tries)
        gave_up = await api.wait_for(
            lambda: [r for r in caplog.records if "not completed" in r.getMessage()]
        )
        assert len(gave_up) == 1 and gave_up[0].levelno == logging.WARNING
        assert f"after {tries} tries" in gave_up[0].getMessage()
        await resumes_at_question_2(learner)
        welcome = [m for m in learner.messages() if m.text.startswith("Welcome back")]
        assert [m.text for m in welcome] == ["Welcome back: you are at question 2 of 8."]
    assert not our_problems(caplog), api.describe()
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


async def test_a_500_from_telegram_is_not_repeated_and_the_next_command_resumes(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram's own 500 comes after it took the request: the message may have been sent."""
    learner = Learner(api, FakeUser(7204, "Dayo", "en"))
    async with running_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.fail("sendMessage", 500, "Internal Server Error")
        query_id = api.tap(learner.user, question, question.button_data()[0])
        assert (await api.wait_for_answer(query_id))["text"]
        line = await api.wait_for(
            lambda: [r for r in caplog.records if "not completed" in r.getMessage()]
        )
        assert len(line) == 1 and "it may have been carried out" in line[0].getMessage()
        assert [c.ok for c in sends_of(api, "Question 2 of 8")] == [False]
        await resumes_at_question_2(learner)
    assert not our_problems(caplog), api.describe()
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


# item 10: a tap answered too late for Telegram


async def test_a_tap_delivered_late_is_recorded_revealed_and_logged_as_one_info_line(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = [time.monotonic()]
    api.clock = lambda: now[0]
    learner = Learner(api, FakeUser(7205, "Efe", "en"))
    async with running_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    options = question.button_data()  # the reveal takes the buttons away
    # the bot is down when the learner taps, and back 20 s later
    late = api.tap(learner.user, question, options[0])
    now[0] += 20
    caplog.clear()
    async with running_bot(settings):
        second = await api.wait_for_bot_message(learner.chat_id, "Question 2 of 8")
        revealed = api.messages[(learner.chat_id, question.message_id)]
        assert revealed.edits == 1 and revealed.reply_markup is None
        # a tap on an answered question, answered late as well: a refusal, still one line
        again = api.tap(learner.user, question, options[1], forge=True)
        now[0] += 20
        await api.wait_for(lambda: len(api.calls_to("answerCallbackQuery")) == 2)
        await learner.choose(second, 0, "Question 3 of 8")
    refused = [c for c in api.calls_to("answerCallbackQuery") if not c.ok]
    assert [str(c.params["callback_query_id"]) for c in refused] == [late, again]
    assert all(c.description == STALE_QUERY for c in refused)
    lines = [r for r in caplog.records if "answered too late" in r.getMessage()]
    assert [r.levelno for r in lines] == [logging.INFO, logging.INFO]
    warnings = [r for r in caplog.records if r.name.startswith("bot") and r.levelno >= 30]
    assert not warnings, [r.getMessage() for r in warnings]
    assert not any(r.exc_info for r in caplog.records)
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


# reminders: one that may have arrived is not sent again


@pytest.mark.usefixtures("short_timeouts")
async def test_a_reminder_that_timed_out_after_it_was_sent_is_not_sent_twice(
    api: FakeBotApi, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ShiftedClock()
    learner = Learner(api, FakeUser(7206, "Funmi", "en"))
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    async with tutor(api, tmp_path, clock) as (application, _):
        await learner.send("/timezone +01:00", "Time zone set: UTC+01:00")
        await learner.send("/remind 08:00", "Every day at 08:00 (UTC+01:00)")
        await take_quiz(learner, wrong={"c1"})
        before = len(learner.messages())
        clock.set(
            datetime.combine(tomorrow, datetime.min.time(), UTC) + timedelta(hours=7, minutes=1)
        )
        api.delay("sendMessage", SLOW)  # the bot stops waiting; Telegram delivers it after
        await sweep(application)
        await api.wait_for_bot_message(learner.chat_id, "due for review", after=before)
        await sweep(application)  # a minute later
        reminders_sent = [m for m in learner.messages()[before:] if "due for review" in m.text]
        assert len(reminders_sent) == 1
    (line,) = [r for r in caplog.records if r.getMessage().startswith("reminder to 7206")]
    assert "may have been carried out" in line.getMessage() and line.exc_info is None
