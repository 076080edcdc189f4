"""`/assign`'s buttons set an exam as homework: after the deadline, "As homework" or "As an
exam (N min)" (N the bank's minutes, else a minute a question, as the typed form), the exam
first for a bank that declares one, which attempt counts said as the typed form counts it. The
menu's exam is the typed command's, field for field, in a group and through the chat picker."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.core.callbacks import MAX_BYTES, AssignAs
from bot.sandbox import FakeBotApi, Message
from tests.support.exams import EXAM_BANK
from tests.support.harness import bank_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BANK, BO, DI, GROUP_ID, Room

# the exam bank with two attempts, where the best counts
TWO_TRIES = (
    EXAM_BANK.replace("id: mini-exam", "id: two-tries")
    .replace("Mini exam", "Two tries")
    .replace("  minutes: 5\n", "  minutes: 5\n  attempts: 2\n")
)
# what an assignment is, but for its number, its post and when it was set
FIELDS = (
    "chat_id, thread_id, quiz_id, language, timezone, created_by, counts, shuffled, exam, "
    "exam_minutes, CAST(ROUND((deadline - created_at) / 60.0) AS INT)"
)


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    banks = {"tiny": BANK, "mini": EXAM_BANK, "two": TWO_TRIES}
    return bank_settings(api, tmp_path, banks)


def _assignment(db_path: Path, number: int) -> tuple[Any, ...]:
    with sqlite3.connect(db_path) as db:
        row: tuple[Any, ...] = db.execute(
            f"SELECT {FIELDS} FROM assignments WHERE id = ?", (number,)
        ).fetchone()
    return row


def _labels(message: Message) -> list[str]:
    return [str(b["text"]) for b in message.buttons]


def _data(message: Message, label: str) -> str:
    return next(str(b["callback_data"]) for b in message.buttons if label in b["text"])


async def _tap(api: FakeBotApi, user: Any, message: Message, label: str) -> str:
    """`user` taps the button of `message` (as it is now) labelled with `label`; the toast."""
    shown = api.messages[(message.chat.id, message.message_id)]
    query = api.tap(user, shown, _data(shown, label), forge=True)
    answer = await api.wait_for_answer(query)
    return str(answer["text"] or "")


async def _step(api: FakeBotApi, menu: Message, words: str) -> Message:
    """The menu's message once an edit made it say `words`."""
    key = (menu.chat.id, menu.message_id)
    return await api.wait_for(
        lambda: api.messages[key] if words in api.messages[key].text else None
    )


async def _how(
    api: FakeBotApi, user: Any, menu: Message, quiz: str, deadline: str, *toggles: str
) -> Message:
    """`user` walks `/assign`'s menu: the quiz, the toggles, the deadline; the next step."""
    await _tap(api, user, menu, quiz)
    await _step(api, menu, "until when")
    key = (menu.chat.id, menu.message_id)
    for toggle in toggles:
        await _tap(api, user, menu, toggle)
        on = f"☑️ {toggle}"
        await api.wait_for(lambda on=on: on in _labels(api.messages[key]) or None)
    await _tap(api, user, menu, deadline)
    return await _step(api, menu, "as homework, or as an exam?")


async def test_the_menu_sets_in_a_group_the_exam_the_typed_command_sets(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={ADA.id}))
    other = Room(api, api.group(GROUP_ID - 1, "Other group", admins={ADA.id}))
    async with running_bot(settings):
        await room.say(ADA, "/assign mini-exam 3d exam", "Homework #1")
        menu = await room.say(ADA, "/assign", "Which quiz?")
        how = await _how(api, ADA, menu, "Mini exam", "3 days")
        # the bank declares an exam: it comes first, in the bank's minutes; one attempt
        assert _labels(how) == ["⏱ As an exam (5 min)", "📝 As homework"]
        assert "4 questions, ⏱ 5 min" in how.text and "one attempt each" in how.text
        assert all(len(data.encode()) <= MAX_BYTES for data in how.button_data())
        # only the chat's admins may set it; the button replayed in a group the tapper does
        # not run is refused there too
        assert await _tap(api, DI, how, "As an exam") == "Only the chat's admins can do that."
        elsewhere = await other.say(ADA, "/assignments", "No homework")
        forged = api.tap(DI, elsewhere, _data(how, "As an exam"), forge=True)
        assert (await api.wait_for_answer(forged))["text"] == "Only the chat's admins can do that."
        # a deadline or a choice no menu draws: refused, nothing set
        for forged in (AssignAs("mini-exam", 5, 0, 0, 1), AssignAs("mini-exam", 72, 0, 0, 2)):
            query = api.tap(ADA, how, forged.encode(), forge=True)
            assert (await api.wait_for_answer(query))["text"] == "This button is no longer active."
        await _tap(api, ADA, how, "As an exam")
        post = await api.wait_for_bot_message(GROUP_ID, "Homework #2")
        assert "an exam of 4 questions, ⏱ 5:00" in post.text
        assert "✅ Mini exam" in room.current(menu).text
        # a bank with no exam block: homework first, the exam a minute a question
        menu = await room.say(ADA, "/assign", "Which quiz?")
        how = await _how(api, ADA, menu, "Tiny", "1 day")
        assert _labels(how) == ["📝 As homework", "⏱ As an exam (3 min)"]
        await _tap(api, ADA, how, "As homework")
        plain = await api.wait_for_bot_message(GROUP_ID, "Homework #3")
        assert "an exam" not in plain.text
    assert _assignment(settings.db_path, 2) == _assignment(settings.db_path, 1)
    assert _assignment(settings.db_path, 2)[6:10] == ("first", 0, 1, None)
    assert _assignment(settings.db_path, 3)[6:] == ("first", 0, 0, None, 24 * 60)


async def test_the_menu_sets_through_the_chat_picker_the_exam_the_typed_command_sets(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={BO.id}))
    bo = Learner(api, BO)
    async with running_bot(settings):
        await bo.send("/help", "/quiz")
        api.add_bot(room.chat, BO)  # the bot learns its admins: Bo teaches there
        await api.wait_for(lambda: "assign" in api.menu(BO) or None)
        await bo.send("/assign two-tries 7d exam best", "Which group gets the homework")
        api.share_chat(BO, room.chat)
        await api.wait_for_bot_message(BO.id, "Homework #1")
        menu = await bo.send("/assign", "Which quiz?")
        how = await _how(api, BO, menu, "Two tries", "1 week", "Best attempt counts")
        assert _labels(how)[0] == "⏱ As an exam (5 min)"
        assert "the best of 2 attempts counts" in how.text
        seen = len(bo.messages())
        await _tap(api, BO, how, "As an exam")
        await api.wait_for_bot_message(BO.id, "Which group gets the homework", after=seen)
        api.share_chat(BO, room.chat)
        await api.wait_for_bot_message(BO.id, "Homework #2")
    assert _assignment(settings.db_path, 2) == _assignment(settings.db_path, 1)
    assert _assignment(settings.db_path, 2)[6:] == ("best", 0, 1, None, 7 * 24 * 60)


def test_the_longest_exam_button_fits_telegram() -> None:
    assert len(AssignAs("a" * 40, 168, 1, 1, 1).encode().encode()) <= MAX_BYTES
