"""The homework deadline parser: durations and local times, refusals, never a crash."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import assume, example, given
from hypothesis import strategies as st

from content.deadlines import (
    MAX_SECONDS,
    UNITS,
    DeadlineProblem,
    local_time,
    parse_deadline,
)
from content.rules import zone

NOW = 1_800_000_000.0  # 2027-01-15 08:00 UTC
ZONES = st.sampled_from(["UTC", "Africa/Lagos", "America/New_York", "Asia/Kolkata", "UTC+05:45"])


@given(st.integers(0, 9_999_999), st.sampled_from(sorted(UNITS)), st.booleans())
def test_a_duration_is_now_plus_that(number: int, unit: str, upper: bool) -> None:
    text = f"{number}{unit.upper() if upper else unit}"
    seconds = number * UNITS[unit]
    got = parse_deadline([text], NOW, "UTC", 60)
    if seconds == 0:
        assert got == DeadlineProblem("past")
    elif seconds < 60:
        assert got == DeadlineProblem("too_soon")
    elif seconds > MAX_SECONDS:
        assert got == DeadlineProblem("too_far")
    else:
        assert got == NOW + seconds


def test_the_examples_of_the_issue() -> None:
    assert parse_deadline(["90m"], NOW, None, 60) == NOW + 5400
    assert parse_deadline(["2h"], NOW, None, 60) == NOW + 7200
    assert parse_deadline(["3d"], NOW, None, 60) == NOW + 3 * 86400
    assert parse_deadline(["1m"], NOW, None, 60) == NOW + 60
    assert parse_deadline(["59s"], NOW, None, 60) == DeadlineProblem("too_soon")
    assert parse_deadline(["0m"], NOW, None, 60) == DeadlineProblem("past")
    assert parse_deadline(["3s"], NOW, None, 2) == NOW + 3  # tests lower the least
    for bad in (["soon"], ["-5m"], ["5 m"], ["٣m"], ["5m", "x"], [], ["2027-1-1", "10:00"]):
        assert parse_deadline(bad, NOW, None, 60) == DeadlineProblem("unreadable")
    assert parse_deadline(["2027-02-30", "10:00"], NOW, None, 60) == DeadlineProblem("unreadable")
    assert parse_deadline(["2027-01-15", "07:59"], NOW, "UTC", 60) == DeadlineProblem("past")
    lagos = parse_deadline(["2027-01-15", "10:00"], NOW, "Africa/Lagos", 60)
    assert lagos == NOW + 3600  # 10:00 in Lagos is 09:00 UTC
    # 02:30 on the morning the clocks go forward does not exist in New York
    gap = parse_deadline(["2027-03-14", "02:30"], NOW, "America/New_York", 60)
    assert gap == DeadlineProblem("no_such_time")


@given(st.datetimes(min_value=datetime(2027, 1, 16), max_value=datetime(2027, 12, 31)), ZONES)
def test_a_local_time_reads_back_as_written(wall: datetime, name: str) -> None:
    wall = wall.replace(second=0, microsecond=0)
    tz = zone(name)
    at = wall.replace(tzinfo=tz)
    assume(at.astimezone(UTC).astimezone(tz).replace(tzinfo=None) == wall)  # no clock change
    assume(at.timestamp() - NOW <= MAX_SECONDS)
    text = wall.strftime("%Y-%m-%d %H:%M")
    got = parse_deadline(text.split(" "), NOW, name, 60)
    assert isinstance(got, float) and local_time(got, name) == text
    assert datetime.fromtimestamp(got, tz).replace(tzinfo=None) == wall
    assert got == at.timestamp()  # the very instant written, whatever the zone


@given(st.lists(st.text(max_size=20), max_size=3), ZONES, st.integers(1, 3600))
def test_any_words_give_a_deadline_after_the_least_or_a_reason(
    words: list[str], name: str, least: int
) -> None:
    got = parse_deadline(words, NOW, name, least)
    if isinstance(got, DeadlineProblem):
        assert got.reason in {"unreadable", "past", "too_soon", "too_far", "no_such_time"}
    else:
        assert NOW + least <= got <= NOW + MAX_SECONDS


def test_the_ends_of_the_calendar_are_refused_not_overflowed() -> None:
    """0001-01-01 00:00 east of UTC is before year 1 in UTC, 9999-12-31 23:59 west of it after
    year 9999: Python cannot hold either instant. The usual refusals, no OverflowError."""
    for name in ("Africa/Lagos", "UTC+05:45", "Asia/Kolkata"):
        assert parse_deadline(["0001-01-01", "00:00"], NOW, name, 60) == DeadlineProblem("past")
    for name in ("America/New_York", "UTC-03:00"):
        got = parse_deadline(["9999-12-31", "23:59"], NOW, name, 60)
        assert got == DeadlineProblem("too_far")
    assert parse_deadline(["9999-12-31", "23:59"], NOW, "UTC", 60) == DeadlineProblem("too_far")
    assert parse_deadline(["0001-01-01", "00:00"], NOW, "UTC", 60) == DeadlineProblem("past")


@given(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59)),
    st.sampled_from(["UTC+14:00", "UTC-12:00", "Pacific/Kiritimati", "Etc/GMT+12"]),
)
@example(datetime(1, 1, 1), "UTC+14:00")
@example(datetime(9999, 12, 31, 23, 59), "UTC-12:00")
def test_any_date_in_any_zone_gives_a_deadline_or_a_reason(wall: datetime, name: str) -> None:
    text = wall.strftime("%Y-%m-%d %H:%M").zfill(16)
    got = parse_deadline(text.split(" "), NOW, name, 60)
    assert isinstance(got, float | DeadlineProblem)
