"""Commands given no quiz answer with the quizzes as buttons (a screenful a page), then ask
what else they need with buttons of common choices: `/quiz`, `/groupquiz` (time and mode),
`/assign` (deadline, best, shuffle, as homework or as an exam; in private then the chat
picker), `/report` and `/export`
(the format), `/push` (the chat picker). In a group only the chat's admins may use the menu."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core.callbacks import MAX_BYTES
from bot.sandbox import FakeBotApi, Message
from tests.support.harness import bank_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BANK, BO, DI, GROUP_ID, Room

LONG_ID = "a" * 40  # the longest quiz id a bank may have


def _bank(quiz_id: str, title: str) -> str:
    return BANK.replace("id: tiny", f"id: {quiz_id}").replace('"Tiny <quiz> & co"', title)


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """Ten quizzes (two pages), one of them with the longest id; Ada is a bot admin."""
    quizzes = {f"quiz-{n:02d}": _bank(f"quiz-{n:02d}", f"Quiz {n:02d}") for n in range(1, 10)}
    banks = {"tiny": BANK, LONG_ID: _bank(LONG_ID, "Z longest"), **quizzes}
    return bank_settings(api, tmp_path, banks, admin_ids=frozenset({ADA.id}), group_min_seconds=1)


def _labels(message: Message) -> list[str]:
    return [b["text"] for b in message.buttons]


async def _redrawn(api: FakeBotApi, menu: Message, words: str) -> Message:
    """The menu's message once an edit made it say `words`."""
    key = (menu.chat.id, menu.message_id)
    return await api.wait_for(
        lambda: api.messages[key] if words in api.messages[key].text else None
    )


def _data(message: Message, label: str) -> str:
    return next(str(b["callback_data"]) for b in message.buttons if label in b["text"])


async def test_quiz_with_no_id_pages_through_the_quizzes_and_opens_the_one_tapped(
    api: FakeBotApi, settings: Settings
) -> None:
    bo = Learner(api, BO)
    async with running_bot(settings):
        menu = await bo.send("/quiz", "Which quiz?")
        assert "11 in all" in menu.text
        labels = _labels(menu)
        assert len(labels) == 8 + 2 and labels[-2:] == ["1/2", "▶️"]
        assert "Z longest · 3" in labels  # its data: the longest a quiz id makes
        assert all(len(d.encode()) <= MAX_BYTES for d in menu.button_data())
        await bo.tap(menu, _data(menu, "▶️"))
        turned = await api.wait_for(lambda: api.messages[(BO.id, menu.message_id)].edits or None)
        assert turned
        page = api.messages[(BO.id, menu.message_id)]
        assert _labels(page)[-2:] == ["◀️", "2/2"] and len(_labels(page)) == 3 + 2, _labels(page)
        seen = len(bo.messages())
        await bo.tap(page, _data(page, "Tiny"))
        question = await api.wait_for_bot_message(BO.id, "Question 1 of 3", after=seen)
        assert "Tiny" in question.text
        assert "✅ Tiny" in api.messages[(BO.id, menu.message_id)].text


async def test_groupquiz_menu_is_for_the_chats_admins_and_starts_with_the_time_tapped(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={BO.id}))
    async with running_bot(settings):
        await room.say(DI, "/groupquiz", "Only the chat's admins")
        menu = await room.say(BO, "/groupquiz", "Which quiz?")
        assert await room.tap(DI, menu, 0) == "Only the chat's admins can do that."
        await room.tap(BO, menu, _labels(menu).index("Quiz 01 · 3"))
        chosen = await api.wait_for(
            lambda: room.current(menu) if "how long" in room.current(menu).text else None
        )
        times = ("15 s", "30 s", "60 s")
        assert _labels(chosen) == [f"⏱ {t}" for t in times] + [f"📊 {t}, polls" for t in times]
        room.keyboards.pop(menu.message_id)  # the redrawn buttons, as a person sees them
        assert await room.tap(DI, chosen, 0) == "Only the chat's admins can do that."
        await room.tap(BO, chosen, 0)
        await api.wait_for_bot_message(GROUP_ID, "Two plus two?")
        assert "started: 15 s a question" in room.current(menu).text
    with sqlite3.connect(settings.db_path) as db:
        assert db.execute("SELECT quiz_id, seconds, mode FROM group_sessions").fetchall() == [
            ("quiz-01", 15, "buttons")
        ]


