"""Every kind of button works only in the chat types it belongs to.

Anyone can put any callback data on any of the bot's messages: a learner's own buttons,
copied from their private chat and pressed on a bot message in a group or channel, must not
make the bot post, edit or record anything there; a group quiz's buttons do nothing in a
private chat. The refusal is one short toast.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.app import QuizApplication
from bot.config import Settings
from bot.core import callbacks
from bot.sandbox import Chat, FakeBotApi, FakeUser, Message
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import reveal_data

QUIZ_ID = "model-pipeline-parallelism"
WRONG_CHAT = "This button does not work in this chat."
ADA = FakeUser(7101, "Ada", "en")


def test_learner_and_draft_kinds_are_private_group_kinds_are_groups() -> None:
    private = {
        "a", "pk", "sb", "q", "p", "l", "rv", "ra", "rf", "pm", "ls", "fgy", "fgn", "adc", "adx",
        "adt", "aig",
    }  # fmt: skip
    private |= {"rq", "xq", "tz"}  # a report's and an export's format; a suggested zone
    private |= {"xc", "xd", "xg", "xf", "xh", "xr"}  # an exam's
    groups = {"ga", "gp", "gs", "gr", "gqs", "gtz"}
    declared = {kind.prefix: kind.chats for kind in callbacks.kinds()}
    assert {prefix for prefix, chats in declared.items() if chats == callbacks.PRIVATE} == private
    assert {prefix for prefix, chats in declared.items() if chats == callbacks.GROUPS} == groups
    # a posted question may live in any chat; the post names its chat and message; the menus
    # of quizzes and the homework's menu are answered in a group and in private alike (in a
    # group, by those who control its quizzes)
    anywhere = {"adp", "pp", "ps", "qm", "qc", "as", "ah"}
    assert all(declared[prefix] == callbacks.ANY_CHAT for prefix in anywhere)
    # /help's topics: wherever people send commands, never in a channel
    assert declared["hp"] == {"private", "group", "supergroup"}
    assert set(declared) == private | groups | anywhere | {"hp"}


@st.composite
def declared_taps(draw: st.DrawFn) -> callbacks.Tap:
    kind = draw(st.sampled_from(callbacks.kinds()))
    texts = [draw(st.from_regex(form.pattern, fullmatch=True)) for form in kind.formats]
    data = ":".join([callbacks.VERSION, kind.prefix, *texts])
    tap = callbacks.decode(data)
    assert tap is not None or len(data.encode()) > callbacks.MAX_BYTES, data
    return draw(st.just(tap)) if tap is not None else callbacks.ListQuizzes()


@given(declared_taps())
def test_every_declared_kind_round_trips(tap: callbacks.Tap) -> None:
    data = tap.encode()
    assert len(data.encode()) <= callbacks.MAX_BYTES
    assert callbacks.decode(data) == tap
    assert type(callbacks.decode(data)) is type(tap)


@example("\ud800")  # a lone surrogate: JSON can carry it, UTF-8 cannot
@example("1:a:1:2:3\n")
@given(
    st.text(st.characters(exclude_categories=())) | st.binary().map(lambda b: b.decode("latin-1"))
)
def test_any_data_decodes_to_a_tap_or_nothing_never_an_exception(data: str) -> None:
    tap = callbacks.decode(data)
    assert tap is None or tap.encode() == data


async def _bot_message_in(api: FakeBotApi, chat: Chat) -> Message:
    """Any message of the bot's in `chat`: the answer to /leaderboard."""
    seen = len(api.bot_messages(chat.id))
    api.send_text(ADA, "/leaderboard", chat)
    return await api.wait_for_bot_message(chat.id, "", after=seen)


