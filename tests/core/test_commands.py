"""The commands' one declaration (bot/core/commands.py) and what follows from it: registration,
who may use each (checked by sending it as someone who may not), the menus' limits, the
README's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from telegram.ext import CommandHandler, ConversationHandler

from bot.__main__ import command_table, main
from bot.app import COMMANDS, build_application
from bot.config import Settings
from bot.core.commands import (
    MAX_DESCRIPTION,
    MAX_MENU,
    NAME_PATTERN,
    Audience,
    Command,
    Role,
    Where,
)
from bot.core.i18n import STRINGS
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner

ROOT = Path(__file__).resolve().parents[2]
TABLE = re.compile(
    r"<!-- the table is generated: python -m bot commands \(a test checks it\) -->\n"
    r"(?P<table>.*?)<!-- end of the generated table -->",
    re.DOTALL,
)
STRANGER = FakeUser(6101, "Stranger", "en")
GROUP_ID = -1006100


def test_the_readme_shows_the_generated_command_table() -> None:
    found = TABLE.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found is not None, "README.md has lost the markers of its command table"
    assert found["table"] == command_table(), "run `python -m bot commands` and paste its table"


def test_python_m_bot_commands_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["commands"]) == 0
    printed = capsys.readouterr().out
    assert printed == command_table()
    assert printed.count("\n") == len(COMMANDS) + 2 and "`/whoami`" in printed


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.name}-{c.who.value}")
def test_a_declaration_is_one_telegram_can_take_in_every_language(command: Command) -> None:
    assert re.fullmatch(NAME_PATTERN, command.name)
    for language, strings in STRINGS.items():
        description = strings.get(command.description_key)
        assert description, f"{language}: no {command.description_key}"
        assert 1 <= len(description) <= MAX_DESCRIPTION
    assert "<" not in command.example and command.example.count("{") <= 1


def test_one_name_is_declared_once_per_chat_and_each_description_is_its_own() -> None:
    for place in Where:
        names = [c.name for c in COMMANDS if c.where & place]
        assert len(names) == len(set(names)), place
    keys = [c.description_key for c in COMMANDS]
    assert len(keys) == len(set(keys))
    for audience in Audience:
        assert len(audience.commands(COMMANDS)) <= MAX_MENU


def test_every_declaration_is_registered_where_it_is_declared(settings: Settings) -> None:
    application = build_application(settings)
    registered: dict[str, list[object]] = {}
    for handler in application.handlers[0]:
        inner = handler.entry_points if isinstance(handler, ConversationHandler) else [handler]
        for each in inner:
            if isinstance(each, CommandHandler):
                for name in each.commands:
                    registered.setdefault(name, []).append(
                        getattr(each.callback, "__wrapped__", each.callback)
                    )
    for command in COMMANDS:
        assert command.callback in registered.get(command.name, []), command.name


ADMIN_REFUSAL = "Sorry, that command is for the bot's admins"
CHAT_ADMIN_REFUSAL = "Only the chat's admins can do that."
TEACHER_REFUSAL = "That is for teachers"


async def test_each_command_refuses_those_its_declaration_leaves_out(
    api: FakeBotApi, settings: Settings
) -> None:
    """Every bot admin's command sent by someone else in private, every chat admin's command
    sent by a member in a group, every teacher's command sent in private by someone who
    administers no chat the bot is in: refused politely, as the declaration says."""
    group = api.group(GROUP_ID, "class", admins=set())
    async with running_bot(settings):
        learner = Learner(api, STRANGER)
        for command in COMMANDS:
            if command.who is Role.BOT_ADMIN:
                refusal = await learner.send(f"/{command.name}", ADMIN_REFUSAL)
                # what a would-be admin needs to become one: their id, and where it goes
                assert f"Your Telegram id is {STRANGER.id}" in refusal.text
                assert "QUIZ_ADMIN_IDS" in refusal.text
            elif command.who is Role.CHAT_ADMIN:
                seen = len(api.bot_messages(GROUP_ID))
                api.send_text(STRANGER, f"/{command.name}", group)
                await api.wait_for_bot_message(GROUP_ID, CHAT_ADMIN_REFUSAL, after=seen)
            elif command.who is Role.TEACHER:
                refusal = await learner.send(f"/{command.name}", TEACHER_REFUSAL)
                # what would make them one: the bot in their group, they its admin
                assert "add me to your group" in refusal.text and "admins" in refusal.text
