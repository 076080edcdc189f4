"""Spaced repetition and the tutor's pure rules, on a fake clock."""

from __future__ import annotations

from datetime import datetime, time

import pytest
from fsrs import Rating

from content import spacing
from content.rules import (
    option_order,
    parse_clock_time,
    parse_timezone,
    reminder_is_due,
    streak,
    zone,
)

T0 = 1_800_000_000.0  # a fixed "now"
MINUTE, DAY = 60.0, 86_400.0


def test_a_wrong_first_answer_comes_back_in_ten_minutes() -> None:
    card = spacing.review(None, correct=False, seconds_to_answer=5, now=T0)
    assert card.rating == Rating.Again
    assert card.due == T0 + 10 * MINUTE


def test_a_right_first_answer_comes_back_in_days_and_the_interval_grows() -> None:
    first = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    assert first.rating == Rating.Good
    first_interval = first.due - T0
    assert first_interval >= DAY
    second = spacing.review(first.card_json, correct=True, seconds_to_answer=60, now=first.due)
    assert second.rating == Rating.Good
    assert second.due - first.due > 2 * first_interval


def test_a_fast_right_answer_on_a_known_question_rates_easy_and_goes_further() -> None:
    known = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    fast = spacing.review(known.card_json, correct=True, seconds_to_answer=3, now=known.due)
    slow = spacing.review(known.card_json, correct=True, seconds_to_answer=60, now=known.due)
    assert fast.rating == Rating.Easy and slow.rating == Rating.Good
    assert fast.due > slow.due


def test_a_fast_answer_on_a_new_question_is_only_good() -> None:
    assert spacing.rating_for(True, 1.0, known=False) == Rating.Good
    assert spacing.rating_for(True, None, known=True) == Rating.Good
    assert spacing.rating_for(False, 1.0, known=True) == Rating.Again


def test_forgetting_a_known_question_relearns_in_ten_minutes() -> None:
    known = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    lapse = spacing.review(known.card_json, correct=False, seconds_to_answer=5, now=known.due)
    assert lapse.due == known.due + 10 * MINUTE


def test_mastery_needs_graduation_and_fades_with_time() -> None:
    missed = spacing.review(None, correct=False, seconds_to_answer=5, now=T0)
    assert not spacing.is_mastered(missed.card_json, T0 + MINUTE)
    known = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    assert spacing.is_mastered(known.card_json, T0 + MINUTE)
    assert spacing.retrievability(known.card_json, T0 + 30 * DAY) < 0.9
    assert not spacing.is_mastered(known.card_json, T0 + 30 * DAY)


def test_the_schedule_is_deterministic() -> None:
    one = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    two = spacing.review(None, correct=True, seconds_to_answer=60, now=T0)
    assert one == two


def test_option_order_is_a_stable_permutation_per_attempt() -> None:
    order = option_order(7, "mpp-1", 4)
    assert sorted(order) == [0, 1, 2, 3]
    assert option_order(7, "mpp-1", 4) == order
    assert len({option_order(attempt, "mpp-1", 4) for attempt in range(1, 40)}) > 1
    assert option_order(7, "mpp-1", 4, shuffle=False) == (0, 1, 2, 3)


def test_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    assert streak({10, 9, 8, 6}, today=10) == 3
    assert streak({9, 8}, today=10) == 2
    assert streak({8}, today=10) == 0
    assert streak(set(), today=10) == 0


def test_reminder_is_due_once_a_day_after_its_time() -> None:
    at = time(8, 0)
    assert not reminder_is_due(datetime(2026, 12, 2, 7, 59), at, None)
    assert reminder_is_due(datetime(2026, 12, 2, 8, 0), at, None)
    assert not reminder_is_due(datetime(2026, 12, 2, 9, 0), at, datetime(2026, 12, 2).date())
    assert reminder_is_due(datetime(2026, 12, 3, 8, 1), at, datetime(2026, 12, 2).date())


@pytest.mark.parametrize(
    ("text", "expected"),
    [("08:00", time(8, 0)), ("23:59", time(23, 59)), ("7:05", time(7, 5)),
     ("24:00", None), ("8", None), ("08:5", None), ("ab:cd", None), ("", None)],
)  # fmt: skip
def test_clock_times(text: str, expected: time | None) -> None:
    assert parse_clock_time(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Africa/Lagos", "Africa/Lagos"), ("+1", "UTC+01:00"), ("UTC-05:30", "UTC-05:30"),
     ("gmt", "UTC"), ("Mars/Base", None), ("../../etc/passwd", None), ("+15", None),
     ("Lagos", None)],
)  # fmt: skip
def test_time_zones(text: str, expected: str | None) -> None:
    assert parse_timezone(text) == expected


def test_zone_offsets_and_fallback() -> None:
    noon_utc = datetime.fromtimestamp(1_800_000_000 - 1_800_000_000 % 86_400 + 43_200, zone("UTC"))
    assert noon_utc.astimezone(zone("UTC+01:00")).hour == 13
    assert noon_utc.astimezone(zone("UTC-05:30")).strftime("%H:%M") == "06:30"
    assert noon_utc.astimezone(zone("Africa/Lagos")).hour == 13
    assert zone("nonsense") == zone(None) == zone("UTC")


def test_a_groups_usual_language_is_most_of_its_learners_else_the_default() -> None:
    from content.rules import usual_language

    available = {"en", "yo"}
    assert usual_language([], available, "en") == "en"
    assert usual_language([("yo", None), (None, "yo-NG"), ("en", None)], available, "en") == "yo"
    assert usual_language([("yo", None), ("en", None)], available, "en") == "en"  # a tie
    assert usual_language([(None, "fr"), (None, "fr"), ("yo", None)], available, "en") == "yo"
