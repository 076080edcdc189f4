"""Deep links, `https://t.me/<bot>?start=<payload>`: a typed, signed payload that expires.

Telegram hands the payload back as `/start <payload>` in the private chat of whoever pressed
the link; anyone can type any payload, so it is never trusted on its shape. Each kind is
declared once (like the buttons of `bot.core.callbacks`): a frozen dataclass of non-negative
int fields, its prefix (an upper-case letter: a quiz's own deep link, `quiz-<id>`, starts
lower-case) and how long a link lives. Layout, at most 64 characters of `[A-Za-z0-9_-]`:

    <prefix>_<field>_..._<expires>_<signature>

fields and the expiry (Unix seconds) in base 36, the signature the first 12 bytes of an
HMAC-SHA256 over the rest, base64url (16 characters). The key is derived from the bot's token:
a link names a stored row (a group session, an assignment) and cannot be turned into another
one's, nor revived after it expires. A new token (after a leak) retires every link made with
the old one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, cast, dataclass_transform

MAX_PAYLOAD = 64  # Telegram's limit for a start parameter
PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what Telegram lets through
SIGNATURE_BYTES = 12
SIGNATURE_CHARS = 16  # base64url of 12 bytes, no padding
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_NUMBER = re.compile(r"0|[1-9a-z][0-9a-z]{0,12}")  # base 36, one text per number

DAY = 86_400.0


def _base36(number: int) -> str:
    if number < 0:
        raise ValueError(f"a deep link carries no negative number: {number}")
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = _DIGITS[digit] + text
        if number == 0:
            return text


@dataclass_transform(frozen_default=True)
class Link:
    """A kind of deep link, declared as `class Kind(Link, prefix="X", lifetime=seconds)` with
    int fields; each kind is made a frozen dataclass."""

    prefix: ClassVar[str]
    lifetime: ClassVar[float]

    def __init_subclass__(cls, *, prefix: str, lifetime: float, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)
        if not re.fullmatch(r"[A-Z][a-z]?", prefix) or prefix in _KINDS:
            raise TypeError(f"deep link prefix {prefix!r}: one upper-case letter, once")
        if any(hint is not int and hint != "int" for hint in inspect.get_annotations(cls).values()):
            raise TypeError(f"{cls.__name__}: a deep link's fields are ints")
        cls.prefix = prefix
        cls.lifetime = lifetime
        _KINDS[prefix] = cls

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]


_KINDS: dict[str, type[Link]] = {}


# --- the kinds ---


class MissedReview(Link, prefix="M", lifetime=30 * DAY):
    """A member reviews, in private, the questions they missed in group session `session_id`."""

    session_id: int


class Homework(Link, prefix="H", lifetime=400 * DAY):
    """A member opens assignment `assignment_id` in private (the assignment's own deadline,
    stored, says whether it still counts: the link outlives it to say so)."""

    assignment_id: int


class ReportFile(Link, prefix="R", lifetime=2 * DAY):
    """A chat admin fetches, in private, the report of group session `session_id` asked for by
    an anonymous admin (checked against getChatMember when pressed)."""

    session_id: int


class AssignmentReport(Link, prefix="A", lifetime=7 * DAY):
    """A chat admin fetches, in private, the report of assignment `assignment_id`."""

    assignment_id: int


# --- encoding ---


class Refused(Enum):
    """Why a payload that claims to be ours is not taken."""

    FORGED = "forged"  # not signed by us, altered, or of a kind we never made
    EXPIRED = "expired"


def looks_signed(payload: str) -> bool:
    """Whether a start payload claims to be one of these links (an upper-case first letter);
    whether it is, `LinkSigner.decode` says."""
    return bool(payload) and "A" <= payload[0] <= "Z"


class LinkSigner:
    """Makes and checks links with one key (`key_from_token`)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _signature(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:SIGNATURE_BYTES]).decode("ascii")

    def encode(self, link: Link, now: float, lifetime: float | None = None) -> str:
        """The payload for `link`, valid until `now + lifetime` (the kind's own by default)."""
        expires = int(now + (type(link).lifetime if lifetime is None else lifetime))
        parts = [link.prefix, *(_base36(v) for v in link.values()), _base36(max(expires, 0))]
        body = "_".join(parts)
        payload = f"{body}_{self._signature(body)}"
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"deep link over {MAX_PAYLOAD} characters: {payload!r}")
        return payload

    def decode(self, payload: str, now: float) -> Link | Refused:
        """The link a payload carries, or why it is refused."""
        if not PAYLOAD.fullmatch(payload) or len(payload) <= SIGNATURE_CHARS + 1:
            return Refused.FORGED
        body, separator, signature = (
            payload[: -SIGNATURE_CHARS - 1],
            payload[-SIGNATURE_CHARS - 1],
            payload[-SIGNATURE_CHARS:],
        )
        if separator != "_" or not hmac.compare_digest(signature, self._signature(body)):
            return Refused.FORGED
        prefix, *numbers = body.split("_")
        kind = _KINDS.get(prefix)
        if kind is None or not numbers or not all(_NUMBER.fullmatch(n) for n in numbers):
            return Refused.FORGED  # signed by us all the same: a kind retired since
        *values, expires = (int(n, 36) for n in numbers)
        if len(values) != len(fields(cast(Any, kind))):
            return Refused.FORGED
        if now > expires:
            return Refused.EXPIRED
        return cast(Callable[..., Link], kind)(*values)


def key_from_token(token: str) -> bytes:
    """The signing key: derived from the bot's token, never the token itself."""
    return hashlib.sha256(b"quiz-tutor deep links\n" + token.encode()).digest()


def url(bot_username: str, payload: str) -> str:
    """The link Telegram opens: the bot's private chat, sending `/start <payload>`."""
    return f"https://t.me/{bot_username}?start={payload}"
