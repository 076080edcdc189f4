"""`/forgetme` end to end (issue 11, item 16): asked in private, confirmed with a button (or
cancelled), the learner's data deleted; their group points stay, shown as "(deleted)"."""

from __future__ import annotations

import json
from pathlib import Path

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.db import rows
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, GROUP_ID, Room
from tests.support.tutor import ShiftedClock

QUIZ_ID = "model-pipeline-parallelism"
KEMI = FakeUser(7302, "Kemi")
ASK = "This deletes everything Quiz Tutor stored about you"
DONE = "Your data is deleted"
KEPT = "Nothing was deleted."


def _traces(db_path: Path, user_id: int) -> dict[str, int]:
    found = {}
    for table in ("users", "attempts", "answers", "cards", "review_log", "group_answers"):
        (n,) = rows(db_path, f"SELECT COUNT(*) FROM {table} WHERE user_id=?", user_id)[0]
        if n:
            found[table] = n
    return found


async def _edited(api: FakeBotApi, learner: Learner, message: Message) -> Message:
    """The message once the bot has edited it."""
    key = (learner.chat_id, message.message_id)
    return await api.wait_for(lambda: api.messages[key] if api.messages[key].edits else None)


def _button(message: Message, label: str) -> str:
    (data,) = [b["callback_data"] for b in message.buttons if b["text"] == label]
    return str(data)


async def _group_quiz_with(api: FakeBotApi, room: Room, people: list[FakeUser]) -> str:
    """A group quiz in which each of `people` answers the first question; the final board."""
    q1 = await room.say(ADA, f"/groupquiz {QUIZ_ID} 60", "Question 1 of 8")
    for person in people:
        assert (await room.tap(person, q1, 0)) != ""
    seen = len(room.messages())
    api.send_text(ADA, "/stopquiz", room.chat)
    final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
    return final.text


async def test_forgetme_asks_cancels_then_deletes_and_the_group_board_keeps_the_points(
    api: FakeBotApi, settings: Settings, db_path: Path, room: Room
) -> None:
    kemi = Learner(api, KEMI)
    async with running_bot(settings):
        question = await kemi.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
        await kemi.choose(question, 0, "Question 2 of 8")
        await kemi.send("/remind 07:30", "07:30")
        before = await _group_quiz_with(api, room, [KEMI, ADA])
        assert "Kemi" in before
        assert set(_traces(db_path, KEMI.id)) >= {"users", "attempts", "answers", "group_answers"}

        # asked, then cancelled: nothing changes
        ask = await kemi.send("/forgetme", ASK)
        assert [b["text"] for b in ask.buttons] == ["Delete my data", "Cancel"]
        traces = _traces(db_path, KEMI.id)
        toast = await kemi.tap(ask, _button(ask, "Cancel"))
        assert toast["text"] == KEPT
        shown = await _edited(api, kemi, ask)
        assert shown.text == KEPT and shown.reply_markup is None
        assert _traces(db_path, KEMI.id) == traces

        # asked again, confirmed: everything of hers is gone
        ask = await kemi.send("/forgetme", ASK)
        toast = await kemi.tap(ask, _button(ask, "Delete my data"))
        assert toast["text"].startswith(DONE)
        shown = await _edited(api, kemi, ask)
        assert shown.text.startswith(DONE) and shown.reply_markup is None
        assert _traces(db_path, KEMI.id) == {}
        assert rows(db_path, "SELECT COUNT(*) FROM users WHERE remind_at IS NOT NULL") == [(0,)]
        (detail,) = rows(db_path, "SELECT detail FROM audit_log WHERE action='forget_learner'")[0]
        assert str(KEMI.id) not in detail and "Kemi" not in detail
        assert json.loads(detail)["learners"] == 1

        # the group's board: her points stay, her name does not
        board = await room.say(ADA, "/leaderboard", "Last quiz")
        assert "Kemi" not in board.text
        assert "(deleted)" in board.text
        assert board.text.count("(deleted)") == 2  # in the last quiz and in the all-time board
        assert "Ada" in board.text

        progress = await kemi.send("/progress", "")
        assert "You have not answered any question yet" in progress.text


async def test_a_confirmation_expires_and_deletes_nothing(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    clock = ShiftedClock()
    kemi = Learner(api, KEMI)
    async with running_bot(settings, clock):
        await kemi.send("/remind 07:30", "07:30")
        ask = await kemi.send("/forgetme", ASK)
        clock.advance(11 * 60)
        toast = await kemi.tap(ask, _button(ask, "Delete my data"))
        assert toast["text"] == "This request has expired: send /forgetme again."
        assert (await _edited(api, kemi, ask)).reply_markup is None
        assert _traces(db_path, KEMI.id) == {"users": 1}


async def test_the_confirm_button_does_nothing_in_a_group(
    api: FakeBotApi, settings: Settings, db_path: Path, room: Room
) -> None:
    kemi = Learner(api, KEMI)
    async with running_bot(settings):
        await kemi.send("/remind 07:30", "07:30")
        await _group_quiz_with(api, room, [KEMI])
        traces = _traces(db_path, KEMI.id)
        ask = await kemi.send("/forgetme", ASK)
        data = _button(ask, "Delete my data")
        group_message = room.messages()[-1]
        query = api.tap(KEMI, group_message, data, forge=True)
        answer = await api.wait_for_answer(query)
        assert answer["text"] != DONE
        assert _traces(db_path, KEMI.id) == traces
        # and /forgetme itself belongs to the private chat
        reply = await room.say(KEMI, "/forgetme", "")
        assert ASK not in reply.text
        assert _traces(db_path, KEMI.id) == traces


def test_a_forgotten_learner_shows_as_deleted_in_every_language() -> None:
    from bot.core.i18n import Locale
    from bot.group.render import board_lines
    from storage.group_store import ScoreRow

    rows = [ScoreRow(-3, "", 900, 1, 1, 1.0), ScoreRow(7302, "Kemi", 500, 1, 1, 2.0)]
    english = board_lines(rows, Locale("en", "en"))
    assert "(deleted): <b>900</b>" in english and "Kemi\u2069: <b>500</b>" in english
    assert "(ti parẹ́)" in board_lines(rows, Locale("yo", "en"))
