"""The rules of a learner's quiz attempt, as pure functions over plain data."""

from __future__ import annotations

import difflib
import random
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from datetime import timezone as dt_timezone
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from content.model import Quiz


def next_position(question_ids: Sequence[str], answered: Collection[str]) -> int | None:
    """0-based place of the first unanswered question of an attempt, None when all are done."""
    for position, question_id in enumerate(question_ids):
        if question_id not in answered:
            return position
    return None


@dataclass(frozen=True)
class Progress:
    """An attempt as its quiz is now: the items retired since it began count nowhere (not in
    "question k of n", not in what is left, not in the score). Every view of an attempt
    (the question, the resume notice, /quizzes, /progress, the summary) is read from here."""

    items: tuple[str, ...]  # the attempt's items that still count, in its order
    answered: frozenset[str]  # those of them answered

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def done(self) -> int:
        return len(self.answered)

    @property
    def next_item(self) -> str | None:
        return next((item for item in self.items if item not in self.answered), None)

    def number(self, item: str) -> int:
        """1-based place of an item that counts."""
        return self.items.index(item) + 1

    def with_answer(self, item: str) -> Progress:
        return Progress(self.items, self.answered | {item})


def attempt_progress(
    items: Sequence[str], answered: Collection[str], retired: Collection[str]
) -> Progress:
    counted = tuple(item for item in items if item not in retired)
    return Progress(counted, frozenset(item for item in answered if item in counted))


def attempt_order(quiz: Quiz, shuffle_by: str | None = None) -> tuple[str, ...]:
    """The questions an attempt asks, in order: the quiz's, or with `shuffle_by` an order of
    their own that this text always gives (a homework shuffled per learner)."""
    order = [question.id for question in quiz.questions]
    if shuffle_by is not None:
        random.Random(shuffle_by).shuffle(order)
    return tuple(order)


@dataclass(frozen=True)
class Summary:
    score: float  # partial credit counts: 2/3 right adds 2/3; a weight below 0 takes away
    total: int
    missed: tuple[str, ...]  # not fully right

    @property
    def percent(self) -> int:
        return round(100 * self.score / self.total) if self.total else 0


def summarize(question_ids: Sequence[str], credit_by_question: Mapping[str, float]) -> Summary:
    """Score of an attempt and the questions to review (not fully right), in quiz order.

    Each answer counts for its credit, -1 to 1 (content/grading.py; `True` counts 1): partial
    credit adds its share to the score, and the question is still worth another look; an
    option whose weight marks it down takes its share away, as Moodle sums the marks."""
    credits = [min(1.0, max(-1.0, float(credit_by_question.get(q, 0)))) for q in question_ids]
    missed = tuple(q for q, credit in zip(question_ids, credits, strict=True) if credit < 1)
    return Summary(score=_exact(sum(credits)), total=len(question_ids), missed=missed)


def _exact(score: float) -> float:
    """A sum of credits without floating-point dust: 1/3 + 2/3 is 1."""
    rounded = round(score, 9)
    return float(int(rounded)) if rounded == int(rounded) else rounded


def score_text(score: float) -> str:
    """A score as shown: 7, or 7.7 with partial credit (one decimal)."""
    shown = round(score, 1)
    return str(int(shown)) if shown == int(shown) else f"{shown:.1f}"


def resolve_language(chosen: str | None, telegram_code: str | None, default: str) -> str:
    """The learner's language: their own choice, else Telegram's (base code), else default."""
    if chosen:
        return chosen
    if telegram_code:
        return telegram_code.split("-")[0].lower()
    return default


def usual_language(
    learners: Iterable[tuple[str | None, str | None]], available: Collection[str], default: str
) -> str:
    """A group's language when its admins set none: the one most of its learners read (each
    their own choice, else Telegram's), among those the bot speaks; on a tie, or with no
    learner, the default."""
    counts = Counter(
        language
        for chosen, telegram in learners
        if (language := resolve_language(chosen, telegram, default)) in available
    )
    if not counts:
        return default
    most = max(counts.values())
    tied = sorted(language for language, n in counts.items() if n == most)
    return default if default in tied or len(tied) > 1 else tied[0]


def option_order(
    attempt_id: int, question_id: str, count: int, shuffle: bool = True
) -> tuple[int, ...]:
    """The order a learner sees the options in: shuffled per attempt, stable within it.

    Position i on screen shows option `order[i]` of the bank. Derived, never stored: the same
    attempt and question always give the same order.
    """
    order = list(range(count))
    if shuffle:
        random.Random(f"{attempt_id}:{question_id}").shuffle(order)
    return tuple(order)


