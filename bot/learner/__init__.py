"""A learner in a private chat: quizzes, exams, review sessions, progress, reminders,
/forgetme.

The feature's face, as `bot/app.py` wires it: its handlers, the commands it answers (sent in
a group, they are pointed to the private chat), and what it arms at start."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.learner import exams, flow, reminders
from bot.learner.handlers import COMMANDS, handlers

__all__ = ["COMMANDS", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """At start: the sweep that sends the daily review reminders; every running exam's time
    limit re-armed; the learner's sessions lent to the features that start private
    attempts."""
    services.open_attempt = flow.open_attempt
    services.homework_exams = exams.HOMEWORK_EXAMS
    await exams.resume(jobs, services)
    jobs.run_repeating(
        reminders.send_due_reminders,
        interval=reminders.SWEEP_SECONDS,
        first=reminders.SWEEP_SECONDS,
        name=reminders.JOB_NAME,
    )
