"""/help per person: each sees what they may use where they are, by task, each command with an
example; long lists become topics with buttons. /whoami: a person's id, and the chat's to its
admins."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.harness import SEED, make_settings, running_bot
from tests.support.learner import Learner

ADMIN = FakeUser(5101, "Funmi", "en")
LEARNER = FakeUser(5102, "Bisi", "en")
TEACHER = FakeUser(5103, "Tayo", "en")
MEMBER = FakeUser(5104, "Dayo", "en")
GROUP_ID = -1005100

# the commands each person may use, and those they may not (never shown to them)
LEARNER_SEES = ("/quizzes", "/quiz", "/review", "/progress", "/remind", "/whoami", "/help")
ADMIN_ONLY = ("/import", "/export", "/addquestion", "/push", "/schedule", "/stats", "/collect")
CHAT_ADMIN_ONLY = ("/groupquiz", "/stopquiz", "/skip", "/assign", "/unassign", "/report")
TEACHER_ONLY = ("/dashboard", "/assign")  # in private: for the admins of a group the bot is in


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path) -> Settings:
    return make_settings(api, db_path, admin_ids=frozenset({ADMIN.id}))


def _topics(message: Message) -> dict[str, str]:
    return {button["text"]: button["callback_data"] for button in message.buttons}


async def _page(api: FakeBotApi, user: FakeUser, message: Message, topic: str) -> str:
    """Tap a topic of /help; the message's text once it shows that topic."""
    edits = api.messages[(message.chat.id, message.message_id)].edits
    data = _topics(api.messages[(message.chat.id, message.message_id)])[topic]
    await api.wait_for_answer(api.tap(user, message, data))
    await api.wait_for(lambda: api.messages[(message.chat.id, message.message_id)].edits > edits)
    return api.messages[(message.chat.id, message.message_id)].text


def _words(text: str) -> set[str]:
    return {word.strip(".,:;()") for word in text.split()}


