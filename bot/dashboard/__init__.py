"""The teacher's dashboard: a Telegram Mini App served by the bot itself (`/app/`), with the
classes a person administers, their homework and group quizzes, and the learner × question
grid, a quiz's report, the weeks. `/dashboard` opens it; bot/serving/dashboard.py serves it.

The feature's face, as `bot/app.py` wires it: its handlers, its command, and `lend` for the
reports and the bank's files it borrows."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.dashboard.exports import Banks, Reports, lend
from bot.dashboard.handlers import COMMANDS, handlers

__all__ = ["COMMANDS", "Banks", "Reports", "handlers", "lend", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """Nothing to arm."""
