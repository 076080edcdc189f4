"""Homework for a group: a quiz set with a deadline, taken by each member in private through a
deep link, its results posted in the group at the deadline and its report sent to the teacher.

The feature's face, as `bot/app.py` wires it: its handlers, its commands, and what it arms at
start (the open homework's deadlines and reminders, the sweep that redraws their counts)."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.homework import flow
from bot.homework.handlers import COMMANDS, handlers

__all__ = ["COMMANDS", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    interval = services.settings.group_count_interval
    jobs.run_repeating(flow.sweep_counts, interval=interval, first=interval, name=flow.SWEEP_JOB)
    jobs.run_once(flow.resume, when=0, name="homework-resume")
