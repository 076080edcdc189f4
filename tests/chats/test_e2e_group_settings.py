"""A group's own language and time zone, set by its admins: what the bot posts there speaks
the group's language; each member's toast stays in their own."""

from __future__ import annotations

import sqlite3

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.room import ADA, BO, GROUP_ID, Room

TUNDE = FakeUser(7, "Tunde", "yo")  # a member whose Telegram speaks Yoruba


async def test_the_group_language_is_the_bots_there_and_toasts_stay_each_members(
    room: Room, settings: Settings
) -> None:
    async with running_bot(settings):
        await room.say(BO, "/language yo", "Only the chat's admins")
        await room.say(ADA, "/language", "Send /language <code>, one of en, yo. Now: English.")
        await room.say(ADA, "/language klingon", "is not one of the languages: en, yo")
        await room.say(ADA, "/language yo", "Èdè ẹgbẹ́ yìí ni Yorùbá báyìí")
        await room.say(BO, "/leaderboard", "")  # any reply: now in Yoruba
        assert "Only the chat's admins" not in room.messages()[-1].text
        await room.say(BO, "/stopquiz", "alábòójútó")  # a refusal in the group's language
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Ìbéèrè 1")
        assert "ìdánwò fún gbogbo ẹgbẹ́" in room.messages()[-2].text
        assert (await room.tap(BO, q1, 1)).startswith("✅ Right!")  # Bo's own language
        assert (await room.tap(TUNDE, q1, 1)).startswith("✅ Ó tọ̀nà!")
        await room.say(ADA, "/language en", "This group's language is now English")
        await room.say(ADA, "/timezone Mars/Olympus", "")
        await room.say(ADA, "/timezone africa/lagos", "time zone is now Africa/Lagos")
    with sqlite3.connect(settings.db_path) as db:
        assert db.execute("SELECT chat_id, timezone, language FROM chat_settings").fetchall() == [
            (GROUP_ID, "Africa/Lagos", "en")
        ]


async def test_with_no_language_set_a_group_speaks_its_learners_usual_one_not_the_senders(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    """A Yoruba member's /leaderboard used to post Yoruba to everyone right after English
    results: the group's language decides, whoever sent the command."""
    async with running_bot(settings):
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        await room.tap(TUNDE, q1, 1)  # Tunde has no private chat: not counted as a learner
        await room.say(ADA, "/stopquiz", "final results")
        board = await room.say(TUNDE, "/leaderboard", "")
        assert "Last quiz" in board.text  # English: not Tunde's Yoruba
    # a group whose learners mostly read Yoruba speaks Yoruba (worked out again at a start)
    yoruba = [FakeUser(n, f"Y{n}", "yo") for n in (31, 32)]
    async with running_bot(settings):
        for person in yoruba:
            api.send_text(person, "/start")
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        for person in yoruba:
            await room.tap(person, q1, 1)
        await room.say(ADA, "/stopquiz", "")
    async with running_bot(settings):
        board = await room.say(BO, "/leaderboard", "")
        assert "Last quiz" not in board.text  # Yoruba now, though Bo reads English
        await room.say(ADA, "/language en", "This group's language is now English")
        board = await room.say(TUNDE, "/leaderboard", "Last quiz")
