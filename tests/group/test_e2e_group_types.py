"""Every question type a chat plays, end to end (real Application, stand-in, SQLite): true/false,
multiple (each member's own selection, never on the shared keyboard), code and pictures in
group quizzes, quiz polls with several right answers, posted questions; numeric and typed
questions skipped with the intro saying so; the drill bank played whole in a group."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core import callbacks
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import load_bank_file
from content.model import MultipleAnswer, Quiz, SingleAnswer, TrueFalseAnswer
from tests.support.drill import asked
from tests.support.harness import make_settings, running_bot
from tests.support.images import png
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, DI, GROUP_ID, Room
from tests.support.types import types_bank

DRILL = "parallelism-drill"
MULTI = """
id: multi
title: Multi
level: easy
questions:
  - id: m
    type: multiple
    text: "Which are even?"
    options: ["2", "3", "4", "5"]
    answer: [0, 2]
  - id: s
    text: "Is this a square?"
    image: images/square.png
    options: ["Yes", "No"]
    answer: 0
    explanation: "It is."
  - id: tf
    type: true_false
    text: "Three is even."
    answer: false
    explanation_image: images/square.png
"""
ONLY_TYPED = """
id: typed-only
title: Typed only
level: easy
questions:
  - {id: t1, type: typed, text: "Say bubble", answer: ["bubble"]}
  - {id: n1, type: numeric, text: "Say 14", answer: 14}
"""
ADMIN = FakeUser(900, "Ade", "en")
SELECTION = "Your selection: {} — tap ✅ Submit my answer."


def _banks(tmp_path: Path) -> Path:
    """Every question type (tests/support/types.py), the drill, and two banks of this file's."""
    banks = types_bank(tmp_path)
    shutil.copytree(DEFAULT_CONTENT_DIR / DRILL, banks / DRILL)
    for name, text in (("multi", MULTI), ("typed-only", ONLY_TYPED)):
        (banks / f"{name}.yaml").write_text(text, encoding="utf-8")
    return banks


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    """This file's banks (`_banks`), an admin of the bot, questions of a second."""
    return make_settings(
        api,
        tmp_path / "quiz.sqlite3",
        content_dir=_banks(tmp_path),
        group_min_seconds=1,
        admin_ids=frozenset({ADMIN.id}),
    )


def _answers(db_path: Path) -> list[tuple[int, int, int, int, int]]:
    """(position, user, chosen, correct, points) of every group answer."""
    with sqlite3.connect(db_path) as db:
        return db.execute(
            """SELECT position, user_id, chosen, correct, points FROM group_answers
               ORDER BY session_id, position, user_id"""
        ).fetchall()


def _failed(api: FakeBotApi) -> list[str]:
    return [
        f"{c.method}: {c.description}" for c in api.calls if not c.ok and c.method != "getUpdates"
    ]


