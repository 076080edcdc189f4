"""A group quiz's report, and for the bot's admins a bank's files, from the dashboard: sent by
the bot into the person's private chat, as `/report` and `/export` send them, or downloaded
from a single-use link.

A plain link carries no `Authorization` header, so the link itself says who may use it: a
`Download` payload (bot/core/deeplinks.py's typed, signed form) naming the person, the group
quiz and the format, signed with a key derived from the bot's token and a secret of this
process (a restart retires every link), alive `LIFETIME` seconds, and taken once (a second
request is refused: `Downloads.redeem`). When it is used, the person is checked again: they
still administer the chat (bot/dashboard/access.py), or are still a bot admin. A bank's link
names its quiz by the link's nonce (a link holds numbers only): the quiz is kept here, beside
the nonce, until the link is used or expires.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import PurePosixPath
from typing import Any, Protocol

from telegram import Bot

from bot.core.context import Services
from bot.core.deeplinks import Link, LinkSigner, Refused
from bot.core.i18n import Locale
from content.formats.registry import OUTPUT_FORMATS
from content.model import Quiz
from storage.group_store import GroupSession

LIFETIME = 300  # seconds a download link lives (at most 5 minutes)
FORMS = ("csv", "xlsx")  # the report's formats, as /report gives them
REPORTS_KEY = "dashboard_reports"  # where bot/app.py leaves `Reports` in bot_data
MEDIA_TYPES = {
    "csv": "text/csv",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

BANK_FORMS = OUTPUT_FORMATS  # a bank's formats, as /export gives them
BANKS_KEY = "dashboard_banks"
BANK_MEDIA_TYPES = {
    ".zip": "application/zip",
    ".xml": "application/xml",
    ".csv": "text/csv",
    ".xlsx": MEDIA_TYPES["xlsx"],
}  # the rest (YAML, GIFT, Anki): application/octet-stream, saved as they are

ReportFileMaker = Callable[[Services, GroupSession, Locale, str], Awaitable[tuple[str, bytes]]]
ReportSender = Callable[[Bot, Services, int, GroupSession, Locale, str], Awaitable[None]]


class BankFile(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def data(self) -> bytes: ...


BankFileMaker = Callable[[Services, Quiz, str], Awaitable[BankFile]]
BankSender = Callable[[Bot, Services, int, Quiz, str, Locale], Awaitable[None]]


@dataclass(frozen=True)
class Reports:
    """What the reports feature lends the dashboard (features never import each other)."""

    file: ReportFileMaker  # (file name, content) of a group quiz's report
    send: ReportSender  # the report into a private chat, as /report sends it


@dataclass(frozen=True)
class Banks:
    """What the admin feature lends the dashboard: a bank's file as `/export` makes it
    (ConversionError when it cannot), and the same sent into a chat as `/export` sends it."""

    file: BankFileMaker
    send: BankSender


def lend(bot_data: dict[Any, Any], reports: Reports, banks: Banks) -> None:
    bot_data[REPORTS_KEY] = reports
    bot_data[BANKS_KEY] = banks


def lent(bot_data: dict[Any, Any]) -> Reports | None:
    found = bot_data.get(REPORTS_KEY)
    return found if isinstance(found, Reports) else None


def lent_banks(bot_data: dict[Any, Any]) -> Banks | None:
    found = bot_data.get(BANKS_KEY)
    return found if isinstance(found, Banks) else None


def bank_media_type(file_name: str) -> str:
    return BANK_MEDIA_TYPES.get(PurePosixPath(file_name).suffix, "application/octet-stream")


class Download(Link, prefix="D", lifetime=LIFETIME):
    """Person `user_id` downloads group quiz `session_id`'s report as `FORMS[form]`; `nonce`
    makes each link one of its own, so each can be used once."""

    user_id: int
    session_id: int
    form: int
    nonce: int


class BankDownload(Link, prefix="B", lifetime=LIFETIME):
    """Bot admin `user_id` downloads a bank (the one `Downloads` keeps beside `nonce`) as
    `BANK_FORMS[form]`."""

    user_id: int
    form: int
    nonce: int


@dataclass(frozen=True)
class TakenBank:
    """A bank's download link, taken: who, which quiz, which format."""

    user_id: int
    quiz_id: str
    form: str


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
        self._banks: dict[int, tuple[str, float]] = {}  # nonce -> (quiz id, when it expires)

    def link(self, user_id: int, session_id: int, form: str, now: float) -> str:
        download = Download(user_id, session_id, FORMS.index(form), secrets.randbits(48))
        return self._signer.encode(download, now)

    def bank_link(self, user_id: int, quiz_id: str, form: str, now: float) -> str:
        nonce = secrets.randbits(48)
        self._banks = {n: kept for n, kept in self._banks.items() if kept[1] >= now}
        self._banks[nonce] = (quiz_id, now + LIFETIME)
        return self._signer.encode(BankDownload(user_id, BANK_FORMS.index(form), nonce), now)

    def redeem(self, payload: str, now: float) -> Download | TakenBank | Refusal:
        """The download a link names, taken now; or why it is refused."""
        found = self._signer.decode(payload, now)
        if found is Refused.EXPIRED:
            return Refusal.GONE
        if isinstance(found, Download) and 0 <= found.form < len(FORMS):
            return self._once(found.nonce, now) or found
        if isinstance(found, BankDownload) and 0 <= found.form < len(BANK_FORMS):
            kept = self._banks.pop(found.nonce, None)
            refused = self._once(found.nonce, now)
            if refused is not None or kept is None:
                return Refusal.GONE
            return TakenBank(found.user_id, kept[0], BANK_FORMS[found.form])
        return Refusal.FORGED

    def _once(self, nonce: int, now: float) -> Refusal | None:
        """None the first time a nonce is taken; GONE after."""
        self._used = {n: ends for n, ends in self._used.items() if ends >= now}
        if nonce in self._used:
            return Refusal.GONE
        self._used[nonce] = now + LIFETIME
        return None
