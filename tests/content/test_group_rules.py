"""Unit tests of content/group_rules.py: scoring, ranking, control, the rule of redraws."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from content.group_rules import (
    count_edit_wait,
    may_control,
    peak_per_minute,
    points,
    rank,
    upcoming_sends,
)


def test_points_fall_from_1000_to_500_over_the_question() -> None:
    assert points(True, 0, 20) == 1000
    assert points(True, 10, 20) == 750
    assert points(True, 20, 20) == 500
    assert points(True, 5, 20) == 875


def test_points_are_zero_when_wrong_and_clamped_outside_the_window() -> None:
    assert points(False, 0, 20) == 0
    assert points(True, -3, 20) == 1000
    assert points(True, 99, 20) == 500
    assert points(True, 1, 0) == 1000


@dataclass(frozen=True)
class Row:
    user_id: int
    points: int
    total_time: float


def test_rank_by_points_then_less_time_then_user_id() -> None:
    rows = [Row(1, 900, 5.0), Row(2, 1500, 9.0), Row(3, 900, 3.0), Row(4, 900, 3.0)]
    assert [r.user_id for r in rank(rows)] == [2, 3, 4, 1]


ADMINS = frozenset({42})


@pytest.mark.parametrize(
    ("chat_type", "user_id", "status", "sender_chat_id", "allowed"),
    [
        ("supergroup", 7, "administrator", None, True),
        ("supergroup", 7, "creator", None, True),
        ("supergroup", 7, "member", None, False),
        ("supergroup", 7, "restricted", None, False),
        ("supergroup", 7, None, None, False),
        ("supergroup", 42, "member", None, True),  # a configured admin
        ("supergroup", None, None, -100, True),  # an anonymous admin: sent as the group
        ("supergroup", None, None, -555, False),  # sent as another channel
        ("channel", None, None, -100, True),  # a post in the channel itself
        ("channel", 7, "member", None, False),  # a subscriber's tap
    ],
)
def test_who_may_control(
    chat_type: str, user_id: int | None, status: str | None, sender_chat_id: int | None,
    allowed: bool,
) -> None:  # fmt: skip
    assert (
        may_control(
            chat_type=chat_type,
            user_id=user_id,
            member_status=status,
            sender_chat_id=sender_chat_id,
            chat_id=-100,
            configured_admins=ADMINS,
        )
        is allowed
    )


def test_count_edits_keep_an_interval() -> None:
    assert count_edit_wait([], None, 100.0) == 0
    assert count_edit_wait([99.0], 99.0, 100.0) == pytest.approx(2.0)
    assert count_edit_wait([90.0], 90.0, 100.0) == 0


def test_count_edits_leave_room_for_what_cannot_wait() -> None:
    recent = [float(t) for t in range(40, 54)]  # 14 sends in the last minute
    assert count_edit_wait(recent, None, 60.0) == 0  # 14 + 1 <= 17
    assert count_edit_wait(recent, None, 60.0, upcoming=[70.0, 70.0]) == 0  # 17
    assert count_edit_wait(recent, None, 60.0, upcoming=[70.0, 70.0, 80.0]) > 0  # 18
    # far enough ahead, the old sends have left the window
    assert count_edit_wait(recent, None, 60.0, upcoming=[115.0] * 6) == 0


def test_upcoming_sends_and_peaks() -> None:
    assert upcoming_sends(10.0, 30, 0.0) == [10.0, 10.0, 40.0, 40.0]
    assert upcoming_sends(-5.0, 60, 0.0) == [0.0, 0.0]
    assert len(upcoming_sends(5.0, 10, 0.0)) == 12
    assert peak_per_minute([0, 10, 59.9, 60, 61]) == 4
    assert peak_per_minute([]) == 0
