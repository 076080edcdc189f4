"""Timers in a group: a quiz poll runs on Telegram's own timer (`open_period`); a question with
buttons shows its time left, redrawn within the chat's budget; /stopquiz closes the open
question in place; a quiz nobody answered ends without a review to offer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from telegram import Bot, InputPollOption
from telegram.error import BadRequest

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.room import ADA, BO, GROUP_ID, Room


async def test_the_stand_in_holds_open_period_to_telegrams_rules(api: FakeBotApi) -> None:
    group = api.group(GROUP_ID, "study", admins=set())
    now = [1000.0]
    api.clock = lambda: now[0]
    options = [InputPollOption("a"), InputPollOption("b")]
    async with Bot(api.token, base_url=api.base_url) as bot:
        for period in (4, 601):
            with pytest.raises(BadRequest, match="(?i)wrong open period"):
                await bot.send_poll(group.id, "Q?", options, open_period=period)
        with pytest.raises(BadRequest, match="(?i)open_period and close_date"):
            await bot.send_poll(group.id, "Q?", options, open_period=30, close_date=2_000_000_000)
        sent = await bot.send_poll(group.id, "Q?", options, open_period=30, is_anonymous=False)
        message = api.messages[(group.id, sent.message_id)]
        api.vote(BO, message, 0)
        now[0] += 30
        with pytest.raises(AssertionError, match="closed"):
            api.vote(FakeUser(9, "Late"), message, 1)
        with pytest.raises(BadRequest, match="(?i)already been closed"):
            await bot.stop_poll(group.id, sent.message_id)


async def test_a_poll_quiz_runs_on_telegrams_timer_and_the_reveal_follows_it(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    async with running_bot(settings):
        await room.say(ADA, "/groupquiz tiny 5 poll", "")
        first = await room.poll(1)
        assert first.poll is not None and first.poll["open_period"] == 5
        assert first.reply_markup is None  # no Reveal button under the poll
        api.vote(BO, first, 1)
        second = await room.poll(2)  # Telegram closed the first; the bot went on, no error
        assert first.poll["is_closed"] and second.poll is not None
    assert [c.description for c in api.calls if not c.ok] in (
        [],
        ["Bad Request: poll has already been closed"],
    )


async def test_buttons_show_the_time_left_and_stopquiz_closes_the_question_in_place(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    async with running_bot(replace(settings, group_count_interval=1.0)):
        q1 = await room.say(ADA, "/groupquiz tiny 12", "⏱ 12 s left")
        await api.wait_for(lambda: "⏱ 10 s left" in room.current(q1).text or None)
        await api.wait_for(lambda: "⏱ 5 s left" in room.current(q1).text or None)
        q2 = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3")
        assert (await room.tap(BO, q2, 0)).startswith("✅")
        seen = len(room.messages())
        await room.say(ADA, "/stopquiz", "stopped")
        closed = await room.revealed(q2)  # revealed in place, never left asking
        assert "⏱" not in closed.text and closed.reply_markup is None
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        assert final.buttons  # Bo answered: a review of what he missed is offered


async def test_a_quiz_nobody_answered_ends_without_a_review_to_offer(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    async with running_bot(settings):
        await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        await room.say(ADA, "/stopquiz", "stopped")
        final = await api.wait_for_bot_message(GROUP_ID, "final results")
        assert final.buttons == [] and "Review what you missed" not in str(final.reply_markup)
