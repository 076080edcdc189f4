"""Command menus refused at start: nice to have, so one warning, the bot serves on, and a
JobQueue job tries again with backoff, a bounded number of times."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.core.i18n import STRINGS
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner

ADMIN = 4001


def _menu_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.app" and "menu" in r.getMessage()]


async def test_refused_command_menus_are_one_warning_and_retried(
    api: FakeBotApi, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = make_settings(api, db_path, admin_ids=frozenset({ADMIN}), commands_retry_seconds=0.2)
    api.fail("setMyCommands", 500, "Internal Server Error")
    api.fail("setMyCommands", 502, "Bad Gateway")
    api.fail("setMyCommands", 400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
    async with running_bot(settings):
        await Learner(api, FakeUser(2201, "Bisi", "en")).send("/start", "Hello, \u2068Bisi\u2069")
        # every scope in every language, once the refusals are over
        scopes = 3 * len(STRINGS)
        await api.wait_for(lambda: len(api.commands) == scopes, timeout=20)
    refused = [call for call in api.calls_to("setMyCommands") if not call.ok]
    assert len(refused) == 3
    private = [c["command"] for c in api.commands['{"type": "all_private_chats"}|']]
    assert private == list(PRIVATE_COMMANDS)
    group = [c["command"] for c in api.commands['{"type": "all_group_chats"}|']]
    assert group == list(GROUP_COMMANDS)
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
