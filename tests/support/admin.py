"""An admin of the bot, for the admin-feature tests: the seed bank in a folder of the test's
own (so that imports never touch the repository's), and a document sent with `/import`."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.db import rows
from tests.support.harness import bank_folder
from tests.support.learner import Learner

SMALL_BANK = """\
id: small-bank
title: {en: "Small bank", yo: "Bánkì kékeré"}
level: easy
questions:
  - id: s1
    text: "One plus one?"
    options: ["Two", "Three"]
    answer: 0
    explanation: "Count them."
  - id: s2
    text: "Colour of a clear sky?"
    options: ["Blue", "Green", "Red"]
    answer: 0
  - id: s3
    text: "Legs of a spider?"
    options: ["Six", "Eight"]
    answer: 1
"""


def seed_banks(tmp_path: Path) -> Path:
    """A bank folder holding a copy of the seed bank."""
    return bank_folder(tmp_path, seed=True)


def zipped(*files: tuple[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A .zip of these (name, data) files, in this order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def nothing_stored(db_path: Path) -> bool:
    """No bank, picture or audit line stored: what a refused /import leaves."""
    tables = ("content_banks", "pictures", "bank_pictures", "audit_log")
    return [rows(db_path, f"SELECT COUNT(*) FROM {table}") for table in tables] == [[(0,)]] * 4


async def upload(
    api: FakeBotApi,
    who: FakeUser,
    content: str | bytes,
    expect: str,
    name: str = "bank.yaml",
    caption: str | None = "/import",
    declared_size: int | None = None,
) -> Message:
    """`who` sends `content` as a document; the first new bot message containing `expect`."""
    data = content.encode() if isinstance(content, str) else content
    seen = len(api.bot_messages(who.id))
    api.upload(who, data, name, caption=caption, declared_size=declared_size)
    return await api.wait_for_bot_message(who.id, expect, after=seen)


async def small_bank_started(
    api: FakeBotApi, admin: FakeUser, user_id: int
) -> tuple[Learner, Message]:
    """The admin imports the small bank; Ada (`user_id`) starts it: Ada, and her question 1."""
    await upload(api, admin, SMALL_BANK, "imported", "small.yaml")
    ada = Learner(api, FakeUser(user_id, "Ada", "en"))
    return ada, await ada.send("/quiz small-bank", "Question 1 of 3")


def failed_calls(api: FakeBotApi) -> list[str]:
    """Every Bot API call the stand-in refused, as 'method: description'."""
    return [f"{c.method}: {c.description}" for c in api.calls if not c.ok]