async def test_a_learner_sees_the_learners_commands_by_topic_with_an_example_each(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    help_ = await Learner(api, LEARNER).send("/help", "/progress")
    assert set(LEARNER_SEES) <= _words(help_.text)
    assert not (set(ADMIN_ONLY) | set(CHAT_ADMIN_ONLY) | set(TEACHER_ONLY)) & _words(help_.text)
    # the teachers' commands are not a learner's: no topic of homework and reports
    assert list(_topics(help_)) == ["📚 Study", "⚙️ Settings"]
    study = await _page(api, LEARNER, help_, "📚 Study")
    assert f"/quiz {SEED}" in study and f"/preview {SEED}" in study  # the examples
    assert "/remind" not in study  # another topic's
    assert list(_topics(api.messages[(LEARNER.id, help_.message_id)])) == ["⬅️ All topics"]
    settings_page = await _page(api, LEARNER, help_, "⬅️ All topics")
    assert settings_page == help_.text
    assert "/remind 19:00" in await _page(api, LEARNER, help_, "⚙️ Settings")
    await _page(api, LEARNER, help_, "⬅️ All topics")
    assert "/dashboard" not in await _page(api, LEARNER, help_, "⚙️ Settings")


async def test_a_bot_admin_sees_the_admins_and_the_group_commands_too(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    help_ = await Learner(api, ADMIN).send("/help", "/import")
    assert set(ADMIN_ONLY) | set(CHAT_ADMIN_ONLY) | set(LEARNER_SEES) <= _words(help_.text)
    assert "🗂 Quizzes and questions" in _topics(help_)
    group_page = await _page(api, ADMIN, help_, "🎯 Quizzes in groups")
    assert f"/groupquiz {SEED} 30 poll" in group_page  # poll mode, by example
    assert "in a group" in group_page
    posting = await _page(
        api, ADMIN, await Learner(api, ADMIN).send("/help", "/push"), "🎯 Quizzes in groups"
    )
    assert f"/push {SEED} @mychannel" in posting


async def test_in_a_group_members_see_theirs_and_admins_see_the_admins_commands(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    group = api.group(GROUP_ID, "class", admins={TEACHER.id})
    seen = len(api.bot_messages(GROUP_ID))
    api.send_text(MEMBER, "/help", group)
    member = await api.wait_for_bot_message(GROUP_ID, "/leaderboard", after=seen)
    assert {"/leaderboard", "/assignments", "/whoami"} <= _words(member.text)
    assert not set(CHAT_ADMIN_ONLY) & _words(member.text)
    assert "t.me/" in member.text  # where to take a quiz: the private chat
    seen = len(api.bot_messages(GROUP_ID))
    api.send_text(TEACHER, "/help", group)
    teacher = await api.wait_for_bot_message(GROUP_ID, "/groupquiz", after=seen)
    assert set(CHAT_ADMIN_ONLY) | {"/leaderboard", "/language", "/timezone"} <= _words(teacher.text)
    assert not set(ADMIN_ONLY) & _words(teacher.text)
    quiz_page = await _page(api, TEACHER, teacher, "🎯 Quizzes in groups")
    assert f"/groupquiz {SEED} 30 poll" in quiz_page and "/skip" in quiz_page
    await _page(api, TEACHER, teacher, "⬅️ All topics")
    homework = await _page(api, TEACHER, teacher, "📝 Homework and reports")
    assert f"/assign {SEED} 2d" in homework
    seen = len(api.bot_messages(GROUP_ID))
    api.send_anonymously(group, "/help")  # an anonymous admin is the group's admin
    await api.wait_for_bot_message(GROUP_ID, "/groupquiz", after=seen)


async def test_a_help_topic_button_forged_or_stale_changes_nothing(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    help_ = await Learner(api, LEARNER).send("/help", "/progress")
    for data in ("1:hp:nobody:study", "1:hp:learner:nothing"):
        toast = await api.wait_for_answer(api.tap(LEARNER, help_, data, forge=True))
        assert toast["text"] == "This button is no longer active."
    assert api.messages[(LEARNER.id, help_.message_id)].edits == 0


async def test_whoami_tells_a_person_their_id_and_an_admin_the_chats(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = await Learner(api, LEARNER).send("/whoami", "Your Telegram id")
    assert f"Your Telegram id: {LEARNER.id}" in learner.text
    assert "QUIZ_ADMIN_IDS" in learner.text  # how one becomes an admin
    admin = await Learner(api, ADMIN).send("/whoami", "Your Telegram id")
    assert f"{ADMIN.id}" in admin.text and "one of this bot's admins" in admin.text
    group = api.group(GROUP_ID, "class", admins={TEACHER.id})
    seen = len(api.bot_messages(GROUP_ID))
    api.send_text(MEMBER, "/whoami", group)
    member = await api.wait_for_bot_message(GROUP_ID, str(MEMBER.id), after=seen)
    assert str(GROUP_ID) not in member.text  # a member is not told the chat's id
    for who in (TEACHER, ADMIN):  # the chat's admin, and the bot's
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(who, "/whoami", group)
        reply = await api.wait_for_bot_message(GROUP_ID, str(who.id), after=seen)
        assert f"This chat's id: {GROUP_ID}" in reply.text
    seen = len(api.bot_messages(GROUP_ID))
    api.send_anonymously(group, "/whoami")
    anonymous = await api.wait_for_bot_message(GROUP_ID, "writing as a chat", after=seen)
    assert f"This chat's id: {GROUP_ID}" in anonymous.text
    assert "1087968824" not in anonymous.text  # not GroupAnonymousBot's id


async def test_a_learners_private_command_in_a_group_points_to_the_private_chat(
    api: FakeBotApi, settings: Settings
) -> None:
    group = api.group(GROUP_ID, "class", admins={TEACHER.id})
    async with running_bot(settings):
        for command in ("/quizzes", "/progress", "/forgetme"):
            seen = len(api.bot_messages(GROUP_ID))
            api.send_text(MEMBER, command, group)
            await api.wait_for_bot_message(GROUP_ID, "private chat", after=seen)


async def test_a_group_admin_reads_the_teachers_help_in_private_until_demoted(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    """Known as a teacher through the group (the bot added there learns its admins): private
    /help shows their private commands (/assign by the chat picker, /dashboard) and the group
    commands they run, each with an example; demoted, a learner's /help again."""
    group = api.group(GROUP_ID, "class", admins={TEACHER.id})
    group.bot_rights = {"can_manage_chat"}  # an admin: told of promotions
    teacher = Learner(api, TEACHER)
    before = await teacher.send("/help", "/progress")
    assert not set(TEACHER_ONLY) & _words(before.text)
    await teacher.send("/assign", "add me to your group or channel")  # not yet a teacher
    api.add_bot(group, by=TEACHER)
    await api.wait_for(lambda: "assign" in api.menu(TEACHER) or None)
    help_ = await teacher.send("/help", "/dashboard")
    assert "you run a group or a channel" in help_.text
    assert set(TEACHER_ONLY) | set(LEARNER_SEES) | {"/groupquiz"} <= _words(help_.text)
    assert not set(ADMIN_ONLY) & _words(help_.text)
    homework = await _page(api, TEACHER, help_, "📝 Homework and reports")
    assert f"/assign {SEED} 2d" in homework and "/dashboard" in homework
    assert "/unassign 1" in homework and "(in a group)" in homework  # run in the group
    await teacher.send("/assign", "Which quiz?")  # the picker form, no longer refused

    api.demote(group, TEACHER, by=MEMBER)
    await api.wait_for(lambda: "assign" not in api.menu(TEACHER) or None)
    after = await teacher.send("/help", "/progress")
    assert not set(TEACHER_ONLY) & _words(after.text)
