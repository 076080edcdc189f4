"""/collect, end to end: quiz polls an admin creates with the bot's button (or forwards,
closed) become questions; /done stores them as /addquestion does; /cancel leaves nothing; a
restart drops an open collection and says so."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import parse_bank
from content.markup import Plain, flatten, segments
from tests.support.admin import failed_calls, seed_banks
from tests.support.harness import SEED, make_settings, running_bot
from tests.support.learner import Learner

ADMIN = FakeUser(990, "Ade", "en")
AUTHOR = FakeUser(991, "Author", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


def rows(db_path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql).fetchall()


async def send_poll(api: FakeBotApi, expect: str, *args: object, **kwargs: object) -> Message:
    seen = len(api.bot_messages(ADMIN.id))
    api.send_poll(ADMIN, *args, **kwargs)  # type: ignore[arg-type]
    return await api.wait_for_bot_message(ADMIN.id, expect, after=seen)


async def start_collecting(admin: Learner) -> Message:
    started = await admin.send(f"/collect {SEED}", "Collecting questions")
    return started


async def test_created_and_closed_forwarded_quiz_polls_become_questions(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await start_collecting(admin)
    (row,) = api.keyboards[ADMIN.id]["keyboard"]
    assert row[0]["request_poll"] == {"type": "quiz"} and row[0]["text"] == "Create a quiz question"
    line = await send_poll(
        api, "1.", "Which stage idles first?", ["The first", "The last"], correct=[1],
        explanation="It waits for activations.",
    )  # fmt: skip
    assert line.text == "✅ 1. Which stage idles first? (right: B)"
    line = await send_poll(
        api, "2.", "Is a `bubble` idle time?", ["yes", "no"], correct=[0],
        forwarded_from=AUTHOR, closed=True,
    )  # fmt: skip
    assert "(right: A)" in line.text
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, "/done")
    summary = await api.wait_for_bot_message(ADMIN.id, "2 questions added", after=seen)
    await api.wait_until_polled()
    assert "now 10" in summary.text and "mpp-9" in summary.text and "mpp-10" in summary.text
    preview = "\n".join(m.text for m in api.bot_messages(ADMIN.id)[seen:])
    assert "Which stage idles first?" in preview and "It waits for activations." in preview
    assert "bubble" in preview
    assert ADMIN.id not in api.keyboards  # the button is taken away
    ((quiz_id, stored),) = rows(db_path, "SELECT quiz_id, yaml FROM content_banks")
    quiz = parse_bank(str(stored).encode(), "stored", "en").quiz
    assert quiz_id == SEED and quiz is not None
    added = quiz.question("mpp-10")
    assert added is not None  # a backtick in a poll is a backtick, not code
    assert flatten(added.text.get("en", "en")) == "Is a `bubble` idle time?"
    assert segments(added.text.get("en", "en")) == (Plain("Is a `bubble` idle time?"),)
    (audit,) = rows(db_path, "SELECT action, detail FROM audit_log")
    assert audit[0] == "collect" and json.loads(str(audit[1])) == {"questions": ["mpp-9", "mpp-10"]}
    learner = Learner(api, FakeUser(992, "Bo", "en"))
    await learner.send(f"/quiz {SEED}", "Question 1 of 10")
    assert failed_calls(api) == []


async def test_open_forwarded_and_regular_polls_are_refused_several_answers_make_a_multiple(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await start_collecting(admin)
    await send_poll(
        api, "Close the poll first, or create it here with the button",
        "Open?", ["a", "b"], correct=[0], forwarded_from=AUTHOR,
    )  # fmt: skip
    await send_poll(
        api, "a regular poll has no right answer", "Tea?", ["yes", "no"], kind="regular",
        forwarded_from=AUTHOR,
    )  # fmt: skip
    taken = await send_poll(api, "1.", "Both?", ["a", "b", "c"], correct=[0, 2], explanation="Two.")
    assert "Both?" in taken.text
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, "/done")
    await api.wait_for_bot_message(ADMIN.id, "1 question", after=seen)
    ((stored,),) = rows(db_path, "SELECT yaml FROM content_banks")
    quiz = parse_bank(str(stored).encode(), "stored", "en").quiz
    assert quiz is not None
    added = quiz.question("mpp-9")
    assert added is not None and added.type == "multiple"


async def test_cancel_leaves_nothing_and_takes_the_button_away(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await start_collecting(admin)
    await send_poll(api, "1.", "Kept?", ["yes", "no"], correct=[1])
    await admin.send("/cancel", "Nothing was saved")
    assert ADMIN.id not in api.keyboards
    await admin.send("/done", "No collection is open")
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM audit_log") == [(0,)]


async def test_a_restart_drops_an_open_collection_and_says_so(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        await start_collecting(admin)
        await send_poll(api, "1.", "Lost?", ["yes", "no"], correct=[0])
    async with running_bot(settings):
        # the button is still under the input field: the next poll hears what happened
        await send_poll(
            api, "No collection is open (a restart drops one)", "Again?", ["a", "b"], correct=[0]
        )
        await admin.send("/done", "No collection is open")
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(0,)]


async def test_only_admins_collect_and_a_learners_poll_changes_nothing(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(993, "Bo", "en"))
    await learner.send(f"/collect {SEED}", "admin")
    await learner.send("/done", "admin")
    assert learner.chat_id not in api.keyboards
    seen = len(api.bot_messages(learner.chat_id))
    api.send_poll(
        learner.user, "Mine?", ["a", "b"], correct=[0], forwarded_from=AUTHOR, closed=True
    )
    await api.wait_until_polled()
    assert api.bot_messages(learner.chat_id)[seen:] == []


async def test_collect_needs_a_known_quiz(api: FakeBotApi, bot: QuizApplication) -> None:
    admin = Learner(api, ADMIN)
    reply = await admin.send("/collect", "/collect <quiz id>")
    assert ADMIN.id not in api.keyboards and reply.reply_markup is None
    await admin.send("/collect nosuch", "no quiz called")
