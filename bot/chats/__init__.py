"""A group's own settings, set by its admins: the language the bot posts in there
(`/language`) and the time zone its homework deadlines are read in (`/timezone`).

The feature's face, as `bot/app.py` wires it: its handlers and its commands."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.chats.handlers import COMMANDS, handlers
from bot.core.context import Services

__all__ = ["COMMANDS", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """Nothing to arm."""
