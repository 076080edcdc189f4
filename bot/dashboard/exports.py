"""A group quiz's report from the dashboard: sent by the bot into the person's private chat, as
`/report` sends it, or downloaded from a single-use link.

A plain link carries no `Authorization` header, so the link itself says who may use it: a
`Download` payload (bot/core/deeplinks.py's typed, signed form) naming the person, the group
quiz and the format, signed with a key derived from the bot's token and a secret of this
process (a restart retires every link), alive `LIFETIME` seconds, and taken once (a second
request is refused: `Downloads.redeem`). When it is used, the person is checked again: they
still administer the chat (bot/dashboard/access.py).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from telegram import Bot

from bot.core.context import Services
from bot.core.deeplinks import Link, LinkSigner, Refused
from bot.core.i18n import Locale
from storage.group_store import GroupSession

LIFETIME = 300  # seconds a download link lives (at most 5 minutes)
FORMS = ("csv", "xlsx")  # the report's formats, as /report gives them
REPORTS_KEY = "dashboard_reports"  # where bot/app.py leaves `Reports` in bot_data
MEDIA_TYPES = {
    "csv": "text/csv",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

ReportFileMaker = Callable[[Services, GroupSession, Locale, str], Awaitable[tuple[str, bytes]]]
ReportSender = Callable[[Bot, Services, int, GroupSession, Locale, str], Awaitable[None]]


@dataclass(frozen=True)
class Reports:
    """What the reports feature lends the dashboard (features never import each other)."""

    file: ReportFileMaker  # (file name, content) of a group quiz's report
    send: ReportSender  # the report into a private chat, as /report sends it


def lend(bot_data: dict[Any, Any], reports: Reports) -> None:
    bot_data[REPORTS_KEY] = reports


def lent(bot_data: dict[Any, Any]) -> Reports | None:
    found = bot_data.get(REPORTS_KEY)
    return found if isinstance(found, Reports) else None


class Download(Link, prefix="D", lifetime=LIFETIME):
    """Person `user_id` downloads group quiz `session_id`'s report as `FORMS[form]`; `nonce`
    makes each link one of its own, so each can be used once."""

    user_id: int
    session_id: int
    form: int
    nonce: int


class Refusal(Enum):
    FORGED = "forged"  # not ours, or altered
    GONE = "gone"  # expired, or used already


class Downloads:
    """Makes single-use download links and takes each back once."""

    def __init__(self, token: str) -> None:
        key = hashlib.sha256(
            b"quiz-tutor downloads\n" + token.encode() + b"\n" + secrets.token_bytes(16)
        ).digest()
        self._signer = LinkSigner(key)
        self._used: dict[int, float] = {}  # nonce -> when its link expires

    def link(self, user_id: int, session_id: int, form: str, now: float) -> str:
        download = Download(user_id, session_id, FORMS.index(form), secrets.randbits(48))
        return self._signer.encode(download, now)

    def redeem(self, payload: str, now: float) -> Download | Refusal:
        """The download a link names, taken now; or why it is refused."""
        found = self._signer.decode(payload, now)
        if found is Refused.EXPIRED:
            return Refusal.GONE
        if not isinstance(found, Download) or not 0 <= found.form < len(FORMS):
            return Refusal.FORGED
        self._used = {nonce: ends for nonce, ends in self._used.items() if ends >= now}
        if found.nonce in self._used:
            return Refusal.GONE
        self._used[found.nonce] = now + LIFETIME
        return found
