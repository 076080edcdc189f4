"""The learner's study from their cards, pure (content/study.py), and FSRS on early reviews."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from content import spacing
from content.study import (
    ComesBack,
    card_counts,
    comes_back,
    day_end,
    day_start,
    forecast,
    retention_percent,
)

LAGOS = timezone(timedelta(hours=1))
MINUTE, HOUR, DAY = 60.0, 3600.0, 86_400.0
# 23:30 in Lagos (UTC+01:00) on 2026-03-10
LATE = datetime(2026, 3, 10, 23, 30, tzinfo=LAGOS).timestamp()


@pytest.mark.parametrize(
    ("wait", "expected"),
    [
        (10 * MINUTE, ComesBack("minutes", 10)),
        (20, ComesBack("minutes", 1)),  # never "in 0 min"
        (-5 * MINUTE, ComesBack("minutes", 1)),  # overdue: now
        (59 * MINUTE, ComesBack("minutes", 59)),
        (2 * HOUR, ComesBack("tomorrow", 1)),  # 01:30 the next local day
        (24 * HOUR, ComesBack("tomorrow", 1)),
        (25 * HOUR, ComesBack("days", 2)),
        (4 * DAY, ComesBack("days", 4)),
        (59 * DAY, ComesBack("days", 59)),
        (90 * DAY, ComesBack("months", 3)),
        (800 * DAY, ComesBack("years", 2)),
    ],
)
def test_when_a_card_comes_back_late_in_the_evening(wait: float, expected: ComesBack) -> None:
    assert comes_back(LATE + wait, LATE, LAGOS) == expected


def test_the_same_wait_is_hours_in_the_morning_and_tomorrow_late_at_night() -> None:
    morning = datetime(2026, 3, 10, 8, 0, tzinfo=LAGOS).timestamp()
    assert comes_back(morning + 5 * HOUR, morning, LAGOS) == ComesBack("hours", 5)
    assert comes_back(LATE + 5 * HOUR, LATE, LAGOS) == ComesBack("tomorrow", 1)
    # the same moment seen from UTC is still the same day there (22:30 + 1 h)
    assert comes_back(LATE + HOUR, LATE, UTC) == ComesBack("hours", 1)


def test_day_bounds_are_the_learners() -> None:
    assert datetime.fromtimestamp(day_start(LATE, LAGOS), LAGOS).hour == 0
    assert day_end(LATE, LAGOS) - day_start(LATE, LAGOS) == DAY
    assert day_start(LATE, UTC) != day_start(LATE, LAGOS)


def test_forecast_counts_each_card_on_its_local_day_and_overdue_today() -> None:
    dues = [LATE - DAY, LATE + 10 * MINUTE, LATE + 2 * HOUR, LATE + 3 * DAY, LATE + 40 * DAY]
    counts = forecast(dues, LATE, LAGOS, days=30)
    assert len(counts) == 30
    assert counts[0] == 2 and counts[1] == 1 and counts[3] == 1 and sum(counts) == 4


def test_cards_by_kind() -> None:
    T0 = 1_800_000_000.0
    learning = spacing.review(None, False, 5, T0).card_json
    young = spacing.review(None, True, 60, T0).card_json  # graduated, an interval of days
    mature = young
    for _ in range(6):  # right on time, again and again: the interval grows past 21 days
        due = spacing.review(mature, True, 60, T0).due
        mature = spacing.review(mature, True, 60, due).card_json
        T0 = due
    assert spacing.card_state(mature).interval_days >= 21
    counts = card_counts([learning, young, mature], unseen=4)
    assert (counts.new, counts.learning, counts.young, counts.mature) == (4, 1, 1, 1)


def test_retention_percent() -> None:
    assert retention_percent(0, 0) is None
    assert retention_percent(2, 3) == 67


def test_fsrs_schedules_an_early_review_from_its_retrievability() -> None:
    """Studying ahead: a card reviewed right a day into a long interval was still very likely
    recalled, so its stability grows less than when it is reviewed on time, and it comes back
    sooner than the on-time review would send it; both are Good reviews of a known card."""
    T0 = 1_800_000_000.0
    card = spacing.review(None, True, 60, T0)
    card = spacing.review(card.card_json, True, 60, card.due)  # on time: a longer interval
    due = card.due
    early_at = card.last_review + DAY
    assert spacing.retrievability(card.card_json, early_at) > spacing.retrievability(
        card.card_json, due
    )
    early = spacing.review(card.card_json, True, 60, early_at)
    on_time = spacing.review(card.card_json, True, 60, due)
    assert early.rating == on_time.rating  # Good, both (60 s: not fast enough for Easy)
    assert early.due - early_at < on_time.due - due  # the early one grew less
    assert early.due > due  # yet it still moved the card on
