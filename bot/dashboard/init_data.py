"""Telegram's `initData`: the signed query string a Mini App receives, checked as Telegram's
documentation says ("Validating data received via the Mini App").

The secret key is HMAC-SHA-256 of the bot token keyed with "WebAppData"; the hash is
HMAC-SHA-256 of the data-check string (every field but `hash`, as `key=value`, sorted by key,
joined by line feeds) keyed with that secret, in hexadecimal. A field given twice, a missing
or malformed hash, an `auth_date` older than `max_age` (or from the future), and a `user`
that is not a JSON object with an integer id are refused. The person is taken from the
signed `user` field only, never from anything else the request says.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from dataclasses import dataclass
from urllib.parse import parse_qsl

MAX_INIT_DATA = 8 * 1024  # characters; Telegram's are a few hundred
MAX_AGE_SECONDS = 24 * 3600
CLOCK_SKEW_SECONDS = 300  # an auth_date this far ahead of our clock is still taken


class InitDataError(ValueError):
    """Why the initData is refused (for the log; the client gets a bare 401)."""


@dataclass(frozen=True)
class WebAppUser:
    id: int
    first_name: str
    last_name: str
    language_code: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def verify_init_data(
    raw: str, token: str, now: float, max_age: float = MAX_AGE_SECONDS
) -> WebAppUser:
    """The person this initData was signed for; InitDataError if it is not Telegram's,
    tampered with, or too old."""
    if not raw or len(raw) > MAX_INIT_DATA:
        raise InitDataError("missing or too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True, errors="strict")
    except (ValueError, UnicodeDecodeError):
        raise InitDataError("not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("a field is given twice")
    given = fields.get("hash", "")
    if len(given) != 64 or any(char not in "0123456789abcdef" for char in given):
        raise InitDataError("no hash")
    expected = hmac.new(
        secret_key(token), data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    if not hmac.compare_digest(expected, given):
        raise InitDataError("the hash does not match")
    auth_date = fields.get("auth_date", "")
    if not (auth_date.isascii() and auth_date.isdigit()) or len(auth_date) > 12:
        raise InitDataError("no auth_date")
    age = now - int(auth_date)
    if not math.isfinite(age) or age > max_age or age < -CLOCK_SKEW_SECONDS:
        raise InitDataError("expired")
    return _user(fields.get("user", ""), int(auth_date))


def _user(text: str, auth_date: int) -> WebAppUser:
    try:
        user = json.loads(text)
    except ValueError:
        raise InitDataError("no user") from None
    if not isinstance(user, dict):
        raise InitDataError("no user")
    user_id = user.get("id")
    if type(user_id) is not int or not 0 < user_id < 2**53:
        raise InitDataError("no user id")
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        first_name=_text(user.get("first_name")),
        last_name=_text(user.get("last_name")),
        language_code=language if isinstance(language, str) and len(language) <= 35 else None,
        auth_date=auth_date,
    )


def _text(value: object) -> str:
    return value[:256] if isinstance(value, str) else ""
