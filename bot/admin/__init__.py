"""The bot's admins editing content: /import, /export, /addquestion, /collect, /delquestion,
/stats.

The feature's face, as `bot/app.py` wires it: its handlers, its commands, what it does at
start, and the bank's files `/export` makes (the dashboard offers them to the bot's admins)."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.admin import stored_banks
from bot.admin.exporting import bank_file, export_quiz
from bot.admin.handlers import COMMANDS, handlers
from bot.core.context import Services

__all__ = ["COMMANDS", "bank_file", "export_quiz", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """At start: the banks changed through the bot, from SQLite, over the files' banks."""
    await stored_banks.load_stored_banks(services)
