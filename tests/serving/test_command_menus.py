"""Command menus: one complete list per scope and language, as Telegram shows them to each
person (the stand-in resolves scopes as Telegram does, never merging two); refused at start,
one warning, the bot serves on, and a JobQueue job tries again with backoff, a bounded number
of times; an admin who never wrote to the bot gets their menu when they first write."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.core.i18n import STRINGS
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import SEED, make_settings, running_bot
from tests.support.learner import Learner

ADMIN = FakeUser(4001, "Funmi", "en")
TEACHER = FakeUser(4002, "Tayo", "yo")
MEMBER = FakeUser(4003, "Bisi", "en")

LEARNER_MENU = [
    "start", "quizzes", "quiz", "exam", "review", "progress", "preview",
    "remind", "goal", "timezone", "language", "forgetme", "help", "whoami",
]  # fmt: skip
TEACHER_MENU = [*LEARNER_MENU[:7], "assign", "dashboard", *LEARNER_MENU[7:]]
BOT_ADMIN_MENU = [
    *LEARNER_MENU[:7], "push", "schedule", "assign", "report", "dashboard", "import", "export",
    "addquestion", "collect", "delquestion", "stats", *LEARNER_MENU[7:],
]  # fmt: skip
MEMBER_MENU = ["leaderboard", "assignments", "help", "whoami"]
CHAT_ADMIN_MENU = [
    "groupquiz", "stopquiz", "skip", "leaderboard", "assign", "assignments", "unassign",
    "report", "dashboard", "language", "timezone", "help", "whoami",
]  # fmt: skip


def _menu_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.core.menus" and "menu" in r.getMessage()]


async def test_each_person_sees_the_complete_menu_of_their_role_in_their_language(
    api: FakeBotApi, db_path: Path
) -> None:
    group = api.group(-1007, "class", admins={TEACHER.id})
    settings = make_settings(api, db_path, admin_ids=frozenset({ADMIN.id}))
    async with running_bot(settings):
        await api.wait_for(lambda: len(api.commands) == 5 * len(STRINGS))
    assert api.menu(MEMBER) == LEARNER_MENU
    assert api.menu(ADMIN) == BOT_ADMIN_MENU
    assert api.menu(MEMBER, group) == MEMBER_MENU
    assert api.menu(TEACHER, group) == CHAT_ADMIN_MENU  # in Yoruba, TEACHER's language
    yoruba = {
        c["command"]: c["description"] for c in api.commands['{"type": "all_private_chats"}|yo']
    }
    english = {
        c["command"]: c["description"] for c in api.commands['{"type": "all_private_chats"}|']
    }
    assert set(yoruba) == set(english) and yoruba["quiz"] != english["quiz"]
    admins = '{"type": "all_chat_administrators"}|yo'
    assert [c["command"] for c in api.commands[admins]] == CHAT_ADMIN_MENU
    assert not any(call for call in api.calls_to("setMyCommands") if not call.ok)


async def test_an_admin_who_never_wrote_gets_their_menu_when_they_first_write(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = make_settings(api, db_path, admins_wrote=False, admin_ids=frozenset({ADMIN.id}))
    async with running_bot(settings):
        await api.wait_for(lambda: len(api.commands) == 4 * len(STRINGS))
        assert api.menu(ADMIN) == LEARNER_MENU  # Telegram refused their own: chat not found
        await Learner(api, ADMIN).send("/whoami", str(ADMIN.id))
        await api.wait_for(lambda: api.menu(ADMIN) == BOT_ADMIN_MENU)
        await Learner(api, ADMIN).send("/help", "/import")
    chat_scopes = [c for c in api.calls_to("setMyCommands") if c.params["scope"]["type"] == "chat"]
    assert [c.ok for c in chat_scopes] == [False] + [True] * len(STRINGS)  # not again after
    assert not [r for r in _menu_records(caplog) if r.levelno >= logging.WARNING]


async def test_refused_command_menus_are_one_warning_and_retried(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = make_settings(api, db_path, commands_retry_seconds=0.2)
    api.fail("setMyCommands", 500, "Internal Server Error")
    api.fail("setMyCommands", 502, "Bad Gateway")
    api.fail("setMyCommands", 400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
    async with running_bot(settings):
        await Learner(api, MEMBER).send("/start", "Hello, \u2068Bisi\u2069")
        # every scope in every language, once the refusals are over
        await api.wait_for(lambda: len(api.commands) == 4 * len(STRINGS), timeout=20)
    refused = [call for call in api.calls_to("setMyCommands") if not call.ok]
    assert len(refused) == 3
    assert api.menu(MEMBER) == LEARNER_MENU
    records = _menu_records(caplog)
    warnings = [r for r in records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in records]
    assert "retry" in warnings[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert any(r.levelno == logging.INFO and "set" in r.getMessage() for r in records)


async def test_command_menus_give_up_after_a_bounded_number_of_tries(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = make_settings(api, db_path, commands_retry_seconds=0.01, commands_retries=3)
    api.fail("setMyCommands", 500, "Internal Server Error", times=50)
    async with running_bot(settings):
        await api.wait_for(lambda: any("gave up" in r.getMessage() for r in _menu_records(caplog)))
        await Learner(api, FakeUser(2202, "Dayo", "en")).send("/start", "Hello, \u2068Dayo\u2069")
    assert len(api.calls_to("setMyCommands")) == 1 + 3
    assert len([r for r in _menu_records(caplog) if r.levelno >= logging.WARNING]) == 2


APP_URL = "https://quiz.example.org/app/"
OWNER = FakeUser(4004, "Kemi", "en")
CHAT_SCOPE = '{{"chat_id": {}, "type": "chat"}}|{}'


async def test_a_teacher_gets_their_menu_and_the_dashboard_button_until_they_are_demoted(
    api: FakeBotApi, db_path: Path
) -> None:
    """An admin of a group the bot is added to gets, in private, the teachers' menu (every
    language) and the dashboard on the menu button; demoted, Telegram's defaults again. The
    learners' menus and buttons are never touched."""
    group = api.group(-1007, "class", admins={OWNER.id, TEACHER.id})
    group.bot_rights = {"can_manage_chat"}  # an admin: Telegram tells it who is promoted
    settings = make_settings(api, db_path, admin_ids=frozenset({ADMIN.id}), app_url=APP_URL)
    teacher, member = Learner(api, TEACHER), Learner(api, MEMBER)
    async with running_bot(settings):
        await teacher.send("/start", "Tayo")
        await member.send("/start", "Bisi")
        await api.wait_for(lambda: api.menu(ADMIN) == BOT_ADMIN_MENU or None)
        assert api.menu(TEACHER) == LEARNER_MENU and api.menu_button(TEACHER)["type"] == "default"
        button = {"type": "web_app", "text": "Dashboard", "web_app": {"url": APP_URL}}
        assert api.menu_button(ADMIN) == button  # the bot's admins: the app from the button

        api.add_bot(group, by=OWNER)
        await api.wait_for(lambda: api.menu_button(TEACHER) == button or None)
        assert api.menu(TEACHER) == TEACHER_MENU  # set before the button
        for language in ("", "yo"):
            found = api.commands[CHAT_SCOPE.format(TEACHER.id, language)]
            assert [c["command"] for c in found] == TEACHER_MENU
        assert api.menu(MEMBER) == LEARNER_MENU and api.menu_button(MEMBER)["type"] == "default"
        # OWNER never wrote to the bot (Telegram knows no private chat): at their first message
        assert api.menu_button(OWNER)["type"] == "default"
        await Learner(api, OWNER).send("/start", "Kemi")
        await api.wait_for(lambda: api.menu(OWNER) == TEACHER_MENU or None)

        api.demote(group, TEACHER, by=OWNER)
        await api.wait_for(lambda: api.menu(TEACHER) == LEARNER_MENU or None)
        await api.wait_for(lambda: api.menu_button(TEACHER)["type"] == "default" or None)
        assert CHAT_SCOPE.format(TEACHER.id, "yo") not in api.commands
        assert api.menu(OWNER) == TEACHER_MENU
    assert not [c for c in api.calls_to("setChatMenuButton") if not c.ok]
    assert not [c for c in api.calls_to("setMyCommands") if not c.ok]  # not tried too early


