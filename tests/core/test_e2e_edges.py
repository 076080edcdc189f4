"""Content that fights HTML and Telegram's limits, bad updates, and people who left."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.db import rows
from tests.support.harness import bank_folder, bank_settings, make_settings, running_bot
from tests.support.learner import Learner, button_for

RIGHT_FIRST = "A model too large to fit in one GPU's memory"

LONG_OPTION = "An option whose wording goes on and on " * 4
TRICKY_BANK = f"""
id: tricky
title: "Tags <b>are</b> text & so are ampersands"
level: easy
shuffle_options: false
questions:
  - id: t1
    text: "Is 1 < 2 && 3 > 2 in <code>C</code>?"
    options: ["Yes, <always>", "No & never", "{LONG_OPTION.strip()}"]
    answer: 0
    explanation: "Both comparisons hold, so a && b is true. <script>alert(1)</script>"
"""


def _settings_with_bank(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(api, tmp_path, {"tricky": TRICKY_BANK})


async def test_content_with_html_characters_is_shown_verbatim(
    api: FakeBotApi, tmp_path: Path
) -> None:
    learner = Learner(api, FakeUser(3001, "Ife", "en"))
    async with running_bot(_settings_with_bank(api, tmp_path)):
        question = await learner.send("/quiz tricky", "Question 1 of 1")
        assert "Tags <b>are</b> text & so are ampersands" in question.text
        assert "Is 1 < 2 && 3 > 2 in <code>C</code>?" in question.text
        assert "&lt;b&gt;" in question.html
        labels = [button["text"] for button in question.buttons]
        assert labels[0] == "A. Yes, <always>"
        assert len(labels[2]) <= 52 and labels[2].endswith("…")
        assert LONG_OPTION.strip() in question.text
        await learner.choose(question, 0, "Score: 1/1")
        reveal = api.messages[(learner.chat_id, question.message_id)]
        assert "<script>alert(1)</script>" in reveal.text
        assert not any(call.ok is False for call in api.calls), api.describe()


async def test_blocked_learner_is_marked_inactive(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    learner = Learner(api, FakeUser(3002, "Jide", "en"))
    async with running_bot(settings):
        await learner.send("/start", "Hello, \u2068Jide")
        api.block(learner.user)
        api.send_text(learner.user, "/quizzes")
        await api.wait_for(lambda: any(c.description.startswith("Forbidden") for c in api.calls))
        await api.wait_until_polled()

        def inactive() -> bool:
            with sqlite3.connect(db_path) as db:
                row = db.execute("SELECT active FROM users WHERE user_id=3002").fetchone()
            return row == (0,)

        await api.wait_for(inactive)


async def test_updates_without_a_person_are_ignored_quietly(
    api: FakeBotApi, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(3003, "Kola", "en"))
    channel = api.group(-1003, "news", admins=set(), type="channel")
    async with running_bot(settings):
        api.push_update(
            {"channel_post": {"message_id": 1, "date": 0, "chat": channel.to_dict(), "text": "/quiz x",
                              "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
        )  # fmt: skip
        api.push_update(
            {"edited_message": {"message_id": 9, "date": 0, "edit_date": 1,
                                "chat": {"id": 3003, "type": "private", "first_name": "Kola"},
                                "from": learner.user.to_dict(), "text": "/quizzes",
                                "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}}
        )  # fmt: skip
        # a later, ordinary message is answered: the odd updates before it were handled
        await learner.send("/help", "/progress")
        assert api.bot_messages(channel.id) == []
        assert [m.text for m in learner.messages() if "Quizzes" in m.text] == []


async def test_read_only_database_gets_a_polite_answer_and_records_nothing(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    from bot.core.context import SERVICES_KEY

    learner = Learner(api, FakeUser(3004, "Lade", "en"))
    async with running_bot(settings) as application:
        question = await learner.send("/quiz model-pipeline-parallelism", "Question 1 of 8")
        # as if the file had turned read-only under the running bot: every write now fails
        db = application.bot_data[SERVICES_KEY].storage.database.connection
        await db.execute("PRAGMA query_only=ON")
        sent = len(learner.messages())
        toast = await learner.tap(question, button_for(question, RIGHT_FIRST))
        assert toast == {
            "text": "Sorry, I could not save that just now. Please try again in a moment.",
            "show_alert": True,
        }
        assert len(learner.messages()) == sent
        assert api.messages[(learner.chat_id, question.message_id)].edits == 0

        await db.execute("PRAGMA query_only=OFF")
        toast, _ = await learner.choose(question, RIGHT_FIRST, "Question 2 of 8")
        assert toast["text"] == "✅ Correct!"
    assert rows(db_path, "SELECT COUNT(*) FROM answers") == [(1,)]


async def test_a_failed_acknowledgement_does_not_stop_the_quiz(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(3005, "Niyi", "en"))
    question = await learner.send("/quiz model-pipeline-parallelism", "Question 1 of 8")
    api.fail("answerCallbackQuery", 400, "Bad Request: query is too old")
    api.fail("editMessageText", 502, "Bad Gateway")
    seen = len(learner.messages())
    api.tap(learner.user, question, question.button_data()[0])
    following = await api.wait_for_bot_message(learner.chat_id, "Question 2 of 8", after=seen)
    assert following.button_data()


RETIRING_BANK = """
id: shrinking
title: Shrinking
level: easy
questions:
  - {id: s1, text: "One?", options: ["yes", "no"], answer: 0}
  - {id: s2, text: "Two?", options: ["yes", "no"], answer: 0}
  - {id: s3, text: "Three?", options: ["yes", "no"], answer: 0}
"""


async def test_a_question_retired_mid_attempt_is_skipped(api: FakeBotApi, tmp_path: Path) -> None:
    banks = bank_folder(tmp_path, shrinking=RETIRING_BANK)
    bank = banks / "shrinking.yaml"
    settings = make_settings(api, tmp_path / "quiz.sqlite3", content_dir=banks)
    learner = Learner(api, FakeUser(3006, "Ola", "en"))
    async with running_bot(settings):
        question = await learner.send("/quiz shrinking", "Question 1 of 3")
        await learner.choose(question, "yes", "Question 2 of 3")
    bank.write_text("\n".join(line for line in RETIRING_BANK.splitlines() if "s2" not in line))
    async with running_bot(settings):
        question = await learner.send("/quiz shrinking", "Three?")
        assert "Question 2 of 2" in question.text  # as the quiz is now, like its summary
        _, summary = await learner.choose(question, "no", "Score: 1/2")
        assert "Three?" in summary.text
