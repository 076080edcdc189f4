"""A homework's deadline as a teacher writes it: a duration from now (`90m`, `2h`, `3d`; `s`
for seconds too) or a local date and time (`2026-12-24 18:00`, in the group's time zone).
Pure: the text, the time now and the zone in; the deadline (Unix time) or what is wrong out.
ASCII digits only; no input raises."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from content.rules import zone

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}
DURATION = re.compile(r"([0-9]{1,7})([smhd])")
LOCAL = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2})")
MAX_SECONDS = 366 * 86_400  # a school year and a bit


@dataclass(frozen=True)
class DeadlineProblem:
    """Why a deadline is refused: `unreadable`, `past`, `too_soon` (under the least, zero
    included), `too_far`, or `no_such_time` (a local time skipped by a clock change)."""

    reason: str


def parse_deadline(
    words: Sequence[str], now: float, timezone: str | None, min_seconds: int
) -> float | DeadlineProblem:
    text = " ".join(words)
    duration = DURATION.fullmatch(text.lower()) if text.isascii() else None
    if duration is not None:
        seconds = int(duration.group(1)) * UNITS[duration.group(2)]
        return _checked(now + seconds, now, min_seconds)
    local = LOCAL.fullmatch(text) if text.isascii() else None
    if local is None:
        return DeadlineProblem("unreadable")
    year, month, day, hour, minute = (int(part) for part in local.groups())
    tz = zone(timezone)
    try:
        wall = datetime(year, month, day, hour, minute)
    except ValueError:
        return DeadlineProblem("unreadable")
    at = wall.replace(tzinfo=tz)
    try:
        if at.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != wall:
            return DeadlineProblem("no_such_time")
        instant = at.timestamp()
    except OverflowError:  # before year 1 or after 9999 in UTC: the calendar's two ends
        return DeadlineProblem("past" if year == 1 else "too_far")
    return _checked(instant, now, min_seconds)


def _checked(deadline: float, now: float, min_seconds: int) -> float | DeadlineProblem:
    if deadline <= now:
        return DeadlineProblem("past")
    if deadline - now < max(min_seconds, 1):
        return DeadlineProblem("too_soon")
    if deadline - now > MAX_SECONDS:
        return DeadlineProblem("too_far")
    return float(int(deadline)) if deadline == int(deadline) else deadline


def local_time(deadline: float, timezone: str | None) -> str:
    """A deadline as the group reads it: `2026-12-24 18:00`."""
    return datetime.fromtimestamp(deadline, zone(timezone)).strftime("%Y-%m-%d %H:%M")