def _stored_answers(db_path: Path) -> int:
    with sqlite3.connect(db_path) as db:
        return int(db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


@pytest.mark.parametrize("chat_type", ["group", "supergroup"])
async def test_learner_buttons_pressed_in_a_group_do_nothing_there(
    api: FakeBotApi, bot: QuizApplication, db_path: Path, chat_type: str
) -> None:
    learner = Learner(api, ADA)
    question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    group = api.group(-100777, "Study group", admins={ADA.id}, type=chat_type)
    target = await _bot_message_in(api, group)
    before = (target.text, target.edits, len(api.bot_messages(group.id)))
    own_answer = question.button_data()[0]  # the learner's real attempt: would reveal answers
    forged = [
        own_answer,
        callbacks.OpenQuiz(QUIZ_ID).encode(),
        callbacks.PreviewQuiz(QUIZ_ID).encode(),
        callbacks.ListQuizzes().encode(),
        callbacks.StartReview().encode(),
        callbacks.ChooseLanguage("yo").encode(),
        callbacks.ConfirmDraft(1).encode(),
    ]
    for data in forged:
        query = api.tap(ADA, target, data, forge=True)
        toast = await api.wait_for_answer(query)
        assert toast["text"] == WRONG_CHAT, data
    current = api.messages[(group.id, target.message_id)]
    assert (current.text, current.edits, len(api.bot_messages(group.id))) == before
    assert _stored_answers(db_path) == 0
    # the learner's own chat is untouched too: the question still waits, in English
    assert api.messages[(ADA.id, question.message_id)].reply_markup is not None
    toast, _ = await learner.choose(question, 0, "Question 2 of 8")
    assert toast["text"]  # in English: the language button did not act
    assert "Correct" in toast["text"] or "Not quite" in toast["text"]


async def test_group_buttons_pressed_in_a_private_chat_do_nothing(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    learner = Learner(api, ADA)
    question = await learner.send(f"/quiz {QUIZ_ID}", "Question 1 of 8")
    seen = len(learner.messages())
    group_taps = (
        callbacks.GroupAnswer(1, 0, 0),
        callbacks.GroupPick(1, 0, 0),
        callbacks.GroupSubmit(1, 0),
        callbacks.GroupReveal(1, 0),
    )
    for data in (tap.encode() for tap in group_taps):
        toast = await learner.tap(question, data, forge=True)
        assert toast["text"] == WRONG_CHAT
    current = api.messages[(ADA.id, question.message_id)]
    assert current.edits == 0 and current.reply_markup is not None
    assert len(learner.messages()) == seen
    assert _stored_answers(db_path) == 0


async def test_learner_buttons_pressed_in_a_channel_do_nothing_there(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    channel = api.group(-100888, "Study channel", admins=set(), type="channel")
    seen = len(api.bot_messages(channel.id))
    api.post_in_channel(channel, "/leaderboard")
    target = await api.wait_for_bot_message(channel.id, "", after=seen)
    for data in (callbacks.PreviewQuiz(QUIZ_ID).encode(), callbacks.ListQuizzes().encode()):
        query = api.tap(ADA, target, data, forge=True)
        assert (await api.wait_for_answer(query))["text"] == WRONG_CHAT
    assert len(api.bot_messages(channel.id)) == seen + 1
    assert api.messages[(channel.id, target.message_id)].edits == 0


STALE = "This button is no longer active."


async def test_buttons_out_of_their_place_do_nothing(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    """The chat type is right but the place is not: a posted question's button pressed on
    another message or in another chat, a group quiz's button of chat A pressed in chat B;
    data of exactly 64 bytes and of 65; and a tap on an inline message, which names no chat."""
    admin = Learner(api, ADA)
    bo = FakeUser(7102, "Bo", "en")
    configured = replace(settings, admin_ids=frozenset({ADA.id}), group_min_seconds=1)
    group_a = api.group(-100701, "A", admins={ADA.id})
    group_b = api.group(-100702, "B", admins={ADA.id})
    api.group(-100703, "news", admins=set(), type="channel")
    async with running_bot(configured):
        await admin.send(f"/push {QUIZ_ID} @news", "posted to @news")
        post = api.bot_messages(-100703)[-1]
        answer_post = post.button_data()[0]
        elsewhere = await _bot_message_in(api, group_b)
        seen = len(api.bot_messages(group_a.id))
        api.send_text(ADA, f"/groupquiz {QUIZ_ID} 60", group_a)
        question = await api.wait_for_bot_message(group_a.id, "Question 1 of", after=seen)
        for data, message in [
            (answer_post, elsewhere),  # a post's button on a message of another chat
            (answer_post, question),  # on a message of another chat that has buttons
            (answer_post, (await admin.send("/help", "/progress"))),  # in a private chat
            (question.button_data()[0], elsewhere),  # chat A's group quiz pressed in chat B
            (reveal_data(question), elsewhere),  # its Reveal too
        ]:
            toast = await api.wait_for_answer(api.tap(bo, message, data, forge=True))
            assert toast["text"] == STALE, (data, message.chat.id)
        longest = callbacks.GroupAnswer(10**17, 10**17, 10**17).encode()  # the longest kind
        assert len(longest) == 61
        for data, expected in [
            (longest, STALE),  # a group kind in a group: decoded, then no such session
            ("1:ls:" + "x" * 59, STALE),  # 64 bytes, not ours
            ("1:ls:" + "x" * 60, STALE),  # 65 bytes
            ("1:ls:" + "é" * 30, STALE),  # 65 bytes in 35 characters
        ]:
            toast = await api.wait_for_answer(api.tap(bo, elsewhere, data, forge=True))
            assert toast["text"] == expected, data
        for kind in callbacks.kinds():
            samples = ("1", "en", "Africa/Lagos")
            texts = [next(v for v in samples if f.pattern.fullmatch(v)) for f in kind.formats]
            data = ":".join([callbacks.VERSION, kind.prefix, *texts])
            tap = callbacks.decode(data)
            assert tap is not None, data
            toast = await api.wait_for_answer(api.tap_inline(bo, data))
            assert toast["text"] == WRONG_CHAT, data
    assert api.messages[(group_b.id, elsewhere.message_id)].edits == 0
    assert api.messages[(group_a.id, question.message_id)].edits == 0
    with sqlite3.connect(db_path) as db:
        # posted questions' answers are group answers (a post is a one-question group session)
        assert db.execute("SELECT COUNT(*) FROM group_answers").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)
