"""/addquestion for every type, end to end: the type tapped under the first prompt, each
step's bad input asked again, the preview, Confirm; the question stored as a bank holds it
and played by a learner. Nothing is stored until Confirm."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.grading import right_choices
from content.loader import parse_bank
from content.model import Question
from tests.support.admin import SMALL_BANK, failed_calls, seed_banks, upload
from tests.support.db import rows
from tests.support.harness import make_settings
from tests.support.learner import Learner
from tests.support.types import reply

ADMIN = FakeUser(996, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


async def choose_type(admin: Learner, label: str) -> Message:
    """/addquestion on the small bank, and the type button `label` tapped."""
    await upload(admin.api, ADMIN, SMALL_BANK, "imported", "small.yaml")
    prompt = await admin.send("/addquestion small-bank", "Send the question text")
    data = next(b["callback_data"] for b in prompt.buttons if b["text"].endswith(label))
    toast = await admin.tap(prompt, data)
    assert toast["text"] == f"Type: {label}"

    def marked() -> list[str]:
        shown = admin.api.messages[(ADMIN.id, prompt.message_id)]
        return [b["text"] for b in shown.buttons if b["text"].startswith("☑")]

    assert await admin.api.wait_for(lambda: marked() == [f"☑ {label}"])
    return prompt


def stored_question(db_path: Path) -> Question:
    ((stored,),) = rows(db_path, "SELECT yaml FROM content_banks")
    quiz = parse_bank(str(stored).encode(), "stored", "en").quiz
    assert quiz is not None
    return quiz.questions[-1]


async def confirmed(admin: Learner, preview: Message, db_path: Path) -> Question:
    seen = len(admin.messages())
    await admin.tap(preview, preview.button_data()[0])
    await admin.api.wait_for_bot_message(ADMIN.id, "Saved as question 4", after=seen)
    return stored_question(db_path)


async def test_a_numeric_question_with_tolerance_and_unit_is_added_and_played(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await choose_type(admin, "Number")
    preview = await admin.converse(
        ("7B fp16 parameters take how many GB?", "Send the right number"),
        ("fourteen", "That is not a number"),  # asked again
        ("1,000", "without digit grouping"),
        ("14", "How far from it"),
        ("-1", "The tolerance is 0 or more"),
        ("0,5", "Its unit"),
        ("GB", "explanation"),
        ("/skip", "Optional translation"),
        ("/skip", "Preview"),
    )
    assert "✅ 14 GB" in preview.text and "0.5" in preview.text
    assert rows(db_path, "SELECT COUNT(*) FROM audit_log") == [(1,)]  # the import only
    question = await confirmed(admin, preview, db_path)
    assert question.type == "numeric"
    assert (str(question.key.value), str(question.key.tolerance)) == ("14", "0.5")  # type: ignore[union-attr]
    learner = Learner(api, FakeUser(6101, "Ada", "en"))
    first = await learner.send("/quiz small-bank", "Question 1 of 4")
    _, second = await learner.choose(first, "Two", "Question 2 of 4")
    _, third = await learner.choose(second, "Blue", "Question 3 of 4")
    await learner.choose(third, "Eight", "Question 4 of 4")
    await reply(learner, "13.6 GB", "Correct!")
    assert failed_calls(api) == []


async def test_a_multiple_question_takes_several_letters(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await choose_type(admin, "Several right options")
    preview = await admin.converse(
        ("Which are parallelisms?", "Now the options"),
        ("Tensor\nBanana\nPipeline", "Which options are right"),
        ("A, Z", "Send one or more letters from A to C"),
        ("a c", "explanation"),
        ("Not the fruit.", "Optional translation"),
        ("yo\nÈwo ni parallelism?\nTensor\nỌ̀gẹ̀dẹ̀\nPipeline\nKì í ṣe èso.", "Preview"),
    )
    assert "✅ A. Tensor" in preview.text and "✅ C. Pipeline" in preview.text
    question = await confirmed(admin, preview, db_path)
    assert question.type == "multiple" and right_choices(question) == {0, 2}
    assert question.options[1].get("yo", "en") == "Ọ̀gẹ̀dẹ̀"


async def test_a_true_false_question_takes_true_or_false(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await choose_type(admin, "True or false")
    preview = await admin.converse(
        ("Pipelines have bubbles.", "true or false"),
        ("maybe", "Send true or false"),
        ("False", "explanation"),
        ("/skip", "Optional translation"),
        ("yo\nPipeline ní bubble.", "Preview"),
    )
    assert "✅ B. False" in preview.text
    question = await confirmed(admin, preview, db_path)
    assert question.type == "true_false" and question.key.value is False  # type: ignore[union-attr]
    assert question.text.get("yo", "en") == "Pipeline ní bubble."


async def test_a_typed_question_takes_its_accepted_answers(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    prompt = await choose_type(admin, "Typed answer")
    await admin.send("The idle time of a pipeline is its ...?", "accepted answers")
    toast = await admin.tap(prompt, prompt.buttons[0]["callback_data"])  # too late to change
    assert "chosen before the question text" in str(toast["text"])
    preview = await admin.converse(
        ("x" * 200, "at most 180"),
        ("bubble\npipeline bubble\nbubble", "explanation"),
        ("/skip", "Optional translation"),
        ("/skip", "Preview"),
    )
    assert "✅ bubble, pipeline bubble" in preview.text
    question = await confirmed(admin, preview, db_path)
    assert question.type == "typed"
    assert [a.get("en", "en") for a in question.key.accepted] == ["bubble", "pipeline bubble"]  # type: ignore[union-attr]


async def test_a_draft_cancelled_midway_stores_nothing(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    await choose_type(admin, "Number")
    await admin.converse(("How many?", "Send the right number"), ("/cancel", "Nothing was saved"))
    assert rows(db_path, "SELECT action FROM audit_log") == [("import",)]
    assert len(stored_question(db_path).id) and stored_question(db_path).id == "s3"
