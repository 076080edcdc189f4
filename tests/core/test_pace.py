"""What the bot remembers of each group between updates (bot/core/pace.py): its recent sends,
to pace the live counts' redraws, and the count each open question shows; both bounded."""

from __future__ import annotations

import pytest

from bot.core.pace import WINDOW, SendPace, ShownCounts
from content.group_rules import COUNT_EDIT_INTERVAL, upcoming_sends


@pytest.mark.parametrize("seconds", [5, 10, 15, 30, 60])
def test_send_pace_never_lets_redraws_push_a_chat_past_20_a_minute(seconds: int) -> None:
    """A busy chat: a reveal and the next question every `seconds`, an answer every 0.5 s."""
    pace = SendPace()
    sends: list[float] = []
    edits = 0
    now = 0.0
    deadline = float(seconds)
    while now < 600:
        if now >= deadline:  # what cannot wait: the reveal, then the next question
            for _ in range(2):
                pace.record(-1, now)
                sends.append(now)
            deadline += seconds
        if pace.count_edit_wait(-1, now, upcoming_sends(deadline, seconds, now)) == 0:
            pace.record(-1, now, count_edit=True)
            sends.append(now)
            edits += 1
        now += 0.5
    peak = max(len([t for t in sends if start <= t < start + 60]) for start in sends)
    if seconds >= 10:  # the shortest a /groupquiz question may be
        assert peak <= 20
        assert edits >= 40  # the count was still redrawn, just paced
    else:  # 24 questions and reveals a minute: over the limit on their own, and no redraw
        assert edits == 0


def test_a_chat_is_forgotten_a_minute_after_its_last_send() -> None:
    """A bot running for months sends into tens of thousands of chats: it keeps only the ones
    that sent in the last minute, whatever their number before."""
    pace = SendPace()
    for chat in range(10_000):  # each chat sends twice, a redraw among them, one chat a 10 ms
        pace.record(-chat, chat / 100, count_edit=True)
        pace.record(-chat, chat / 100 + 0.005)
        if chat % 100 == 0:
            assert pace.chats <= WINDOW * 100 + 1  # the chats of the last minute only
    assert pace.chats >= WINDOW * 100 - 1
    pace.record(1, 10_000 / 100 + WINDOW)  # a minute after the last one: only itself is left
    assert pace.chats == 1


def test_a_chat_forgotten_is_paced_as_a_new_one_and_a_busy_chat_is_kept() -> None:
    pace = SendPace()
    busy, quiet = -1, -2
    for second in range(0, 20):  # 20 sends into the busy chat over 20 s
        pace.record(busy, float(second))
    pace.record(quiet, 0.0, count_edit=True)
    assert pace.count_edit_wait(quiet, 1.0) == pytest.approx(COUNT_EDIT_INTERVAL - 1.0)
    for second in range(20, 70):  # the busy chat goes on; the quiet one is a minute old now
        pace.record(busy, float(second))
    assert pace.chats == 1
    assert pace.count_edit_wait(quiet, 70.0) == 0  # nothing of it is remembered, nor needed
    assert pace.count_edit_wait(busy, 70.0) > 0  # 60 sends in its last minute: no redraw


def test_a_redraw_still_waits_its_interval_in_a_chat_with_many_others() -> None:
    pace = SendPace()
    pace.record(-1, 100.0, count_edit=True)
    for chat in range(2, 1000):
        pace.record(-chat, 101.0)
    assert pace.count_edit_wait(-1, 102.0) == pytest.approx(COUNT_EDIT_INTERVAL - 2.0)
    assert pace.count_edit_wait(-1, 100.0 + COUNT_EDIT_INTERVAL) == 0


def test_the_shown_counts_name_their_states_and_stay_bounded() -> None:
    shown = ShownCounts(size=100)
    shown.posted((1, 0))
    assert shown.shows((1, 0), 0)  # posted: it shows no answers
    shown.drawn((1, 0), 7)
    assert shown.shows((1, 0), 7) and not shown.shows((1, 0), 8)
    shown.unknown((1, 0))  # drawn before a restart: whatever it shows, redraw
    assert not any(shown.shows((1, 0), count) for count in range(10))
    shown.drawn((1, 1), 3)
    shown.closed((1, 1))
    assert len(shown) == 0
    for session in range(1000):  # questions never closed (posts left open): the oldest go
        shown.posted((session, 0))
    assert len(shown) == 100
    assert shown.shows((999, 0), 0) and not shown.shows((0, 0), 0)
