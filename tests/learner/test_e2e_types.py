"""Every question type in a private chat, end to end: the real Application over HTTP against
the stand-in, a real SQLite file. True/false, multiple (partial credit, a selection that
survives a restart), numeric and typed replies (not a number, digit grouping, diacritics),
code, pictures (a caption, a long question, the file uploaded once then sent by file_id, a
refused file_id uploaded again)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner
from tests.support.types import current, pick, reply, submit, types_bank


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return make_settings(api, tmp_path / "quiz.sqlite3", content_dir=types_bank(tmp_path))


@pytest.fixture
async def bot(settings: Settings) -> AsyncIterator[QuizApplication]:
    async with running_bot(settings) as application:
        yield application


def failed(api: FakeBotApi) -> list[str]:
    return [f"{c.method}: {c.description}" for c in api.calls if not c.ok]


def answers(settings: Settings) -> list[tuple[str, int, int, float | None, str | None]]:
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(
            "SELECT question_id, chosen, correct, credit, reply FROM answers ORDER BY id"
        ).fetchall()


async def to_multiple(learner: Learner) -> Message:
    """Start the quiz and answer the true/false question right: the multiple question."""
    first = await learner.send("/quiz types", "Question 1 of 8")
    _, question = await learner.choose(first, 0, "Question 2 of 8")
    return question


async def to_numeric(learner: Learner) -> Message:
    question = await to_multiple(learner)
    for label in ("Tensor", "Pipeline", "Data"):
        await pick(learner, question, label)
    seen = len(learner.messages())
    await submit(learner, question)
    return await learner.api.wait_for_bot_message(learner.chat_id, "Question 3 of 8", after=seen)


async def test_every_type_played_through_with_partial_credit_in_the_score(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(4001, "Ada", "en"))
    tf = await learner.send("/quiz types", "Question 1 of 8")
    assert [b["text"] for b in tf.buttons] == ["True", "False"]
    toast, multiple = await learner.choose(tf, 1, "Question 2 of 8")
    assert toast["text"] == "❌ Not quite. The right answer is True."  # a value, not a letter
    assert "The right answer is True" in current(api, tf).text
    assert "False ← your answer" in current(api, tf).text

    # multiple: toggles redraw the keyboard, the selection is told in the toast
    assert "Choose every right option" in multiple.text
    assert await pick(learner, multiple, "Tensor") == "Your selection: A"
    assert await pick(learner, multiple, "Banana") == "Your selection: A, C"
    assert await pick(learner, multiple, "Pipeline") == "Your selection: A, B, C"
    redrawn = ["☑ A. Tensor", "☑ B. Pipeline", "☑ C. Banana", "☐ D. Data", "✅ Submit"]
    await api.wait_for(lambda: [b["text"] for b in current(api, multiple).buttons] == redrawn)
    seen = len(learner.messages())
    assert await submit(learner, multiple) == "🟡 Partly right: 2 of 3 right, 1 wrong: 1/3."
    numeric = await api.wait_for_bot_message(learner.chat_id, "Question 3 of 8", after=seen)
    revealed = current(api, multiple).text
    assert "✅ A. Tensor ← your answer" in revealed
    assert "❌ C. Banana ← your answer" in revealed
    assert "👉 D. Data ← missed" in revealed  # unlike a pick on a phone: ✅ and ☑️ are not
    assert "Partly right (1/3). The right options are A, B, D." in revealed
    assert current(api, multiple).reply_markup is None

    # numeric: not a number and digit grouping are not answers
    assert "Reply with a number (in GB)." in numeric.text and not numeric.buttons
    await reply(learner, "fourteen", "That is not a number")
    await reply(learner, "1,000", "Please write 1000 or 1.000")
    await reply(learner, "1 000 000", "without digit grouping: 1000000")
    revealed_n = await reply(learner, "14,0 GB", "Correct!")
    assert revealed_n.reply_to is not None and revealed_n.reply_to.text == "14,0 GB"
    assert "Your answer: 14,0 GB" in revealed_n.text
    typed = await api.wait_for_bot_message(learner.chat_id, "Question 4 of 8")
    assert "Reply with your answer." in typed.text

    # typed: compared without case, punctuation or diacritics; strict where the bank says so
    await reply(learner, "“Bubble.”", "Correct!")
    await api.wait_for_bot_message(learner.chat_id, "Question 5 of 8")
    wrong = await reply(learner, "oko", "Not quite")
    assert "Accepted: ọkọ." in wrong.text
    code = await api.wait_for_bot_message(learner.chat_id, "Question 6 of 8")

    # code: a block and inline code render as code; buttons show it flattened
    assert '<pre><code class="language-python">print(1 &lt; 2)</code></pre>' in code.html
    assert "<code>True</code>" in code.html
    assert [b["text"] for b in code.buttons] == ["A. True", "B. False"]
    _, picture = await learner.choose(code, 0, "Question 7 of 8")

    # a picture: the question is its caption, with the alt text
    assert picture.photo is not None and picture.caption is not None
    assert "🖼 A white square" in picture.caption
    seen = len(learner.messages())
    await learner.tap(picture, picture.button_data()[0])
    # the reveal (with its long explanation) does not fit a caption: it replies to the photo
    reveal = await api.wait_for_bot_message(learner.chat_id, "Correct!", after=seen)
    assert reveal.reply_to is not None and reveal.reply_to.message_id == picture.message_id
    assert current(api, picture).reply_markup is None
    why = await api.wait_for(
        lambda: next((m for m in learner.messages()[seen:] if m.photo and not m.caption), None)
    )
    assert why.reply_to is not None and why.reply_to.message_id == reveal.message_id

    # a question too long for a caption: the photo, then the question with the buttons
    long_question = await api.wait_for_bot_message(learner.chat_id, "Question 8 of 8", after=seen)
    assert long_question.photo is None and long_question.buttons
    photo = learner.messages()[learner.messages().index(long_question) - 1]
    assert photo.photo is not None and photo.caption is not None
    assert photo.caption.startswith("🖼 A white square")
    _, summary = await learner.choose(long_question, 0, "Score:")
    assert "Correct!" in current(api, long_question).text

    # 0 + 1/3 + 1 + 1 + 0 + 1 + 1 + 1 of 8
    assert "Score: 5.3/8 (67%)" in summary.text
    progress = await learner.send("/progress", "Your progress")
    assert "best 5.3/8" in progress.text and "to review: #1, #2, #5" in progress.text
    assert not failed(api), failed(api)
    assert answers(settings) == [
        ("tf", 1, 0, None, None),
        ("m", 0b111, 0, pytest.approx(1 / 3), None),
        ("n", -1, 1, None, "14,0 GB"),
        ("t", -1, 1, None, "“Bubble.”"),
        ("s", -1, 0, None, "oko"),
        ("c", 0, 1, None, None),
        ("p", 0, 1, None, None),
        ("long", 0, 1, None, None),
    ]


async def test_diacritics_count_only_where_the_question_says_so(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(4002, "Bayo", "en"))
    await to_numeric(learner)
    await reply(learner, "14", "Correct!")
    await reply(learner, "  Akoko OFO ", "Correct!")  # without its diacritics, any language
    await api.wait_for_bot_message(learner.chat_id, "Question 5 of 8")
    right = await reply(learner, "Ọkọ", "Question 6 of 8")
    reveal = learner.messages()[learner.messages().index(right) - 1]
    assert "Correct!" in reveal.text  # Ọkọ is ọkọ in capitals


async def test_submitting_nothing_is_refused_and_a_selection_survives_a_restart(
    api: FakeBotApi, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(4003, "Chi", "en"))
    async with running_bot(settings):
        question = await to_multiple(learner)
        assert await submit(learner, question) == "Choose at least one option first."
        assert await pick(learner, question, "Tensor") == "Your selection: A"
        assert await pick(learner, question, "Banana") == "Your selection: A, C"
        assert await pick(learner, question, "Banana") == "Your selection: A"
    async with running_bot(settings):
        assert await pick(learner, question, "Pipeline") == "Your selection: A, B"
        assert await pick(learner, question, "Data") == "Your selection: A, B, D"
        seen = len(learner.messages())
        assert await submit(learner, question) == "✅ Correct!"
        await api.wait_for_bot_message(learner.chat_id, "Question 3 of 8", after=seen)
    assert [row[:4] for row in answers(settings)] == [("tf", 0, 1, None), ("m", 0b1011, 1, 1.0)]
    assert not failed(api), failed(api)


async def test_a_reply_to_an_old_question_an_edit_or_a_command_changes_no_answer(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(4004, "Dele", "en"))
    numeric = await to_numeric(learner)
    # commands still work while the question waits, and it still waits after them
    await learner.send("/progress", "Your progress")
    said = api.send_text(learner.user, "13")  # wrong, and taken
    await api.wait_for_bot_message(learner.chat_id, "Question 4 of 8")
    api.edit_text(learner.user, said, "14")  # an edit changes nothing
    await reply(learner, "bubble", "Correct!")  # the next message answers the next question
    await api.wait_for_bot_message(learner.chat_id, "Question 5 of 8")
    old = await reply(learner, "14", "no longer waiting", to=numeric)
    assert "changes nothing" in old.text
    assert [row[0::4] for row in answers(settings)] == [
        ("tf", None),
        ("m", None),
        ("n", "13"),
        ("t", "bubble"),
    ]
    assert not failed(api), failed(api)


async def test_a_plain_message_with_no_question_waiting_gets_the_usual_answer(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(4005, "Efe", "en"))
    await learner.send("hello", "I answer to commands and buttons")
    question = await to_multiple(learner)  # a question answered by buttons waits no reply
    await learner.send("14", "I answer to commands and buttons")
    assert current(api, question).buttons


async def test_true_false_in_yoruba(api: FakeBotApi, bot: QuizApplication) -> None:
    learner = Learner(api, FakeUser(4006, "Ife", "yo"))
    tf = await learner.send("/quiz types", "Pipeline ní bubble.")
    assert [b["text"] for b in tf.buttons] == ["Òótọ́", "Irọ́"]
    toast, _ = await learner.choose(tf, 0, "Ìbéèrè 2 ti 8")
    assert toast["text"] == "✅ Ó tọ̀nà!"


async def _to_picture(learner: Learner) -> Message:
    """Answer the first six questions right; the picture question."""
    await to_numeric(learner)
    await reply(learner, "14", "Correct!")
    await reply(learner, "bubble", "Correct!")
    await api_wait(learner, "Question 5 of 8")
    await reply(learner, "ọkọ", "Correct!")
    code = await api_wait(learner, "Question 6 of 8")
    _, picture = await learner.choose(code, 0, "Question 7 of 8")
    return picture


async def api_wait(learner: Learner, text: str) -> Message:
    return await learner.api.wait_for_bot_message(learner.chat_id, text)


async def test_a_picture_is_uploaded_once_then_sent_by_its_file_id_and_again_when_refused(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    first = await _to_picture(Learner(api, FakeUser(4007, "Gbenga", "en")))
    assert len(api.photo_uploads) == 1  # the square, uploaded
    square_id = first.photo[-1]["file_id"] if first.photo else ""
    second = await _to_picture(Learner(api, FakeUser(4008, "Hauwa", "en")))
    assert len(api.photo_uploads) == 1  # sent by its file_id
    sent = api.calls_to("sendPhoto")[-1]
    assert sent.params["photo"] == square_id and second.photo is not None
    api.refuse_file_id(square_id)  # as for another bot's id, or one Telegram forgot
    ike = Learner(api, FakeUser(4009, "Ike", "en"))
    third = await _to_picture(ike)
    assert len(api.photo_uploads) == 2 and third.photo is not None
    await ike.choose(third, 0, "Question 8 of 8")  # the upload's file_id is stored by now
    refused = [c for c in api.calls_to("sendPhoto") if not c.ok]
    assert [c.description for c in refused] == [
        "Bad Request: wrong file identifier/HTTP URL specified"
    ]
    with sqlite3.connect(settings.db_path) as db:
        stored = {row[0] for row in db.execute("SELECT file_id FROM photo_file_ids")}
    assert square_id not in stored and third.photo[-1]["file_id"] in stored


async def test_another_bot_uploads_the_picture_for_itself(api: FakeBotApi, tmp_path: Path) -> None:
    settings = make_settings(api, tmp_path / "quiz.sqlite3", content_dir=types_bank(tmp_path))
    async with running_bot(settings):
        await _to_picture(Learner(api, FakeUser(4010, "Jide", "en")))
    assert len(api.photo_uploads) == 1
    api.token = "654321:OTHER-BOT"  # the same database, a bot of another id
    api.bot_user["id"] = 654321
    async with running_bot(make_settings(api, settings.db_path, content_dir=settings.content_dir)):
        await _to_picture(Learner(api, FakeUser(4011, "Kemi", "en")))
    assert len(api.photo_uploads) == 2
    with sqlite3.connect(settings.db_path) as db:
        bots = {row[0] for row in db.execute("SELECT bot_id FROM photo_file_ids")}
    assert bots == {123456, 654321}


async def test_a_reply_to_the_picture_of_a_question_sent_apart_answers_it(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(4012, "Lola", "en"))
    question = await learner.send("/quiz pictured", "Question 1 of 1")
    photo = learner.messages()[learner.messages().index(question) - 1]
    assert photo.photo is not None and question.photo is None
    await reply(learner, "1", "Correct!", to=photo)
    await api.wait_for_bot_message(learner.chat_id, "Score: 1/1")
    assert [row[0::4] for row in answers(settings)] == [("count", "1")]


async def test_a_picture_on_the_web_is_sent_as_its_url_and_never_fetched(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(4013, "Musa", "en"))
    question = await learner.send("/quiz linked", "Question 1 of 1")
    assert question.photo is not None and "🖼 (a picture)" in (question.caption or "")
    await learner.choose(question, 0, "Score: 1/1")
    assert api.photo_urls == ["https://example.org/diagram.png"] and not api.photo_uploads
    assert "Correct!" in (current(api, question).caption or "")
