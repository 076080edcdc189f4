"""Forum topics: what the bot posts for a command goes to the topic it was sent in, and two
topics each run their own quiz."""

from __future__ import annotations

from bot.config import Settings
from bot.sandbox import FakeBotApi, Message
from tests.support.harness import running_bot
from tests.support.room import ADA, BO, GROUP_ID


async def test_two_topics_each_run_their_own_quiz(api: FakeBotApi, settings: Settings) -> None:
    chat = api.group(GROUP_ID, "school", admins={ADA.id})
    maths, history = api.create_topic(chat, "Maths"), api.create_topic(chat, "History")

    async def say(topic: int | None, text: str, expect: str) -> Message:
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(ADA, text, chat, topic=topic)
        return await api.wait_for(
            lambda: next((m for m in api.bot_messages(GROUP_ID)[seen:] if expect in m.text), None)
        )

    async with running_bot(settings):
        q_maths = await say(maths, "/groupquiz tiny 60", "Question 1 of 3")
        q_history = await say(history, "/groupquiz tiny 60", "Question 1 of 3")
        assert (q_maths.thread_id, q_history.thread_id) == (maths, history)
        assert all(m.thread_id in (maths, history) for m in api.bot_messages(GROUP_ID))
        again = await say(maths, "/groupquiz tiny 60", "already running")
        assert again.thread_id == maths
        await say(None, "/leaderboard", "No quiz")  # the General topic has none
        query = api.tap(BO, q_history, q_history.button_data()[1])
        assert (await api.wait_for_answer(query))["text"].startswith("✅")

        stopped = await say(history, "/stopquiz", "final results")
        assert stopped.thread_id == history
        assert "Bo" in stopped.text
        assert api.messages[(GROUP_ID, q_maths.message_id)].reply_markup is not None  # runs on
        board = await say(maths, "/leaderboard", "This quiz")
        assert board.thread_id == maths
        post = await say(maths, "/assign tiny 2h", "Homework #1")
        assert post.thread_id == maths
        [general] = api.in_topic(GROUP_ID, None)  # only the answer to the General topic
        assert "No quiz" in general.text
