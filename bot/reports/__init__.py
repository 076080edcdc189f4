"""What a group quiz leaves behind for its teacher and its members: the review of what a member
missed (a deep link on the final results), `/report` (CSV, summary, chart).

The feature's face, as `bot/app.py` wires it: its handlers and its commands."""

from __future__ import annotations

from typing import Any

from telegram.ext import JobQueue

from bot.core.context import Services
from bot.reports.flow import report_file, send_session_report
from bot.reports.handlers import COMMANDS, handlers

__all__ = ["COMMANDS", "handlers", "report_file", "send_session_report", "start"]


async def start(jobs: JobQueue[Any], services: Services) -> None:
    """Nothing to arm: reports are made when asked for."""
