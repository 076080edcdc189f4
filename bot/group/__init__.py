"""Quizzes for a whole chat (group, supergroup, channel): timed quizzes, quiz polls, posted
questions and their daily schedules.

The feature's face, as `bot/app.py` wires it: its handlers, its commands, and what it arms at
start."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.group import flow, posts
from bot.group.handlers import COMMANDS, handlers
from bot.group.upgrade import follow

__all__ = ["COMMANDS", "follow", "handlers", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """At start: the stored schedules armed, and the running sessions resumed (timers
    re-armed, unasked questions asked) as soon as the bot runs."""
    await posts.arm_schedules(jobs, services)
    jobs.run_once(flow.resume_job, when=0, name="group-resume")
