"""Who gets a `users` row: only people who wrote to the bot in a private chat. In a group or
a channel a person is only read (their chosen language if they have a row, else their
Telegram's), never created or refreshed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, Room, group_answers

FOLA = FakeUser(41, "Fola", "yo")  # never opened the bot; Telegram in Yoruba
KEMI = FakeUser(42, "Kemi", "en")  # uses the bot in private, chose Yoruba there


def users(db_path: Path) -> dict[int, tuple[str, str | None, str | None]]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT user_id, first_name, telegram_language, language FROM users")
        return {row[0]: row[1:] for row in rows}


async def test_group_members_are_read_never_recorded(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    db_path = settings.db_path
    kemi = Learner(api, KEMI)

    async with running_bot(settings):
        await kemi.send("/start", "Hello")
        menu = await kemi.send("/language", "Choose your language")
        await kemi.tap(menu, next(d for d in menu.button_data() if d.endswith(":yo")))
        await api.wait_for(lambda: users(db_path).get(KEMI.id, (None,) * 3)[2] == "yo")
        recorded = users(db_path)
        assert set(recorded) == {KEMI.id}

        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        assert (
            await room.tap(FOLA, q1, 0)
            == "❌ Kò tọ̀nà. Ìdáhùn yín dúró; ìfihàn yóò fi èyí tó tọ̀nà hàn."
        )
        assert (await room.tap(KEMI, q1, 1)).startswith("✅ Ó tọ̀nà!")  # her chosen language
        # a command: read, not recorded; answered in the group's language, not Fola's own
        await room.say(FOLA, "/help", "teaches through quizzes")
        await room.say(ADA, "/stopquiz", "final results")

        poll = await room.poll_quiz(ADA, "tiny")
        api.vote(FOLA, poll, 1)
        await api.wait_for(lambda: len(group_answers(db_path)) == 3)
        await room.say(ADA, "/stopquiz", "final results")

    assert users(db_path) == recorded  # nobody created, Kemi's row not touched by the group
