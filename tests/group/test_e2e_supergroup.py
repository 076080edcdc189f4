"""A class's basic group becomes a supergroup (it grew past 200 members): Telegram gives it a
new id, refuses the old one (`ChatMigrated`) and says so with a service message in each chat.
The real Application against the stand-in, which does all three as Telegram does; the class's
homework, schedule, settings and scores follow it, across a restart."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from telegram.error import ChatMigrated

from bot.config import Settings
from bot.sandbox import FakeBotApi
from tests.support.db import rows_of_chat, whole_database
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, Room, room_settings

OLD_ID, NEW_ID = -4242, -1004242  # a basic group's id, and its supergroup's


@dataclass
class Clock:
    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def _settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """Ada is the group's admin and one of the bot's (for /schedule)."""
    return room_settings(api, tmp_path, group_min_seconds=1, admin_ids=(ADA.id,))


def _class(api: FakeBotApi) -> Room:
    group = api.group(OLD_ID, "Form 3", admins={ADA.id}, type="group")
    group.members = {BO.id, CY.id}
    return Room(api, group)


def _worked_in(api: FakeBotApi, chat_id: int, since: int) -> list[str]:
    """The calls naming `chat_id` that Telegram carried out, from call number `since` on."""
    return [
        call.method
        for call in api.calls[since:]
        if call.ok and str(call.params.get("chat_id")) == str(chat_id)
    ]


async def test_a_class_follows_its_group_into_the_supergroup(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = _settings(api, tmp_path)
    room, ada, clock = _class(api), Learner(api, ADA), Clock()
    async with running_bot(settings, clock):
        await room.say(ADA, "/timezone Africa/Lagos", "time zone is now Africa/Lagos")
        await room.say(ADA, "/assign tiny 2h", "Homework #1")
        await ada.send(f"/schedule tiny {OLD_ID} 07:30", "Every day at 07:30 UTC")
        seen = len(room.messages())
        api.send_text(ADA, "/groupquiz tiny 60", room.chat)
        q1 = await api.wait_for_bot_message(OLD_ID, "Question 1 of 3", after=seen)
        assert (await room.tap(BO, q1, 1)).startswith("✅")  # Bo scores; the quiz runs on

        upgraded_at = len(api.calls)
        supergroup = Room(api, api.upgrade(room.chat, NEW_ID, ADA))
        # the quiz that ran in the old group ends; the supergroup is told, with its results
        await api.wait_for_bot_message(NEW_ID, "became a supergroup")
        final = await api.wait_for_bot_message(NEW_ID, "final results")
        assert "Bo" in final.text
        listed = await supergroup.say(BO, "/assignments", "Open homework")
        assert "#1" in listed.text and "(Africa/Lagos)" in listed.text
        board = await supergroup.say(CY, "/leaderboard", "All-time in this chat")
        assert "Bo" in board.text
        # the group quiz starts again in the supergroup (none runs there)
        await supergroup.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        await supergroup.say(ADA, "/stopquiz", "The quiz was stopped")
    assert _worked_in(api, OLD_ID, upgraded_at) == []
    assert set(rows_of_chat(settings.db_path, OLD_ID).values()) == {0}
    assert rows_of_chat(settings.db_path, NEW_ID)["assignments"] == 1

    # restarted past the deadline: the homework closes in the supergroup, and the schedule's
    # job, armed again at start, posts there
    clock.offset += 7200 + 60
    seen = len(supergroup.messages())
    async with running_bot(settings, clock) as application:
        await api.wait_for_bot_message(NEW_ID, "Homework #1: Tiny <quiz> & co: results", after=seen)
        assert application.job_queue is not None
        [job] = application.job_queue.get_jobs_by_name("push-schedule-1")
        await job.run(application)  # what the clock would do at 07:30
        await api.wait_for_bot_message(NEW_ID, "question 1 of 3", after=seen)
    assert _worked_in(api, OLD_ID, upgraded_at) == []


async def test_a_send_racing_the_upgrade_lands_in_the_supergroup(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = _settings(api, tmp_path)
    room, ada = _class(api), Learner(api, ADA)
    async with running_bot(settings) as application:
        await room.say(ADA, "/assign tiny 2h", "Homework #1")
        await ada.send(f"/schedule tiny {OLD_ID} 07:30", "Every day at 07:30 UTC")
        # upgraded, and Telegram's news of it not here yet: the schedule's post is refused
        # in the old group, and made again in the supergroup
        supergroup = Room(api, api.upgrade(room.chat, NEW_ID, ADA, notices=()))
        assert application.job_queue is not None
        [job] = application.job_queue.get_jobs_by_name("push-schedule-1")
        await job.run(application)
        await api.wait_for_bot_message(NEW_ID, "question 1 of 3")
        refused = [c for c in api.calls if c.params.get("chat_id") == OLD_ID and not c.ok]
        assert len(refused) == 1  # the first call (the push asks what the chat is), once
        assert "upgraded to a supergroup" in refused[0].description
        assert set(rows_of_chat(settings.db_path, OLD_ID).values()) == {0}
        listed = await supergroup.say(BO, "/assignments", "Open homework")
        assert "#1" in listed.text

        # the news comes late, both notices, the new chat's first: nothing more moves, and
        # nothing is said. A command of the old group handled after the upgrade (sent before
        # it) is answered in the supergroup.
        kept = whole_database(settings.db_path)
        seen = len(supergroup.messages())
        api.upgrade_notice(room.chat, ADA, "from")
        api.upgrade_notice(room.chat, ADA, "to")
        api.send_text(CY, "/help", room.chat)
        await api.wait_for(lambda: supergroup.messages()[seen:])
        await supergroup.say(BO, "/assignments", "Open homework")
        assert not any("supergroup" in m.text for m in supergroup.messages())
    assert whole_database(settings.db_path) == kept


async def test_only_a_call_that_sends_is_made_again_in_the_supergroup(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = _settings(api, tmp_path)
    room = _class(api)
    async with running_bot(settings) as application:
        await room.say(ADA, "/timezone Africa/Lagos", "time zone is now Africa/Lagos")
        shown = await room.say(ADA, "/assign tiny 2h", "Homework #1")
        api.upgrade(room.chat, NEW_ID, ADA, notices=())
        bot = application.bot
        # an edit of the old group's message: that message is out of reach, and the new chat's
        # message of the same number is another one; the chat moves all the same
        try:
            await bot.edit_message_text("edited", chat_id=OLD_ID, message_id=shown.message_id)
        except ChatMigrated as error:
            assert error.new_chat_id == NEW_ID
        else:
            raise AssertionError("an edit of the old group's message went through")
        assert not [c for c in api.calls if c.params.get("chat_id") == NEW_ID]
        assert set(rows_of_chat(settings.db_path, OLD_ID).values()) == {0}
        # a send, with a reply to the old group's message: made once more, without the reply
        sent = await bot.send_message(OLD_ID, "hello", reply_to_message_id=shown.message_id)
        assert sent.chat.id == NEW_ID
        assert [m.text for m in api.bot_messages(NEW_ID)] == ["hello"]
        refused = [c.method for c in api.calls if c.params.get("chat_id") == OLD_ID and not c.ok]
        assert refused == ["editMessageText", "sendMessage"]
