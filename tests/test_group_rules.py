"""Unit tests of content/group_rules.py: scoring, ranking, control, pacing of redraws."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from content.group_rules import (
    SendPace,
    answer_open,
    count_edit_wait,
    may_control,
    points,
    rank,
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


def test_answers_count_until_the_deadline_or_the_reveal() -> None:
    assert answer_open(10.0, 10.0, revealed=False)
    assert not answer_open(10.1, 10.0, revealed=False)
    assert not answer_open(5.0, 10.0, revealed=True)


def test_count_edits_keep_an_interval() -> None:
    assert count_edit_wait([], None, 100.0) == 0
    assert count_edit_wait([99.0], 99.0, 100.0) == pytest.approx(2.0)
    assert count_edit_wait([90.0], 90.0, 100.0) == 0


def test_count_edits_leave_the_reserve_free() -> None:
    # 15 sends in the window (20 - 5 reserved): the next redraw waits for the oldest to age out
    recent = [float(t) for t in range(40, 55)]
    assert count_edit_wait(recent, None, 60.0) == pytest.approx(40.0)
    assert count_edit_wait(recent[1:], None, 60.0) == 0


def test_send_pace_never_lets_redraws_push_a_chat_past_20_a_minute() -> None:
    """Simulate a busy chat: a question and a reveal every 10 s, redraws whenever allowed."""
    pace = SendPace()
    sends: list[float] = []
    now = 0.0
    while now < 600:
        if now % 10 == 0:  # the essential sends: question and reveal
            pace.record(-1, now)
            sends.append(now)
        if pace.count_edit_wait(-1, now) == 0:
            pace.record(-1, now, count_edit=True)
            sends.append(now)
        now += 0.5
    for start in sends:
        assert len([t for t in sends if start <= t < start + 60]) <= 20
    assert len(sends) > 60  # the count was still redrawn, just paced
