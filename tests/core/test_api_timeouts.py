"""Bot API calls that time out: the bot recovers, loses no update, loses or doubles no answer.

The stand-in holds calls (`FakeBotApi.delay`) longer than the bot's read timeout. The bot's
requests (bot/app.py `_bot`) are `AiohttpRequest()` with a 5 s read timeout; these tests build
them with a 1 s one by replacing the class `bot.app` builds them from (no bot code changes), so
a held call costs a couple of seconds, not six. A long poll's read timeout is PTB's: the read
timeout plus the poll timeout (1 s in the tests' settings).

What a timed-out call does, as these tests pin it down:

* getUpdates: the updater retries at once with the same offset; updates that came meanwhile
  (or that a held call handed to nobody) come with the retry, each handled once.
* answerCallbackQuery after the answer is stored: the error is logged as a warning, the answer
  stays stored once, the reveal (the edit) is still made, and the next question is sent.
* editMessageText (the reveal): logged as a warning; the next question is sent.
* sendMessage of the next question: the update's handler fails with TimedOut, which the error
  handler logs as one warning line without a traceback; nothing retries it (it may have
  arrived: bot/faults.py). If Telegram carried it out all the same, the question arrives late
  and answering it goes on as usual; if not, the learner sees no next question and
  `/quiz <id>` resumes at it ("Welcome back: you are at question 2 of 8.").
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from telegram import Bot
from telegram.error import TimedOut

import bot.app
from bot.app import QuizApplication
from bot.config import Settings
from bot.core.transport import AiohttpRequest
from bot.sandbox import Call, FakeBotApi, FakeUser, Message
from tests.support.db import stored_answers
from tests.support.harness import running_bot
from tests.support.learner import Learner

QUIZ_ID = "model-pipeline-parallelism"
READ_TIMEOUT = 1.0  # the bot's, for these tests
POLL_TIMEOUT = 1  # tests.support.harness.make_settings
SLOW = READ_TIMEOUT + 1.0  # a held call, well past the read timeout
SLOW_POLL = READ_TIMEOUT + POLL_TIMEOUT + 1.0  # a held long poll, well past its read timeout


@pytest.fixture
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        bot.app, "AiohttpRequest", functools.partial(AiohttpRequest, read_timeout=READ_TIMEOUT)
    )


@asynccontextmanager
async def slow_network_bot(settings: Settings) -> AsyncIterator[QuizApplication]:
    """The real application with the short read timeout (checked, so a change in how the app
    builds its requests fails here rather than making the holds too short to time out)."""
    async with running_bot(settings) as application:
        assert application.bot.request.read_timeout == READ_TIMEOUT
        yield application


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


def not_repeated(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The error handler's one line for a call that timed out after it was sent."""
    return [r for r in caplog.records if "may have been carried out" in r.getMessage()]


async def second_leads_on(
    learner: Learner, second: Message, api: FakeBotApi, caplog: pytest.LogCaptureFixture
) -> None:
    """Question 2, shown once, answered leads to question 3; nothing logged as an error."""
    await learner.choose(second, 0, "Question 3 of 8")
    assert questions_numbered(learner, 2) == 1
    assert not errors(caplog), api.describe()


def answers_to(api: FakeBotApi, query_id: str) -> list[Call]:
    return [
        c
        for c in api.calls_to("answerCallbackQuery")
        if str(c.params.get("callback_query_id")) == query_id
    ]


def sends_of(api: FakeBotApi, text: str) -> list[Call]:
    return [c for c in api.calls_to("sendMessage") if text in str(c.params.get("text", ""))]


def abandoned(api: FakeBotApi, method: str) -> list[Call]:
    return [c for c in api.calls_to(method) if c.abandoned]


def questions_numbered(learner: Learner, number: int) -> int:
    return sum(f"Question {number} of 8" in m.text for m in learner.messages())