async def test_assign_menu_in_a_group_and_in_private(api: FakeBotApi, settings: Settings) -> None:
    room = Room(api, api.group(GROUP_ID, "Study group", admins={BO.id}))
    bo = Learner(api, BO)
    async with running_bot(settings):
        menu = await room.say(BO, "/assign", "Which quiz?")
        await room.tap(BO, menu, _labels(menu).index("Quiz 01 · 3"))
        setup = await api.wait_for(
            lambda: room.current(menu) if "until when" in room.current(menu).text else None
        )
        assert _labels(setup) == [
            "⬜ Best attempt counts", "⬜ Shuffle questions", "📅 1 day", "📅 3 days", "📅 1 week",
        ]  # fmt: skip
        room.keyboards.pop(menu.message_id)
        await room.tap(BO, setup, 0)  # best: on
        toggled = await api.wait_for(
            lambda: room.current(menu) if "☑️" in str(room.current(menu).buttons) else None
        )
        assert _labels(toggled)[:2] == ["☑️ Best attempt counts", "⬜ Shuffle questions"]
        room.keyboards.pop(menu.message_id)  # the redrawn buttons, as a person sees them
        await room.tap(BO, toggled, 3)  # 3 days
        how = await _redrawn(api, menu, "as homework, or as an exam?")
        assert _labels(how) == ["📝 As homework", "⏱ As an exam (3 min)"]
        room.keyboards.pop(menu.message_id)
        await room.tap(BO, how, 0)
        post = await api.wait_for_bot_message(GROUP_ID, "Homework #1")
        assert "best attempt" in post.text

        # in private: the quiz, the deadline, then the group with the chat picker
        menu = await bo.send("/assign", "Which quiz?")
        await bo.tap(menu, _data(menu, "Quiz 02"))
        setup = await _redrawn(api, menu, "until when")
        await bo.tap(setup, _data(setup, "1 week"))
        how = await _redrawn(api, menu, "as homework, or as an exam?")
        await bo.tap(how, _data(how, "As homework"))
        await api.wait_for_bot_message(BO.id, "Which group gets the homework")
        api.share_chat(BO, room.chat)
        await api.wait_for_bot_message(BO.id, "Homework #2")
    with sqlite3.connect(settings.db_path) as db:
        rows = db.execute("SELECT counts, CAST(deadline - created_at AS INT) FROM assignments")
        assert [(c, round(s / 3600)) for c, s in rows] == [("best", 72), ("first", 168)]


async def test_admin_menus_ask_for_the_format_or_the_chat(
    api: FakeBotApi, settings: Settings
) -> None:
    ada, bo = Learner(api, ADA), Learner(api, BO)
    room = Room(api, api.group(GROUP_ID, "Study group", admins={ADA.id}))
    async with running_bot(settings):
        menu = await ada.send("/export", "Which quiz?")
        await ada.tap(menu, _data(menu, "Quiz 03"))
        forms = await _redrawn(api, menu, "which format")
        assert {"yaml", "gift", "xlsx"} <= set(_labels(forms))
        seen = len(ada.messages())
        await ada.tap(forms, _data(forms, "gift"))
        await api.wait_for(lambda: next((m for m in ada.messages()[seen:] if m.document), None))

        menu = await ada.send("/report", "Which quiz?")
        await ada.tap(menu, _data(menu, "Quiz 03"))
        forms = await _redrawn(api, menu, "which format")
        assert _labels(forms) == ["CSV", "XLSX"]
        await ada.tap(forms, _data(forms, "CSV"))
        await api.wait_for_bot_message(ADA.id, "Nobody has finished")

        menu = await ada.send("/push", "Which quiz?")
        push_choice = _data(menu, "Quiz 03")
        await ada.tap(menu, push_choice)
        await api.wait_for_bot_message(ADA.id, "Where should the next question")
        api.share_chat(ADA, room.chat, "👥 Pick a group")
        await api.wait_for_bot_message(GROUP_ID, "Two plus two?")

        # Bo is no bot admin: a menu button of theirs, forged in his own chat, does nothing
        await bo.send("/start", "")
        forged = await bo.send("/quiz", "Which quiz?")
        toast = await bo.tap(forged, push_choice, forge=True)
        assert "bot's admins" in toast["text"]