async def test_a_group_quiz_plays_true_false_multiple_code_and_pictures(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        await room.say(ADA, "/groupquiz typed-only 30", "cannot play any question of")
        tf = await room.say(ADA, "/groupquiz types 60", "Question 1 of 5")
        assert "3 questions of this quiz are skipped here" in room.messages()[-2].text
        assert [b["text"] for b in tf.buttons] == ["A. True", "B. False"]  # answering only
        assert (await room.tap(BO, tf, 0)).startswith("✅ Right! +")
        assert (await room.tap(CY, tf, 1)).startswith("❌ Not quite")
        seen = len(room.messages())
        await room.reveal_tap(ADA, tf)
        shown = await room.revealed(tf)
        assert "✅ A. True · 1 chose it" in shown.text and "▫️ B. False · 1 chose it" in shown.text

        # multiple: each member's selection is theirs alone, and no tap edits the keyboard
        m = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 5", after=seen)
        assert [b["text"] for b in m.buttons][:5] == [
            "A. Tensor", "B. Pipeline", "C. Banana", "D. Data", "✅ Submit my answer",
        ]  # fmt: skip
        assert "your picks show only to you" in m.text
        assert await room.tap(BO, m, 0) == SELECTION.format("A")
        assert await room.tap(CY, m, 1) == SELECTION.format("B")
        assert await room.tap(BO, m, 2) == SELECTION.format("A, C")
        assert await room.tap(CY, m, 3) == SELECTION.format("B, D")
        assert await room.tap(BO, m, 2) == SELECTION.format("A")  # picked again: unpicked
        assert await room.tap(BO, m, 1) == SELECTION.format("A, B")
        assert await room.tap(BO, m, 2) == SELECTION.format("A, B, C")
        assert await room.tap(CY, m, 0) == SELECTION.format("A, B, D")
        assert await room.tap(DI, m, 4) == "Choose at least one option first."
        assert room.current(m).edits == 0 and room.current(m).reply_markup == m.reply_markup
        assert (await room.tap(BO, m, 4)).startswith(
            "🟡 Partly right (2 of 3 right, 1 wrong: 1/3): +"
        )
        assert (await room.tap(CY, m, 4)).startswith("✅ Right! +")
        assert await room.tap(BO, m, 4) == "Your answer A, B, C stands: one answer per question."
        assert await room.tap(BO, m, 3) == "You already answered this question."
        assert await room.tap(DI, m, 2) == SELECTION.format("C")
        assert (await room.tap(DI, m, 4)).startswith("❌ Not quite. Your answer stands")
        await api.wait_for(lambda: "👥 3 answered" in room.current(m).text)
        seen = len(room.messages())
        await room.reveal_tap(ADA, m)
        shown = await room.revealed(m)
        for line in (
            "✅ A. Tensor · 2 chose it", "✅ B. Pipeline · 2 chose it",
            "❌ C. Banana · 2 chose it", "✅ D. Data · 1 chose it", "👥 3 answered, 1 fully right",
        ):  # fmt: skip
            assert line in shown.text

        # code, rendered as in private; buttons show it flattened
        c = await api.wait_for_bot_message(GROUP_ID, "Question 3 of 5", after=seen)
        assert '<pre><code class="language-python">print(1 &lt; 2)</code></pre>' in c.html
        assert "<code>True</code>" in c.html and c.buttons[0]["text"] == "A. True"
        assert (await room.tap(BO, c, 0)).startswith("✅")
        seen = len(room.messages())
        await room.say(ADA, "/skip", "Question 4 of 5")

        # a picture: the question is its caption; the reveal, too long for one, replies to it
        p = await api.wait_for_bot_message(GROUP_ID, "Question 4 of 5", after=seen)
        assert p.photo is not None and p.caption is not None and "🖼 A white square" in p.caption
        assert (await room.tap(BO, p, 0)).startswith("✅")
        await api.wait_for(lambda: "👥 1 answered" in (room.current(p).caption or ""))  # redrawn
        assert "🖼 A white square" in (room.current(p).caption or "")
        seen = len(room.messages())
        await room.reveal_tap(ADA, p)
        reveal = await api.wait_for_bot_message(GROUP_ID, "chose it", after=seen)
        assert reveal.reply_to is not None and reveal.reply_to.message_id == p.message_id
        assert room.current(p).reply_markup is None and "It is a square." in reveal.text

        # a question too long for a caption: the photo (sent by its file_id), then the text
        long = await api.wait_for_bot_message(GROUP_ID, "Question 5 of 5", after=seen)
        photo = room.messages()[room.messages().index(long) - 1]
        assert photo.photo is not None and (photo.caption or "").startswith(
            "🖼 A white square on nothing"
        )
        # uploaded once each: the square (the long question's went by its file_id), and why.png
        assert long.photo is None and api.photo_uploads == [png(16, 16), png(24, 12)]
        assert (await room.tap(CY, long, 0)).startswith("✅")
        seen = len(room.messages())
        await room.reveal_tap(ADA, long)
        assert "✅ A. Yes · 1 chose it" in (await room.revealed(long)).text
        await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
    answers = _answers(settings.db_path)
    multiple = {user: (chosen, correct, points) for pos, user, chosen, correct, points in answers
                if pos == 1}  # fmt: skip
    assert multiple[BO.id][:2] == (0b0111, 0) and multiple[CY.id][:2] == (0b1011, 1)
    assert multiple[DI.id] == (0b0100, 0, 0)
    # partial credit: a third of a right answer's points at that speed (500 to 1,000)
    assert 500 <= multiple[CY.id][2] <= 1000 and 160 <= multiple[BO.id][2] <= 334
    assert not _failed(api)


async def test_a_selection_survives_a_restart_and_its_buttons_work_nowhere_else(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    other = Room(api, api.group(-100999, "elsewhere", admins={ADA.id}))
    async with running_bot(settings):
        m = await room.say(ADA, "/groupquiz multi 60", "Question 1 of 3")
        assert await room.tap(BO, m, 0) == SELECTION.format("A")
    async with running_bot(settings):  # restarted in the middle of Bo's selection
        assert await room.tap(BO, m, 2) == SELECTION.format("A, C")
        # the same buttons replayed in another group, and in a private chat, change nothing
        note = await other.say(ADA, "/leaderboard", "")
        pick_b = callbacks.GroupPick(*_session_position(m), 1).encode()
        query = api.tap(BO, note, pick_b, forge=True)
        assert (await api.wait_for_answer(query))["text"] == "This button is no longer active."
        bo = Learner(api, BO)
        hello = await bo.send("/start", "")
        toast = await bo.tap(hello, pick_b, forge=True)
        assert toast["text"] == "This button does not work in this chat."
        assert (await room.tap(BO, m, 4)).startswith("✅ Right! +")  # A, C: the selection
        assert room.current(m).edits <= 1  # the live count, after the Submit only
    assert [row[:4] for row in _answers(settings.db_path)] == [(0, BO.id, 0b0101, 1)]
    assert not _failed(api)


def _session_position(message: Message) -> tuple[int, int]:
    """The session and position a group question's buttons name."""
    tap = callbacks.decode(message.buttons[0]["callback_data"])
    assert isinstance(tap, callbacks.GroupPick)
    return tap.session_id, tap.position


async def test_quiz_polls_with_two_right_answers_score_right_partly_right_and_wrong(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        first = await room.poll_quiz(ADA, "multi")
        assert first.poll is not None
        assert first.poll["correct_option_ids"] == [0, 2]
        assert first.poll["allows_multiple_answers"] is True
        api.vote(BO, first, [0, 2])
        api.vote(CY, first, [0])
        api.vote(DI, first, [1, 3])
        await api.wait_for(lambda: len(_answers(settings.db_path)) == 3)
        api.send_text(ADA, "/skip", room.chat)  # reveal
        # a picture goes before its poll, which cannot hold one
        second = await room.poll(2)
        photo = room.messages()[room.messages().index(second) - 1]
        assert photo.photo is not None and second.poll is not None
        assert (
            second.poll["correct_option_ids"] == [0] and not second.poll["allows_multiple_answers"]
        )
        api.vote(BO, second, 0)
        await api.wait_for(lambda: len(_answers(settings.db_path)) == 4)
        api.send_text(ADA, "/skip", room.chat)
        third = await room.poll(3)
        assert third.poll is not None
        assert [o["text"] for o in third.poll["options"]] == ["True", "False"]
        assert third.poll["correct_option_ids"] == [1]
        api.vote(CY, third, 1)
        api.vote(DI, third, 0)
        await api.wait_for(lambda: len(_answers(settings.db_path)) == 6)
        seen = len(room.messages())
        api.send_text(ADA, "/skip", room.chat)
        await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        why = next(m for m in room.messages()[seen:] if m.photo)  # the explanation's picture
        assert why.reply_to is not None and why.reply_to.message_id == third.message_id
    rows = {(pos, user): (chosen, correct, points) for pos, user, chosen, correct, points
            in _answers(settings.db_path)}  # fmt: skip
    assert rows[(0, BO.id)][:2] == (0b0101, 1) and rows[(0, BO.id)][2] >= 500
    assert rows[(0, CY.id)][:2] == (0b0001, 0) and 250 <= rows[(0, CY.id)][2] <= 500
    assert rows[(0, DI.id)] == (0b1010, 0, 0)
    assert rows[(2, CY.id)][:2] == (1, 1) and rows[(2, DI.id)] == (0, 0, 0)
    assert not _failed(api)


async def test_posted_multiple_and_picture_questions(api: FakeBotApi, settings: Settings) -> None:
    channel = Room(api, api.group(-100777, "news", admins={ADMIN.id}, type="channel"))
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        await admin.send("/push multi @news", "Question 1 of 3")
        post = channel.messages()[-1]
        assert post.buttons[-1]["text"] == "✅ Submit my answer"
        assert await channel.tap(BO, post, 0) == SELECTION.format("A")
        assert await channel.tap(CY, post, 1) == SELECTION.format("B")
        assert await channel.tap(BO, post, 2) == SELECTION.format("A, C")
        assert channel.current(post).edits == 0
        assert await channel.tap(CY, post, 4) == "❌ Not quite. The right options are A, C."
        assert await channel.tap(BO, post, 4) == "✅ Correct!"
        assert await channel.tap(BO, post, 4) == "You already answered this question."
        await admin.send("/push multi @news", "Question 2 of 3")
        shown = channel.current(post).text
        for line in ("✅ A. 2 · 1 chose it", "❌ B. 3 · 1 chose it", "✅ C. 4 · 1 chose it"):
            assert line in shown
        assert "👥 2 answered, 1 right." in shown and channel.current(post).reply_markup is None
        pictured = channel.messages()[-1]
        assert pictured.photo is not None and "Is this a square?" in (pictured.caption or "")
        assert await channel.tap(DI, pictured, 1) == "❌ Not quite. The right answer is A."
        await admin.send("/push multi @news", "Question 3 of 3")
        caption = channel.current(pictured).caption or ""
        assert "✅ A. Yes" in caption and "It is." in caption
        true_false = channel.messages()[-1]
        assert [b["text"] for b in true_false.buttons] == ["A. True", "B. False"]
        assert await channel.tap(BO, true_false, 1) == "✅ Correct!"
    assert not _failed(api)


async def test_the_drill_bank_is_played_whole_in_a_group(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    quiz = load_bank_file(settings.content_dir / DRILL / f"{DRILL}.yaml", "en").quiz
    assert quiz is not None
    async with running_bot(settings):
        message = await room.say(ADA, f"/groupquiz {DRILL} 60", "Question 1 of 8")
        assert "7 questions of this quiz are skipped here" in room.messages()[-2].text
        for k in range(1, 9):
            await _answer_right(room, quiz, message)
            seen = len(room.messages())
            api.send_text(ADA, "/skip", room.chat)
            expect = f"Question {k + 1} of 8" if k < 8 else "final results"
            asked_before, message = (
                message,
                await api.wait_for_bot_message(GROUP_ID, expect, after=seen),
            )
            assert room.current(asked_before).reply_markup is None
            reveals = [m.shown for m in [room.current(asked_before), *room.messages()[seen:]]]
            assert any("1 chose it" in shown for shown in reveals)
    answers = _answers(settings.db_path)
    assert [(pos, correct) for pos, _, _, correct, _ in answers] == [(k, 1) for k in range(8)]
    assert not _failed(api)


async def _answer_right(room: Room, quiz: Quiz, message: Message) -> None:
    """Bo answers the question `message` asks, right."""
    question = asked(quiz, message, "en")
    match question.key:
        case SingleAnswer(option):
            assert (await room.tap(BO, message, option)).startswith("✅")
        case TrueFalseAnswer(value):
            assert (await room.tap(BO, message, 0 if value else 1)).startswith("✅")
        case MultipleAnswer(options):
            for option in sorted(options):
                await room.tap(BO, message, option)
            submit = len(question.options)
            assert (await room.tap(BO, message, submit)).startswith("✅")
        case _:
            raise AssertionError(f"{question.id} is not played in a group")


async def test_pictures_go_to_the_forum_topic_of_their_quiz(
    api: FakeBotApi, settings: Settings
) -> None:
    chat = api.group(GROUP_ID, "school", admins={ADA.id})
    topic = api.create_topic(chat, "Maths")
    room = Room(api, chat)
    async with running_bot(settings):
        seen = len(room.messages())
        api.send_text(ADA, "/groupquiz multi 60", chat, topic=topic)
        await api.wait_for_bot_message(GROUP_ID, "Question 1 of 3", after=seen)
        api.send_text(ADA, "/skip", chat, topic=topic)
        pictured = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
        assert pictured.photo is not None and pictured.thread_id == topic
        assert (await room.tap(BO, pictured, 0)).startswith("✅")
        api.send_text(ADA, "/skip", chat, topic=topic)
        await api.wait_for_bot_message(GROUP_ID, "Question 3 of 3", after=seen)
        assert "✅ A. Yes · 1 chose it" in (room.current(pictured).caption or "")
    assert all(message.thread_id == topic for message in room.messages()[seen:])
    assert not _failed(api)


async def test_a_submit_on_a_closed_multiple_question_says_so_with_or_without_a_selection(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        m = await room.say(ADA, "/groupquiz multi 60", "Question 1 of 3")
        assert await room.tap(BO, m, 0) == SELECTION.format("A")
        seen = len(room.messages())
        await room.reveal_tap(ADA, m)
        await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
        closed = "Time is up for this question."
        assert await room.tap(BO, m, 4) == closed  # a selection, too late
        assert await room.tap(CY, m, 4) == closed  # none: not told to choose one first
        assert await room.tap(CY, m, 1) == closed
    assert _answers(settings.db_path) == []
    assert not _failed(api)


async def test_a_member_who_forgets_after_submitting_is_still_told_their_answer_stands(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    bo = Learner(api, BO)
    async with running_bot(settings):
        await bo.send("/start", "")
        m = await room.say(ADA, "/groupquiz multi 60", "Question 1 of 3")
        assert await room.tap(BO, m, 0) == SELECTION.format("A")
        assert await room.tap(CY, m, 1) == SELECTION.format("B")
        assert (await room.tap(BO, m, 4)).startswith("🟡 Partly right (1 of 2 right: 1/2)")
        ask = await bo.send("/forgetme", "This deletes everything")
        (data,) = [b["callback_data"] for b in ask.buttons if b["text"] == "Delete my data"]
        assert (await bo.tap(ask, str(data)))["text"].startswith("Your data is deleted")
        # her selection went with her data, her answer is held: it stands, nothing else counts
        assert await room.tap(BO, m, 4) == "Your answer A stands: one answer per question."
        assert await room.tap(BO, m, 2) == "You already answered this question."
        # another member's open selection is theirs still
        assert await room.tap(CY, m, 2) == SELECTION.format("B, C")
    assert [row[:3] for row in _answers(settings.db_path)] == [(0, BO.id, 0b0001)]
    with sqlite3.connect(settings.db_path) as db:
        assert db.execute("SELECT user_id FROM group_picks").fetchall() == [(CY.id,)]
    assert not _failed(api)