async def test_stand_in_holds_calls_and_sees_the_client_give_up(api: FakeBotApi) -> None:
    """The injection itself: a hold past the timeout is carried out (or lost) after the client
    gave up, and is recorded as abandoned; a short hold is answered as usual."""
    user = FakeUser(7100, "Ife")
    api.private_chat(user)
    # margins wide enough for a loaded 2-core machine: a short hold is 20 times shorter than
    # the timeout, a long one 2.5 times longer
    client = Bot(api.token, base_url=api.base_url, request=AiohttpRequest(read_timeout=1.0))
    async with client:
        api.delay("sendMessage", 0.05)
        await client.send_message(user.id, "quick enough")
        assert api.calls_to("sendMessage")[-1].abandoned is False

        api.delay("sendMessage", 2.5)
        with pytest.raises(TimedOut):
            await client.send_message(user.id, "late")
        assert "late" not in [m.text for m in api.bot_messages(user.id)]  # not yet
        late = await api.wait_for(lambda: len(api.calls_to("sendMessage")) == 2)
        assert late and api.calls_to("sendMessage")[-1].ok
        assert api.calls_to("sendMessage")[-1].abandoned
        assert [m.text for m in api.bot_messages(user.id)] == ["quick enough", "late"]

        api.delay(None, 2.5, lost=True)  # whatever the next call is
        with pytest.raises(TimedOut):
            await client.send_message(user.id, "lost")
        await api.wait_for(lambda: len(api.calls_to("sendMessage")) == 3)
        lost = api.calls_to("sendMessage")[-1]
        assert (lost.ok, lost.abandoned) == (False, True)
        assert [m.text for m in api.bot_messages(user.id)] == ["quick enough", "late"]
        assert api.delayed == ["sendMessage", "sendMessage", "sendMessage"]


