"""The learner's quiz end to end: real Application, real HTTP, real SQLite, the stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.sandbox import FakeBotApi, FakeUser
from content.loader import load_bank_file
from content.model import Quiz
from tests.support.learner import Learner, button_for, place_of, right, text

QUIZ_ID = "model-pipeline-parallelism"


@pytest.fixture(scope="module")
def seed() -> Quiz:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    return quiz


async def test_whole_seed_quiz_in_english(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz
) -> None:
    learner = Learner(api, FakeUser(1001, "Ada", "en"))
    question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    wrong_on = {2, 5}  # 0-based positions answered wrong
    for position, item in enumerate(seed.questions):
        assert f"Question {position + 1} of 8" in question.text
        assert item.text.get("en", "en") in question.text
        assert len(question.button_data()) == len(item.options)
        option = (item.answer + 1) % len(item.options) if position in wrong_on else item.answer
        right_place = place_of(question, right(item))
        expect = f"Question {position + 2} of 8" if position < 7 else "Score: 6/8"
        toast, following = await learner.choose(question, text(item, option), expect)
        revealed = api.messages[(learner.chat_id, question.message_id)]
        assert revealed.reply_markup is None
        assert item.explanation is not None
        assert item.explanation.get("en", "en")[:60] in revealed.text
        if position in wrong_on:
            assert toast["text"].startswith("❌")
            assert "Not quite" in revealed.text
            assert f"The right answer is {'ABCD'[right_place]}" in revealed.text
            assert f"The right answer is {'ABCD'[right_place]}" in toast["text"]
        else:
            assert toast["text"] == "✅ Correct!"
            assert "Correct!" in revealed.text
        question = following
    summary = question
    assert "Score: 6/8 (75%)" in summary.text
    assert "Worth another look" in summary.text
    assert seed.questions[2].text.get("en", "en")[:40] in summary.text
    assert seed.questions[5].text.get("en", "en")[:40] in summary.text
    assert seed.questions[0].text.get("en", "en")[:40] not in summary.text


async def test_whole_seed_quiz_in_yoruba_falls_back_per_field(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz
) -> None:
    learner = Learner(api, FakeUser(1002, "Bayo", "yo"))
    question = await learner.send(f"/quiz {QUIZ_ID}", "Ìbéèrè 1 ti 8")
    for position, item in enumerate(seed.questions):
        assert f"Ìbéèrè {position + 1} ti 8" in question.text
        assert item.text.get("yo", "en") in question.text
        if position < 6:
            assert item.text.has("yo")
        else:  # questions 7 and 8 exist only in English: shown in English, interface in Yoruba
            assert not item.text.has("yo")
            assert item.text.get("en", "en") in question.text
        expect = f"Ìbéèrè {position + 2} ti 8" if position < 7 else "8/8"
        toast, question = await learner.choose(question, right(item, "yo"), expect)
        assert toast["text"] == "✅ Ó tọ̀nà!"
    assert "Gbogbo ìdáhùn yín ló tọ̀nà" in question.text


async def test_language_command_switches_interface_and_content(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz
) -> None:
    learner = Learner(api, FakeUser(1003, "Chidi", "en"))
    menu = await learner.send("/language", "Choose your language")
    yoruba = next(b["callback_data"] for b in menu.buttons if "Yor" in b["text"])
    toast = await learner.tap(menu, yoruba)
    assert "Èdè" in toast["text"]
    question = await learner.send(f"/quiz {QUIZ_ID}", "Ìbéèrè 1 ti 8")
    assert seed.questions[0].text.get("yo", "en") in question.text


async def test_resume_after_graceful_restart(
    api: FakeBotApi, settings: Settings, seed: Quiz
) -> None:
    from tests.support.harness import running_bot

    learner = Learner(api, FakeUser(1004, "Dayo", "en"))
    async with running_bot(settings):
        await learner.answer_right(seed, 3)
    async with running_bot(settings):
        resumed = await learner.send(f"/quiz {QUIZ_ID}", "Question 4 of 8")
        assert "Welcome back" in learner.messages()[-2].text
        progress = await learner.send("/progress", "Your progress")
        assert "in progress: 3/8" in progress.text
        await learner.choose(resumed, right(seed.questions[3]), "Question 5 of 8")


async def test_stale_forged_doubled_and_foreign_taps_change_nothing(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz, db_path: Path
) -> None:
    ada = Learner(api, FakeUser(1005, "Ada", "en"))
    eve = Learner(api, FakeUser(1006, "Eve", "en"))
    question = await ada.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    data = button_for(question, right(seed.questions[0]))

    foreign = await eve.tap(question, data)
    assert "someone else's quiz" in foreign["text"]

    for forged in ("1:a:999999:0:0", "garbage", "1:a:1:7:0", "1:a:1:0:9", "x" * 64, "1:q:../etc"):
        answer = await ada.tap(question, forged, forge=True)
        assert answer["text"] == "This button is no longer active.", forged

    _, second = await ada.choose(question, right(seed.questions[0]), "Question 2 of 8")
    sent_before = len(ada.messages())
    # a second tap that left the phone before the reveal arrived: the old keyboard's data
    doubled = await ada.tap(question, data, forge=True)
    assert doubled["text"] == "You already answered this question."
    assert len(ada.messages()) == sent_before

    # the stored state saw exactly one answer, from Ada
    import sqlite3

    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT user_id, question_id FROM answers").fetchall()
    assert rows == [(1005, "mpp-1")]
    assert second.button_data()


async def test_finished_quiz_buttons_are_stale_and_retake_starts_anew(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz
) -> None:
    learner = Learner(api, FakeUser(1007, "Femi", "en"))
    question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    old_keyboard: list[str] = []
    for position, item in enumerate(seed.questions):
        old_keyboard = question.button_data()
        expect = f"Question {position + 2} of 8" if position < 7 else "Score: 8/8"
        _, question = await learner.choose(question, right(item), expect)
    summary = question
    late = await learner.tap(question, old_keyboard[0], forge=True)
    assert late["text"] == "This quiz attempt is finished. Take it again from /quizzes."
    retake = summary.button_data()[0]
    seen = len(learner.messages())
    await learner.tap(summary, retake)
    await api.wait_for_bot_message(learner.chat_id, "Question 1 of 8", after=seen)


async def test_deep_link_quizzes_preview_help_and_unknown(
    api: FakeBotApi, bot: QuizApplication, seed: Quiz
) -> None:
    learner = Learner(api, FakeUser(1008, "Gbenga", "en"))
    await learner.send(f"/start quiz-{QUIZ_ID}", "Question 1 of 8")
    listing = await learner.send("/quizzes", "Quizzes")
    assert "hard" in listing.text and "8 questions" in listing.text
    assert "in progress: 0/8" in listing.text
    preview = await learner.send(f"/preview {QUIZ_ID}", "answers appear as you take the quiz")
    for item in seed.questions:
        assert item.text.get("en", "en") in preview.text
    assert "✅" not in preview.text
    await learner.send("/preview no-such-quiz", "I have no quiz called")
    await learner.send("/frobnicate", "I don't know that command")
    await learner.send("/help", "/progress")
    welcome = await learner.send("/start", "Hello, \u2068Gbenga")
    assert "Quiz Tutor" in welcome.text
