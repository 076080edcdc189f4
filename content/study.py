"""What a learner's study looks like from their cards, in their time zone: when a card comes
back, how many cards are new, learning, young or mature, the reviews due per day ahead, and
the day's bounds. Pure: cards and clocks in, numbers out.

The words are the bot's (bot/learner/render.py); here are only the rules:
- a card comes back in minutes under an hour, in hours later the same local day, "tomorrow"
  on the next local date, then in days (under 60), months (under two years), years;
- a card is learning while FSRS has it in Learning or Relearning, young in Review with an
  interval under 21 days, mature from 21 days (Anki's line); a question of a quiz the learner
  has started but never answered is new;
- the forecast counts each card on the local day it is due, an overdue card today.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from content import spacing

MATURE_DAYS = 21.0
FORECAST_DAYS = 30
RETENTION_DAYS = 30
AHEAD_DAYS = 3  # "Review ahead": the cards due within this many days
FORGOTTEN_DAYS = 7  # "Review what I forgot lately": the cards lapsed within this many days


@dataclass(frozen=True)
class ComesBack:
    """When a card is due, in words to come: `unit` is minutes, hours, tomorrow, days,
    months or years, and `n` how many."""

    unit: str
    n: int


def comes_back(due: float, now: float, tz: tzinfo) -> ComesBack:
    """When a card due at `due` comes back, seen from `now` in the learner's time zone."""
    minutes = max(1, round((due - now) / 60))
    if minutes < 60:
        return ComesBack("minutes", minutes)
    days = (datetime.fromtimestamp(due, tz).date() - datetime.fromtimestamp(now, tz).date()).days
    if days <= 0:
        return ComesBack("hours", max(1, round(minutes / 60)))
    if days == 1:
        return ComesBack("tomorrow", 1)
    if days < 60:
        return ComesBack("days", days)
    if days < 730:
        return ComesBack("months", round(days / 30.44))
    return ComesBack("years", round(days / 365.25))


@dataclass(frozen=True)
class CardCounts:
    new: int
    learning: int
    young: int
    mature: int


def card_counts(cards: Iterable[str], unseen: int) -> CardCounts:
    """The learner's cards (FSRS JSON) by kind; `unseen`: the questions never answered of the
    quizzes they started (new cards)."""
    learning = young = mature = 0
    for card_json in cards:
        state = spacing.card_state(card_json)
        if state.learning:
            learning += 1
        elif state.interval_days < MATURE_DAYS:
            young += 1
        else:
            mature += 1
    return CardCounts(unseen, learning, young, mature)


def local_date(moment: float, tz: tzinfo) -> date:
    return datetime.fromtimestamp(moment, tz).date()


def day_start(moment: float, tz: tzinfo) -> float:
    """The start of the learner's local day that holds `moment`, as a timestamp."""
    return datetime.combine(local_date(moment, tz), time(), tz).timestamp()


def day_end(moment: float, tz: tzinfo) -> float:
    """The end of the learner's local day that holds `moment` (the next day's start)."""
    return datetime.combine(local_date(moment, tz) + timedelta(days=1), time(), tz).timestamp()


def forecast(dues: Iterable[float], now: float, tz: tzinfo, days: int = FORECAST_DAYS) -> list[int]:
    """Reviews due per local day, today first (an overdue card counts today), for `days`."""
    today = local_date(now, tz)
    counts = [0] * days
    for due in dues:
        offset = max(0, (local_date(due, tz) - today).days)
        if offset < days:
            counts[offset] += 1
    return counts


def retention_percent(right: int, reviewed: int) -> int | None:
    """The share of right answers, in whole percent; None with nothing reviewed."""
    return round(100 * right / reviewed) if reviewed else None