async def test_teachers_known_from_an_earlier_run_get_their_menu_at_start(
    api: FakeBotApi, db_path: Path
) -> None:
    group = api.group(-1007, "class", admins={TEACHER.id})
    settings = make_settings(api, db_path, app_url=APP_URL)
    teacher = Learner(api, TEACHER)
    async with running_bot(settings):
        await teacher.send("/start", "Tayo")
        api.add_bot(group, by=TEACHER)
        await api.wait_for(lambda: api.menu(TEACHER) == TEACHER_MENU or None)
    api.commands.clear()  # as if the menus had been lost: the next start sets them again
    api.menu_buttons.clear()
    async with running_bot(settings):
        await api.wait_for(lambda: api.menu(TEACHER) == TEACHER_MENU or None)
        await api.wait_for(lambda: api.menu_button(TEACHER)["type"] == "web_app" or None)


async def test_the_admins_of_a_chat_the_bot_was_in_before_it_kept_them_are_asked_for_at_start(
    api: FakeBotApi, db_path: Path
) -> None:
    group = api.group(-1007, "class", admins={TEACHER.id})
    settings = make_settings(api, db_path, admin_ids=frozenset({ADMIN.id}))
    async with running_bot(settings):
        await Learner(api, TEACHER).send("/start", "Tayo")
        api.send_text(ADMIN, f"/assign {SEED} 2d", group)  # the bot's admin: no chat admin seen
        await api.wait_for_bot_message(group.id, "Homework #1")
    assert api.menu(TEACHER) == LEARNER_MENU and not api.calls_to("getChatAdministrators")
    async with running_bot(settings):
        await api.wait_for(lambda: api.menu(TEACHER) == TEACHER_MENU or None)
    assert len(api.calls_to("getChatAdministrators")) == 1