def streak(study_days: Collection[int], today: int) -> int:
    """Consecutive days studied (day numbers), ending today or, before today's first answer,
    yesterday."""
    day = today if today in study_days else today - 1
    count = 0
    while day in study_days:
        count += 1
        day -= 1
    return count


def reminder_is_due(local_now: datetime, remind_at: time, last_reminded: date | None) -> bool:
    """A daily reminder is due once its time has passed today and today's was not sent."""
    if last_reminded is not None and last_reminded >= local_now.date():
        return False
    return local_now.time() >= remind_at


_CLOCK = re.compile(r"([0-9]{1,2}):([0-9]{2})")


_TWELVE = re.compile(r"([0-9]{1,2})(?:[:.]([0-9]{2}))?\s*([ap])\.?m\.?", re.IGNORECASE)


def parse_clock_time(text: str) -> time | None:
    """`HH:MM` on the 24-hour clock (`19:00`), or the 12-hour clock's `7pm`, `7:30 pm`,
    `12am` (midnight), `12pm` (noon) (ASCII digits) as a time, or None."""
    text = text.strip()
    match = _CLOCK.fullmatch(text)
    if match is not None:
        hour, minute = int(match.group(1)), int(match.group(2))
        return time(hour, minute) if hour <= 23 and minute <= 59 else None
    match = _TWELVE.fullmatch(text)
    if match is None:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if not 1 <= hour <= 12 or minute > 59:
        return None
    return time(hour % 12 + (12 if match.group(3).lower() == "p" else 0), minute)


_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-])([0-9]{1,2})(?::?([0-9]{2}))?", re.IGNORECASE)
MAX_ZONE_NAME = 64  # the longest IANA name has about 32 characters


@cache
def _zone_names() -> dict[str, str]:
    """IANA names of the form Area/Location, lower-cased, to the name (read once, ~80 ms)."""
    return {name.lower(): name for name in available_timezones() if "/" in name}


def parse_timezone(text: str) -> str | None:
    """A time zone as stored: an IANA name (`Africa/Lagos`, any case), `UTC`, or `UTC+01:00`;
    else None.

    Names are looked up in the list of zones tzdata provides, never as a path: a folder
    (`America/Indiana`), a path (`/etc/localtime`, `../x`) or `localtime` is no zone.
    Offsets take ASCII digits only.
    """
    text = text.strip()
    if text.upper() in {"UTC", "GMT", "Z"}:
        return "UTC"
    match = _OFFSET.fullmatch(text)
    if match:
        sign, hours, minutes = match.group(1), int(match.group(2)), int(match.group(3) or 0)
        if hours > 14 or minutes > 59:
            return None
        return f"UTC{sign}{hours:02d}:{minutes:02d}"
    if len(text) > MAX_ZONE_NAME:
        return None
    return _zone_names().get(text.lower())


def suggest_timezones(text: str, limit: int = 4) -> list[str]:
    """Zones a person may have meant by a name that is none (`Lagos`, `new york`,
    `Lagoss`): those whose place is that name, else whose name holds it, else whose place is
    spelled nearly so; at most `limit`, best first."""
    wanted = "_".join(text.strip().lower().split())[:MAX_ZONE_NAME]
    if len(wanted) < 3 or not wanted.isascii():
        return []
    names = _zone_names()
    place = {key: key.rsplit("/", 1)[-1] for key in names}
    found = sorted(key for key, city in place.items() if city == wanted)
    if not found:
        found = sorted(key for key in names if wanted in key)
    if not found:
        cities = sorted(set(place.values()))
        near = difflib.get_close_matches(wanted, cities, n=limit, cutoff=0.75)
        found = [key for city in near for key in sorted(k for k, c in place.items() if c == city)]
    return [names[key] for key in found[:limit]]


def zone(name: str | None) -> tzinfo:
    """The tzinfo of a stored time zone; UTC for None or anything unreadable."""
    if name and name.startswith("UTC") and len(name) == 9:
        sign = -1 if name[3] == "-" else 1
        return dt_timezone(sign * timedelta(hours=int(name[4:6]), minutes=int(name[7:9])))
    if name and name != "UTC":
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a folder, say
            pass
    return UTC
