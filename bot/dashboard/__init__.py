"""The teacher's dashboard: a Telegram Mini App served by the bot itself (`/app/`), with the
classes a person administers, their homework and group quizzes, and the learner × question
grid. `/dashboard` opens it; bot/dashboard/server.py serves it.

The feature's face, as `bot/app.py` wires it: its handlers and its command."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.dashboard.handlers import COMMANDS, handlers

__all__ = ["COMMANDS", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """Nothing to arm."""
