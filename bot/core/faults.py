"""What a failed Bot API call means, decided in one place.

Every path that talks to Telegram (a learner's quiz, group quizzes, posted questions,
reminders, the error handler) asks `classify` what a failure means, and acts on the answer:

* `CHAT_REFUSES`: the chat takes nothing from the bot (blocked, kicked, not a member, no right
  to send text, chat not found). Never retried; a private chat's person is marked as having
  blocked the bot, a group's session ends.
* `REJECTED`: Telegram refuses this request (any other 4xx: a bug, or no right to send this kind,
  such as polls). Never retried.
* `RETRY_LATER`: certainly not carried out and may succeed later (429 with `retry_after`, 502
  and 503, no connection made). Retried with backoff and a cap: by PTB's rate limiter (429)
  and `bot.core.transport.QuizBot` (the rest), then by the group session at a slower pace.
* `MAYBE_DONE`: may have been carried out (timed out after it was sent, 500, 504, connection
  lost mid-request). Not repeated: a second sendMessage would show a question twice; the
  learner's next tap or command resumes from what is stored.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from http import HTTPStatus

from telegram import CallbackQuery
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.core.render import Rendered

log = logging.getLogger(__name__)

# seconds before each repeated try of a request that certainly did not reach Telegram
RETRY_DELAYS = (0.5, 1.0, 2.0)
RETRYABLE_STATUSES = frozenset({HTTPStatus.BAD_GATEWAY, HTTPStatus.SERVICE_UNAVAILABLE})

# Bad Request texts (lowercased, "Bad Request: " removed) that mean the chat refuses the bot
_CHAT_REFUSALS = (
    "chat not found",
    "not enough rights to send text messages",
    "have no rights to send a message",
    "chat_write_forbidden",
    "chat_restricted",
    "need administrator rights in the channel chat",
    "group chat was deactivated",
    "peer_id_invalid",
)
_STALE_QUERY = ("query is too old", "query id is invalid")


class NotSent(NetworkError):
    """The request never left: no connection could be made (refused, reset or timed out while
    connecting, no route, no DNS answer). Repeating it cannot deliver anything twice."""

    __slots__ = ()


class ConnectTimedOut(NotSent, TimedOut):
    """No connection within the connect timeout (or no free one in the pool): not sent.
    Also a `TimedOut`, as PTB's own transport makes it, so its updater treats it alike."""

    __slots__ = ()


class ServerError(NetworkError):
    """An HTTP 5xx from the Bot API or from a proxy in front of it."""

    __slots__ = ("status",)

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type, tuple[int, str]]:  # type: ignore[override]
        return self.__class__, (self.status, self.message)


class Fault(enum.Enum):
    CHAT_REFUSES = "the chat refuses the bot"
    REJECTED = "Telegram rejects the request"
    RETRY_LATER = "not carried out, may succeed later"
    MAYBE_DONE = "may have been carried out"

    @property
    def permanent(self) -> bool:
        """The same request will fail again: never retried."""
        return self in (Fault.CHAT_REFUSES, Fault.REJECTED)


def classify(error: TelegramError) -> Fault:
    """What a failed Bot API call means; see the module's docstring."""
    if isinstance(error, Forbidden | ChatMigrated):
        return Fault.CHAT_REFUSES
    if isinstance(error, BadRequest):  # before NetworkError: PTB derives it from that
        text = error.message.lower()
        refuses = any(refusal in text for refusal in _CHAT_REFUSALS)
        return Fault.CHAT_REFUSES if refuses else Fault.REJECTED
    if isinstance(error, RetryAfter | NotSent):
        return Fault.RETRY_LATER
    if isinstance(error, ServerError):
        return Fault.RETRY_LATER if error.status in RETRYABLE_STATUSES else Fault.MAYBE_DONE
    if isinstance(error, NetworkError):  # a read timeout, a connection lost mid-request
        return Fault.MAYBE_DONE
    return Fault.REJECTED  # an invalid token, a conflict, an unknown method


def is_stale_query(error: TelegramError) -> bool:
    """Telegram's answer to a callback query answered too late (about 10-15 s after the tap)."""
    return isinstance(error, BadRequest) and any(
        part in error.message.lower() for part in _STALE_QUERY
    )


def is_file_too_big(error: TelegramError) -> bool:
    """Telegram's answer to getFile for a file over the 20 MB a bot may download."""
    return isinstance(error, BadRequest) and "file is too big" in error.message.lower()


def retry_delay(tries: int, error: TelegramError) -> float | None:
    """Seconds to wait before trying a failed request again, None to give up: only what
    certainly did not reach Telegram, `len(RETRY_DELAYS)` times. A 429 is not retried here:
    PTB's rate limiter waits it out before it gets here."""
    if isinstance(error, RetryAfter) or classify(error) is not Fault.RETRY_LATER:
        return None
    return RETRY_DELAYS[tries - 1] if tries <= len(RETRY_DELAYS) else None


@dataclass(frozen=True)
class Call:
    """The Bot API call an error came from."""

    method: str
    chat_id: int | str | None
    tries: int


_CALL = "_quiz_tutor_call"


def remember_call(error: TelegramError, call: Call) -> None:
    setattr(error, _CALL, call)  # exceptions take no weak references: kept on the error


def call_of(error: BaseException) -> Call | None:
    call = getattr(error, _CALL, None)
    return call if isinstance(call, Call) else None


def refusing_user(error: TelegramError) -> int | None:
    """The person whose private chat refused the call (blocked the bot, or never started it):
    only they may be marked inactive, never whoever's update led to the call."""
    call = call_of(error)
    if call is None or classify(error) is not Fault.CHAT_REFUSES:
        return None
    try:
        chat_id = int(call.chat_id) if call.chat_id is not None else 0
    except ValueError:  # "@channel"
        return None
    return chat_id if chat_id > 0 else None  # users have positive ids, groups negative


def where(error: TelegramError) -> str:
    """The call an error came from, for a log line: "sendMessage to chat 42"."""
    call = call_of(error)
    if call is None:
        return "a Bot API call"
    return call.method if call.chat_id is None else f"{call.method} to chat {call.chat_id}"


def describe(error: TelegramError) -> str:
    """One log line's worth: the call, what Telegram said, and what that means."""
    call = call_of(error)
    fault = classify(error)
    where_ = where(error)
    kind = error.__class__.__name__
    what = error.message if error.message.startswith(kind) else f"{kind}: {error.message}"
    if fault is Fault.MAYBE_DONE:
        return f"{where_}: {what}; it may have been carried out, so it is not repeated"
    if fault is Fault.RETRY_LATER and call is not None and call.tries > 1:
        return f"{where_}: {what}, after {call.tries} tries"
    return f"{where_}: {what} ({fault.value})"


async def edit_quietly(query: CallbackQuery, message: Rendered) -> None:
    """Edit the tapped message; a message that is already so, or gone, is not an error."""
    try:
        await query.edit_message_text(message.text, reply_markup=message.markup)
    except BadRequest as error:
        text = str(error).lower()
        if "not modified" in text or "message to edit not found" in text:
            log.debug("edit skipped: %s", error)
            return
        raise
