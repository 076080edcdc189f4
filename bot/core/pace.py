"""What the bot remembers of each group between updates to keep Telegram's limit of 20 messages
and edits a minute there: its recent sends (`SendPace`), and the answer count each open
question shows on screen (`ShownCounts`), so that a redraw showing the same is never sent.

Both are in memory only, and bounded: a chat is forgotten once nothing it holds still
matters (a minute after its last send), a question once it is revealed or stopped, and the
oldest first past `SHOWN_COUNTS` open questions. After a restart both start empty: the rate
limiter in front of every request waits out a 429 should a chat still be near its limit, and
a question whose count is not known is simply redrawn. The rules (`count_edit_wait`) are
pure, in content/group_rules.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from cachetools import LRUCache

from content.group_rules import COUNT_EDIT_INTERVAL, GROUP_SENDS_PER_MINUTE, count_edit_wait

WINDOW = 60.0  # seconds: Telegram counts a group's sends per minute
SHOWN_COUNTS = 10_000  # open questions whose shown count is remembered

NO_ANSWERS = 0  # what a question shows when it is posted

QuestionKey = tuple[int, int]  # (group session, position)


class SendPace:
    """The sends and edits into each group in the last minute, to pace the live counts'
    redraws. A chat is kept only while it has a send in the last minute (its count-edit time
    only while it still delays the next one): the chats are kept in the order of their last
    send, and the ones at the front that no longer matter go at every record."""

    def __init__(
        self, per_minute: int = GROUP_SENDS_PER_MINUTE, interval: float = COUNT_EDIT_INTERVAL
    ) -> None:
        self.per_minute = per_minute
        self.interval = interval
        self._sends: dict[int, deque[float]] = {}  # chat -> its sends, oldest first
        self._last_count_edit: dict[int, float] = {}  # chat -> its last count edit

    def record(self, chat_id: int, now: float, count_edit: bool = False) -> None:
        sends = self._sends.pop(chat_id, None) or deque()
        sends.append(now)
        self._sends[chat_id] = sends  # at the end: the chats are in the order of their last send
        if count_edit:
            self._last_count_edit.pop(chat_id, None)
            self._last_count_edit[chat_id] = now
        self._forget_before(now)

    def count_edit_wait(self, chat_id: int, now: float, upcoming: Sequence[float] = ()) -> float:
        """Seconds until a redraw of the live count may go out (0: now)."""
        sends = self._sends.get(chat_id, ())
        return count_edit_wait(
            [t for t in sends if now - t < WINDOW],
            self._last_count_edit.get(chat_id),
            now,
            upcoming=upcoming,
            per_minute=self.per_minute,
            interval=self.interval,
        )

    @property
    def chats(self) -> int:
        """How many chats are remembered."""
        return len(self._sends.keys() | self._last_count_edit.keys())

    def _forget_before(self, now: float) -> None:
        while self._sends:
            chat_id = next(iter(self._sends))  # the chat whose last send is the oldest
            sends = self._sends[chat_id]
            while sends and now - sends[0] >= WINDOW:
                sends.popleft()
            if sends:
                break  # it still has a send in the window, and every chat after it too
            del self._sends[chat_id]
        while self._last_count_edit:
            chat_id = next(iter(self._last_count_edit))
            if self._last_count_edit[chat_id] + self.interval > now:
                break
            del self._last_count_edit[chat_id]


class ShownCounts:
    """The answer count each open question's message shows. A question just posted shows
    none (`posted`); one whose message was drawn before a restart shows a count nobody knows
    (`unknown`): any count differs from it, so the next redraw goes out. Forgotten when the
    question closes (`closed`), and the oldest first past `size` questions: forgetting one
    only costs a redraw."""

    def __init__(self, size: int = SHOWN_COUNTS) -> None:
        self._shown: LRUCache[QuestionKey, int] = LRUCache(maxsize=size)

    def posted(self, question: QuestionKey, shown: int = NO_ANSWERS) -> None:
        self._shown[question] = shown

    def unknown(self, question: QuestionKey) -> None:
        self._shown.pop(question, None)

    def closed(self, question: QuestionKey) -> None:
        self._shown.pop(question, None)

    def drawn(self, question: QuestionKey, count: int) -> None:
        self._shown[question] = count

    def shows(self, question: QuestionKey, count: int) -> bool:
        """Whether the question's message is known to show this count already."""
        return self._shown.get(question) == count

    def __len__(self) -> int:
        return len(self._shown)
