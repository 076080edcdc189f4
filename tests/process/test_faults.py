"""Faults: the Bot API failing for a while, a crash in the middle of a burst, random input."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import Settings
from bot.core import callbacks
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.db import rows
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.process import QUIZ_ID, bot_process


@given(st.text(max_size=80))
@settings(max_examples=500, deadline=None)
def test_decoding_any_text_never_raises_and_round_trips(data: str) -> None:
    decoded = callbacks.decode(data)
    if decoded is not None:
        assert decoded.encode() == data


@given(
    st.integers(min_value=0, max_value=10**17),
    st.integers(min_value=0, max_value=10**17),
    st.integers(min_value=0, max_value=9),
)
def test_every_answer_tap_fits_64_bytes_and_round_trips(
    attempt: int, position: int, option: int
) -> None:
    tap = callbacks.AnswerTap(attempt, position, option)
    data = tap.encode()
    assert len(data.encode()) <= 64
    assert callbacks.decode(data) == tap


async def test_random_buttons_and_commands_are_answered_and_change_nothing(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    rng = random.Random(20261202)
    alphabet = "0123456789:abcdefghijklmnopqrstuvwxyz-_/ é😀<>&"
    learner = Learner(api, FakeUser(5001, "Fuzz", "en"))
    async with running_bot(settings):
        question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        for _ in range(40):
            data = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 64)))
            if len(data.encode()) > 64:
                data = data[:20]
            answer = await learner.tap(question, data, forge=True)
            assert answer["text"] in {
                "This button is no longer active.",
                "This is someone else's quiz. Start your own with /quizzes.",
            }, data
        for _ in range(25):
            command = rng.choice(
                ["/quiz", "/preview", "/start", "/remind", "/timezone", "/language"]
            )
            argument = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            seen = len(learner.messages())
            api.send_text(learner.user, f"{command} {argument}".strip())
            await api.wait_for(lambda seen=seen: len(learner.messages()) > seen)
        assert not [c for c in api.calls if not c.ok], api.describe()
    assert rows(db_path, "SELECT COUNT(*) FROM answers") == [(0,)]


async def test_bot_api_errors_for_a_while_lose_no_update(
    api: FakeBotApi, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(5002, "Ngozi", "en"))
    async with running_bot(settings):
        await learner.send("/help", "/progress")  # polling is under way
        api.fail("getUpdates", 502, "Bad Gateway", times=2)
        api.fail("getUpdates", 500, "Internal Server Error")
        api.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1, times=2)

        def failures(method: str) -> int:
            return sum(1 for c in api.calls if c.method == method and not c.ok)

        await api.wait_for(lambda: failures("getUpdates") == 3, 30)
        welcome = await learner.send("/start", "Hello, \u2068Ngozi")
        assert failures("sendMessage") == 2  # waited out by the rate limiter, then sent
        assert "Quiz Tutor" in welcome.text


async def test_kill_9_in_a_burst_keeps_every_acknowledged_answer_once(
    api: FakeBotApi, tmp_path: Path
) -> None:
    db_path = tmp_path / "quiz.sqlite3"
    env = api.bot_environment(db_path)
    learners = [Learner(api, FakeUser(6000 + i, f"b{i}", "en")) for i in range(12)]
    async with bot_process(env, tmp_path) as running:
        questions = await asyncio.gather(
            *(learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8") for learner in learners)
        )
        first_buttons = [question.button_data()[0] for question in questions]
        query_ids = [
            api.tap(learner.user, question, data)
            for learner, question, data in zip(learners, questions, first_buttons, strict=True)
        ]
        await api.wait_for(lambda: sum(q in api.callback_answers for q in query_ids) >= 4)
        running.process.kill()
        await running.process.wait()
    acknowledged = {6000 + i for i, q in enumerate(query_ids) if q in api.callback_answers}
    with sqlite3.connect(db_path) as db:
        stored = db.execute("SELECT user_id FROM answers ORDER BY user_id").fetchall()
    stored_users = [row[0] for row in stored]
    assert acknowledged <= set(stored_users)
    assert len(stored_users) == len(set(stored_users))

    # Polling confirms updates as it fetches them, so taps the killed bot fetched but never
    # answered are gone, as with Telegram. Their learners saw no answer and tap again.
    async with bot_process(env, tmp_path) as running:
        pairs = list(zip(learners, questions, first_buttons, strict=True))
        for learner, question, data in pairs:
            if learner.user.id not in stored_users:
                answer = await learner.tap(question, data, forge=True)
                assert answer["text"] != "You already answered this question."
        for learner, question, data in pairs:
            if learner.user.id in stored_users:
                answer = await learner.tap(question, data, forge=True)
                assert answer["text"] == "You already answered this question."
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT user_id, question_id FROM answers ORDER BY user_id").fetchall()
    assert rows == [(6000 + i, "mpp-1") for i in range(12)]
