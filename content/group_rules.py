"""The rules of a quiz run for a whole chat, as pure functions over plain data.

Scoring, ranking, who may control a chat's quiz, and when the live answer count may be
redrawn without breaking Telegram's limit of 20 messages and edits a minute in one group
(`count_edit_wait`; what the bot sent lately is remembered by bot/core/pace.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

MAX_POINTS = 1000
MIN_SHARE = 0.5  # a right answer at the very deadline still earns half

GROUP_SENDS_PER_MINUTE = 20  # Telegram's limit for one group: messages and edits together
SPARE_SENDS = 3  # kept free for the unforeseen: a reply to a command, an explanation follow-up
COUNT_EDIT_INTERVAL = 3.0  # least seconds between two redraws of the live answer count
COUNT_EDIT_RETRY = 3.0  # when the budget says no, look again this much later
SENDS_PER_QUESTION = 2  # at each deadline: the reveal, then the next question

ADMIN_STATUSES = frozenset({"creator", "administrator"})


def points(correct: bool, elapsed: float, duration: float) -> int:
    """Points for one answer: 0 when wrong; a right one earns 1000 * (1 - 0.5 * t/T).

    `t` is the time taken (clamped to 0..T), `T` the question's duration: an instant answer
    earns 1000, one at the deadline 500.
    """
    if not correct:
        return 0
    if duration <= 0:
        return MAX_POINTS
    share = min(max(elapsed, 0.0), duration) / duration
    return round(MAX_POINTS * (1 - MIN_SHARE * share))


def answer_points(credit: Fraction, elapsed: float, duration: float) -> int:
    """A timed quiz's points for an answer: those of a right answer at that speed, times its
    credit (content/grading.py). Partly right earns its part; a credit below 0 (a weight that
    marks a choice down) takes away its part of them, so a quick guess costs the most."""
    return round(points(True, elapsed, duration) * credit)


class Ranked(Protocol):
    @property
    def user_id(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def total_time(self) -> float: ...


R = TypeVar("R", bound=Ranked)


def rank(standings: Iterable[R]) -> list[R]:
    """Most points first; equal points: less total time first; then by user id (stable)."""
    return sorted(standings, key=lambda s: (-s.points, s.total_time, s.user_id))


def may_control(
    *,
    chat_type: str,
    user_id: int | None,
    member_status: str | None,
    sender_chat_id: int | None,
    chat_id: int,
    configured_admins: frozenset[int],
) -> bool:
    """Whether the sender of a command or a tap may start, stop, skip or reveal.

    - a configured admin (`QUIZ_ADMIN_IDS`) may, anywhere;
    - in a channel, a post comes from the channel itself, and only its admins can post: a
      command posted into a channel is authorized (taps in a channel still need the status);
    - in a group, a message sent on behalf of the group itself comes from an anonymous admin;
    - otherwise the chat member status must be creator or administrator.
    """
    if user_id is not None and user_id in configured_admins:
        return True
    if sender_chat_id is not None and sender_chat_id == chat_id:
        return chat_type in {"channel", "group", "supergroup"}
    return member_status in ADMIN_STATUSES


def upcoming_sends(deadline: float, seconds: float, now: float) -> list[float]:
    """When the sends that cannot wait will happen in the next minute: at each deadline, the
    reveal and the next question (assuming the quiz goes on at this pace)."""
    times: list[float] = []
    moment = max(deadline, now)
    while moment < now + 60:
        times.extend([moment] * SENDS_PER_QUESTION)
        moment += max(seconds, 1)
    return times


def peak_per_minute(times: Sequence[float]) -> int:
    """The most sends any 60-second window holds."""
    ordered = sorted(times)
    peak = 0
    for i, start in enumerate(ordered):
        peak = max(peak, len([t for t in ordered[i:] if t < start + 60]))
    return peak


def count_edit_wait(
    recent: Sequence[float],
    last_count_edit: float | None,
    now: float,
    *,
    upcoming: Sequence[float] = (),
    per_minute: int = GROUP_SENDS_PER_MINUTE,
    spare: int = SPARE_SENDS,
    interval: float = COUNT_EDIT_INTERVAL,
    retry: float = COUNT_EDIT_RETRY,
) -> float:
    """Seconds to wait before a live-count redraw, given the last minute's sends (`recent`)
    and the sends that cannot wait (`upcoming`, see `upcoming_sends`).

    A redraw goes out only if, with it, no 60-second window (past sends, this one, the ones
    to come) holds more than `per_minute - spare`; and never sooner than `interval` after
    the previous redraw. A redraw is never what pushes a chat past its limit.
    """
    if last_count_edit is not None and last_count_edit + interval > now:
        return last_count_edit + interval - now
    in_window = [t for t in recent if now - t < 60]
    if peak_per_minute([*in_window, now, *upcoming]) > per_minute - spare:
        return retry
    return 0.0


def time_marks(seconds: int) -> list[int]:
    """The seconds left at which a question on a timer redraws its time left: every 10 s in
    its last minute, every 30 s before, and at 5 s (none at its start, which shows it all)."""
    marks = {5} if seconds > 5 else set()
    marks |= {m for m in range(10, min(seconds, 61), 10) if m < seconds}
    marks |= {m for m in range(90, seconds, 30)}
    return sorted(marks, reverse=True)


def time_left(deadline: float, now: float) -> int:
    """The seconds left shown on a question: whole, never below 0 (0 for a question with no
    timer, whose deadline is +infinity)."""
    if deadline == float("inf"):
        return 0
    return max(0, round(deadline - now))


def shown_state(count: int, left: int) -> int:
    """What a question's message shows of its live state, as one number (its count of
    answers and its seconds left, at most 600): a redraw is due when this changes."""
    return count * 1000 + min(left, 999)
