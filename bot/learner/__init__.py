"""A learner in a private chat: quizzes, review sessions, progress, reminders, /forgetme.

The feature's face, as `bot/app.py` wires it: its handlers, the commands it answers (sent in
a group, they are pointed to the private chat), and what it arms at start."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.learner import reminders
from bot.learner.flow import open_attempt
from bot.learner.handlers import COMMANDS, handlers

# `open_attempt` asks a private attempt another feature started (a review of what a member
# missed in a group, a homework): `bot/app.py` hands it to those features
__all__ = ["COMMANDS", "handlers", "open_attempt", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """At start: the sweep that sends the daily review reminders."""
    jobs.run_repeating(
        reminders.send_due_reminders,
        interval=reminders.SWEEP_SECONDS,
        first=reminders.SWEEP_SECONDS,
        name=reminders.JOB_NAME,
    )