@pytest.mark.usefixtures("short_timeouts")
async def test_get_updates_hanging_twice_loses_no_update(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two long polls in a row hang past their timeout while a tap and a command wait; the
    updater retries and both are handled, once each."""
    learner = Learner(api, FakeUser(7101, "Kemi", "en"))
    other = Learner(api, FakeUser(7102, "Tunde", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay("getUpdates", SLOW_POLL, times=2)
        await api.wait_for(lambda: api.delayed == ["getUpdates"])  # the bot's poll is held
        seen = len(learner.messages())
        query_id = api.tap(learner.user, question, question.button_data()[0])
        api.send_text(other.user, "/start")

        toast = await api.wait_for_answer(query_id)
        assert toast["text"]
        second = await api.wait_for_bot_message(learner.chat_id, "Question 2 of 8", after=seen)
        await other.api.wait_for_bot_message(other.chat_id, "Hello, \u2068Tunde")
        # the updates came only after both held polls had timed out on the bot's side
        assert api.delayed == ["getUpdates", "getUpdates"]
        await api.wait_for(lambda: len(abandoned(api, "getUpdates")) == 2)

        await second_leads_on(learner, second, api, caplog)
        assert len(answers_to(api, query_id)) == 1
        assert [m.text.startswith("Hello, \u2068Tunde") for m in other.messages()].count(True) == 1
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


@pytest.mark.usefixtures("short_timeouts")
async def test_callback_answer_timing_out_after_the_answer_is_stored(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The toast's call hangs (Telegram shows it late); the answer is stored once, the next
    question comes, and tapping the old question again changes nothing."""
    learner = Learner(api, FakeUser(7103, "Amaka", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        options = question.button_data()  # the reveal takes the buttons away
        api.delay("answerCallbackQuery", SLOW)
        toast, second = await learner.choose(question, 0, "Question 2 of 8")
        assert toast["text"]
        (answer,) = api.calls_to("answerCallbackQuery")  # the one tap's, once
        assert answer.ok and answer.abandoned  # carried out, but the bot had timed out
        again = await learner.tap(question, options[1], forge=True)
        assert again["text"] == "You already answered this question."

        await second_leads_on(learner, second, api, caplog)
        assert any("toast failed" in r.getMessage() for r in caplog.records)
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


# Found by this file: the acknowledgement and the reveal used to share one `try`, so a timed-out
# answerCallbackQuery left the answered question with its buttons and no explanation.
@pytest.mark.usefixtures("short_timeouts")
async def test_callback_answer_timing_out_still_reveals_the_answer(
    api: FakeBotApi, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(7104, "Obi", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay("answerCallbackQuery", SLOW)
        await learner.choose(question, 0, "Question 2 of 8")
        revealed = api.messages[(learner.chat_id, question.message_id)]
        assert revealed.reply_markup is None, "the answered question still shows its buttons"
        assert revealed.edits == 1


@pytest.mark.usefixtures("short_timeouts")
async def test_reveal_timing_out_after_the_answer_is_stored(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The reveal's edit hangs: the next question comes without waiting for it; the edit lands
    late; the answer is stored once."""
    learner = Learner(api, FakeUser(7105, "Zainab", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay("editMessageText", SLOW)
        toast, second = await learner.choose(question, 0, "Question 2 of 8")
        assert toast["text"]
        assert api.messages[(learner.chat_id, question.message_id)].edits == 0  # still held
        await api.wait_for(lambda: abandoned(api, "editMessageText"))
        revealed = api.messages[(learner.chat_id, question.message_id)]
        assert revealed.reply_markup is None and revealed.edits == 1

        await second_leads_on(learner, second, api, caplog)
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


@pytest.mark.usefixtures("short_timeouts")
async def test_next_question_lost_on_a_timeout_is_resumed_with_quiz(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """sendMessage of the next question times out and Telegram never sent it: the handler's
    TimedOut is logged once, nothing resends it, and `/quiz` resumes at that question."""
    learner = Learner(api, FakeUser(7106, "Femi", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay("sendMessage", SLOW, lost=True)
        query_id = api.tap(learner.user, question, question.button_data()[0])
        assert (await api.wait_for_answer(query_id))["text"]
        await api.wait_for(lambda: abandoned(api, "sendMessage"))
        assert "Question 2 of 8" in api.calls_to("sendMessage")[-1].params["text"]
        assert questions_numbered(learner, 2) == 0
        await api.wait_for(lambda: not_repeated(caplog))  # the error handler ran
        (line,) = not_repeated(caplog)
        assert line.levelno == logging.WARNING and line.exc_info is None
        assert "sendMessage to chat 7106: TimedOut" in line.getMessage()

        resumed = await learner.send(f"/quiz {QUIZ_ID}", "Question 2 of 8")
        assert "Welcome back: you are at question 2 of 8." in learner.messages()[-2].text
        await learner.choose(resumed, 0, "Question 3 of 8")
        assert len(answers_to(api, query_id)) == 1
        assert len(not_repeated(caplog)) == 1 and not errors(caplog)
        # the timed-out send was not repeated: once lost, once by /quiz
        assert [c.abandoned for c in sends_of(api, "Question 2 of 8")] == [True, False]
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


@pytest.mark.usefixtures("short_timeouts")
async def test_next_question_sent_late_after_a_timeout_goes_on(
    api: FakeBotApi, settings: Settings, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """sendMessage of the next question times out but Telegram sent it: it arrives late, once,
    and answering it goes on; the bot logged the TimedOut once and sent nothing twice."""
    learner = Learner(api, FakeUser(7107, "Sade", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay("sendMessage", SLOW)
        _, second = await learner.choose(question, 0, "Question 2 of 8")
        assert api.calls_to("sendMessage")[-1].abandoned
        await learner.choose(second, 0, "Question 3 of 8")
        assert questions_numbered(learner, 2) == 1
        assert len(sends_of(api, "Question 2 of 8")) == 1  # not repeated
        (line,) = not_repeated(caplog)
        assert line.levelno == logging.WARNING and line.exc_info is None
        assert not errors(caplog)
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]


@pytest.mark.usefixtures("short_timeouts")
async def test_a_spell_of_slowness_on_every_method(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    """The next three calls, whatever they are, hang past the timeout and are then carried
    out (which ones depends on timing): the quiz goes on, each answer stored once, no
    question doubled."""
    learner = Learner(api, FakeUser(7108, "Bisi", "en"))
    async with slow_network_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        api.delay(None, SLOW_POLL, times=3)
        query_id = api.tap(learner.user, question, question.button_data()[0])
        second = await api.wait_for_bot_message(learner.chat_id, "Question 2 of 8", timeout=30)
        await api.wait_for(lambda: len(api.delayed) == 3, timeout=30)
        await api.wait_for(lambda: sum(c.abandoned for c in api.calls) >= 3, timeout=30)
        await learner.choose(second, 0, "Question 3 of 8")
        assert len(answers_to(api, query_id)) == 1
        assert questions_numbered(learner, 2) == 1
    assert stored_answers(db_path, learner.user.id) == ["mpp-1", "mpp-2"]
