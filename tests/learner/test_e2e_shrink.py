"""The catalog is the one source of truth after an admin change: a bank that shrinks under a
learner's running attempt, and languages that come and go with imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.admin import SMALL_BANK, seed_banks, small_bank_started, upload
from tests.support.harness import make_settings
from tests.support.learner import Learner

ADMIN = FakeUser(980, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


# small things: the catalog is the one source of truth after an admin change


async def test_quizzes_and_quiz_agree_after_a_bank_shrinks_under_a_running_attempt(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    admin = Learner(api, ADMIN)
    ada, question = await small_bank_started(api, ADMIN, 963)
    _, question = await ada.choose(question, "Three", "Question 2 of 3")  # s1 wrong
    await admin.send("/delquestion small-bank s2", "is retired")
    listing = await ada.send("/quizzes", "Small bank")
    assert "2 questions" in listing.text
    assert "in progress: 1/2" in listing.text, listing.text
    assert any(b["text"].endswith("(1/2)") for b in listing.buttons), listing.buttons
    question = await ada.send("/quiz small-bank", "Legs of a spider?")
    assert "Question 2 of 2" in question.text
    assert "question 2 of 2" in ada.messages()[-2].text  # "Welcome back: ..."
    _, summary = await ada.choose(question, "Eight", "finished")  # s3 right
    assert "Score: 1/2 (50%)" in summary.text
    listing = await ada.send("/quizzes", "Small bank")
    assert "best 1/2" in listing.text and "in progress" not in listing.text


async def test_an_attempt_whose_remaining_questions_were_retired_finishes_and_can_restart(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    ada, question = await small_bank_started(api, ADMIN, 964)
    _, question = await ada.choose(question, "Three", "Question 2 of 3")  # s1 wrong
    await ada.choose(question, "Blue", "Question 3 of 3")  # s2 right
    smaller = SMALL_BANK.split("  - id: s3")[0]  # a new version of the bank without s3
    await upload(api, ADMIN, smaller, "retired 1", "small-v2.yaml")
    listing = await ada.send("/quizzes", "Small bank")
    assert "2 questions" in listing.text and "2/2" in listing.text, listing.text
    summary = await ada.send("/quiz small-bank", "finished")
    assert "Score: 1/2 (50%)" in summary.text
    listing = await ada.send("/quizzes", "Small bank")
    assert "best 1/2" in listing.text and "in progress" not in listing.text, listing.text
    seen = len(ada.messages())
    await ada.tap(summary, data_of(summary, "Take it again"))
    await api.wait_for_bot_message(ada.chat_id, "Question 1 of 2", after=seen)


def data_of(message: Message, label: str) -> str:
    """The callback data of the button whose label contains `label`."""
    for button in message.buttons:
        if label in button["text"]:
            return str(button["callback_data"])
    raise AssertionError(f"no button {label!r} in {[b['text'] for b in message.buttons]}")


async def test_the_language_menu_follows_the_catalog_after_imports(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    french = SMALL_BANK.replace('"One plus one?"', '{en: "One plus one?", fr: "Un plus un ?"}')
    await upload(api, ADMIN, french, "imported", "small-fr.yaml")
    bo = Learner(api, FakeUser(965, "Bo", "en"))
    menu = await bo.send("/language", "Choose your language")
    french_button = data_of(menu, "fr")
    await upload(api, ADMIN, SMALL_BANK, "imported", "small.yaml")  # French is gone again
    toast = await bo.tap(menu, french_button)
    assert toast["text"] == "This button is no longer active."
    menu = await bo.send("/language", "Choose your language")
    assert [b["text"] for b in menu.buttons if "fr" in b["text"]] == []
