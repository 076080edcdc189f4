"""A learner in a private chat: quizzes, exams, review sessions, progress, reminders,
/forgetme.

The feature's face, as `bot/app.py` wires it: its handlers, the commands it answers (sent in
a group, they are pointed to the private chat), and what it arms at start."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.learner import exams, reminders
from bot.learner.exams import open_homework_exam
from bot.learner.flow import open_attempt
from bot.learner.handlers import COMMANDS, handlers

# `open_attempt` asks a private attempt another feature started (a review of what a member
# missed in a group, a homework), `open_homework_exam` an exam homework's exam: `bot/app.py`
# hands them to those features
__all__ = ["COMMANDS", "handlers", "open_attempt", "open_homework_exam", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """At start: the sweep that sends the daily review reminders; every running exam's time
    limit re-armed."""
    await exams.resume(jobs, services)
    jobs.run_repeating(
        reminders.send_due_reminders,
        interval=reminders.SWEEP_SECONDS,
        first=reminders.SWEEP_SECONDS,
        name=reminders.JOB_NAME,
    )
