"""`/forgetme` while a group question is still open (issue 11, item 16; docs/security.md).

The member's answer keeps counting once: a second tap is told "your answer stands", the count
does not move. It keeps the member's id, nameless, until the question closes (revealed,
skipped, stopped, or the next /push for a post), and is anonymized in that same commit; a
restart in between changes nothing, and the reminder sweep ends a hold that no close ends (a
post left open for more than `HOLD_LIMIT`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.learner.reminders import JOB_NAME
from bot.sandbox.server import FakeBotApi, FakeUser, Message
from tests.support.db import group_answerers, rows
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, GROUP_ID, Room
from tests.support.tutor import ShiftedClock

QUIZ_ID = "model-pipeline-parallelism"  # answers: mpp-1 A, mpp-2 B
CHANNEL_ID = -100_655
KEMI = FakeUser(7402, "Kemi")
OLA = FakeUser(7403, "Ola")
STANDS = "Your answer {} stands: one answer per question."
ALREADY = "You already answered this question."
HOLD_LIMIT = 7 * 86_400.0  # how long a post's answer is held at most (storage/held_answers.py)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return replace(settings, admin_ids=frozenset({ADA.id}))


async def _forget(api: FakeBotApi, user: FakeUser) -> None:
    learner = Learner(api, user)
    ask = await learner.send("/forgetme", "This deletes everything")
    (data,) = [b["callback_data"] for b in ask.buttons if b["text"] == "Delete my data"]
    toast = await learner.tap(ask, str(data))
    assert toast["text"].startswith("Your data is deleted")


async def _push(api: FakeBotApi, expect: str) -> Message:
    """/push the seed quiz's next question into the channel; its message there."""
    seen = len(api.bot_messages(CHANNEL_ID))
    await Learner(api, ADA).send(f"/push {QUIZ_ID} @news", expect)
    (posted,) = await api.wait_for(lambda: api.bot_messages(CHANNEL_ID)[seen:])
    return posted


async def _tap(api: FakeBotApi, user: FakeUser, message: Message, option: int) -> str:
    query = api.tap(user, message, message.button_data()[option])
    return str((await api.wait_for_answer(query))["text"])


async def test_a_member_who_forgets_during_a_group_question_keeps_one_answer_until_its_reveal(
    api: FakeBotApi, bot: QuizApplication, db_path: Path, room: Room
) -> None:
    q1 = await room.say(ADA, f"/groupquiz {QUIZ_ID} 60", "Question 1 of 8")
    assert (await room.tap(KEMI, q1, 0)).startswith("✅")
    q2 = await room.say(ADA, "/skip", "Question 2 of 8")
    assert (await room.tap(KEMI, q2, 0)).startswith("❌ Not quite")
    assert (await room.tap(ADA, q2, 1)).startswith("✅")

    await _forget(api, KEMI)
    # the closed question's answer is anonymized at once; the open one stays hers, nameless
    ((placeholder, name),) = group_answerers(db_path, position=0)
    assert placeholder < 0 and name == ""
    assert group_answerers(db_path, position=1) == [(ADA.id, "Ada"), (KEMI.id, "")]
    # one answer per question still: the right answer now is refused, nothing is counted
    assert await room.tap(KEMI, q2, 1) == STANDS.format("A")
    assert len(group_answerers(db_path, position=1)) == 2
    # the board already shows her as one "(deleted)" line with both answers' points
    board = await room.say(ADA, "/leaderboard", "This quiz")
    assert "Kemi" not in board.text and "(no name)" not in board.text
    assert board.text.count("(deleted)") == 2 and board.text.count("1/2 right") == 2

    await room.say(ADA, "/skip", "Question 3 of 8")
    shown = await room.revealed(q2)
    assert "👥 2 answered" in shown.text
    # revealed: her answer took the same placeholder as her earlier one
    assert group_answerers(db_path, position=1) == [(placeholder, ""), (ADA.id, "Ada")]
    assert rows(db_path, "SELECT COUNT(*) FROM group_answers WHERE user_id=?", KEMI.id) == [(0,)]
    board = await room.say(ADA, "/leaderboard", "This quiz")
    assert board.text.count("(deleted)") == 2 and "Ada" in board.text


async def test_a_post_answer_of_a_member_who_forgets_stands_until_the_next_push_reveals_it(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    api.group(CHANNEL_ID, "news", admins={ADA.id}, type="channel")
    async with running_bot(settings):
        post = await _push(api, "Question 1 of 8")
        assert (await _tap(api, KEMI, post, 1)).startswith("❌")
        assert await _tap(api, OLA, post, 0) == "✅ Correct!"
        await api.wait_for(lambda: "Answers so far: 2" in post.text)

        await _forget(api, KEMI)
        assert group_answerers(db_path, position=0) == [(KEMI.id, ""), (OLA.id, "Ola")]
        assert await _tap(api, KEMI, post, 0) == ALREADY
        assert len(group_answerers(db_path, position=0)) == 2

        await _push(api, "Question 2 of 8")
        await api.wait_for(lambda: post.reply_markup is None)
        assert "2 answered, 1 right" in post.text
        ((placeholder, name), ola) = group_answerers(db_path, position=0)
        assert placeholder < 0 and name == "" and ola == (OLA.id, "Ola")


async def test_a_restart_between_forgetting_and_the_close_still_anonymizes_at_the_close(
    api: FakeBotApi, settings: Settings, db_path: Path, room: Room
) -> None:
    async with running_bot(settings):
        q1 = await room.say(ADA, f"/groupquiz {QUIZ_ID} 60", "Question 1 of 8")
        assert (await room.tap(KEMI, q1, 1)).startswith("❌ Not quite")
        await _forget(api, KEMI)
    assert group_answerers(db_path, position=0) == [(KEMI.id, "")]
    async with running_bot(settings):
        assert await room.tap(KEMI, q1, 0) == STANDS.format("B")
        assert (await room.tap(OLA, q1, 0)).startswith("✅")
        seen = len(room.messages())
        api.send_text(ADA, "/stopquiz", room.chat)
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        # stopped: anonymized in the stop's commit, before the final board was drawn
        assert "(deleted)" in final.text and "Ola" in final.text
        ((placeholder, _), ola) = group_answerers(db_path, position=0)
        assert placeholder < 0 and ola == (OLA.id, "Ola")


async def test_a_post_left_open_past_the_hold_limit_is_anonymized_by_the_sweep(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    api.group(CHANNEL_ID, "news", admins={ADA.id}, type="channel")
    clock = ShiftedClock()
    async with running_bot(settings, clock) as application:
        post = await _push(api, "Question 1 of 8")
        assert await _tap(api, KEMI, post, 0) == "✅ Correct!"
        await _forget(api, KEMI)
        await _sweep(application)
        assert group_answerers(db_path, position=0) == [(KEMI.id, "")]  # the post is young: held

        clock.advance(HOLD_LIMIT + 60)
        await _sweep(application)
        ((placeholder, _),) = group_answerers(db_path, position=0)
        assert placeholder < 0
        # past the limit, a tap is a new member's answer (the post still takes answers)
        assert await _tap(api, KEMI, post, 0) == "✅ Correct!"
        assert [user_id for user_id, _ in group_answerers(db_path, position=0)] == [
            placeholder,
            KEMI.id,
        ]


async def _sweep(application: QuizApplication) -> None:
    """What the minute's reminder sweep does, now."""
    assert application.job_queue is not None
    (job,) = application.job_queue.get_jobs_by_name(JOB_NAME)
    await job.run(application)
