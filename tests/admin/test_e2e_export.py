"""/export <quiz id> [format], end to end: the document the stand-in received (multipart, a
file name, under Telegram's 50 MB) is opened and read back."""

from __future__ import annotations

import io
import sqlite3
import tempfile
import zipfile
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.formats.base import ReadOptions
from content.formats.convert import read_quiz
from content.formats.registry import FORMATS
from content.loader import parse_bank
from content.model import Quiz
from tests.support.admin import failed_calls, seed_banks, upload
from tests.support.formats import projected
from tests.support.harness import SEED, make_settings

ADMIN = FakeUser(980, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


def seed() -> Quiz:
    quiz = parse_bank((DEFAULT_CONTENT_DIR / f"{SEED}.yaml").read_bytes(), "seed", "en").quiz
    assert quiz is not None
    return quiz


async def export(api: FakeBotApi, command: str) -> tuple[Message, list[Message]]:
    """The document the bot sends for `command`, and every message it sent with it."""
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, command)
    document = await api.wait_for(
        lambda: next((m for m in api.bot_messages(ADMIN.id)[seen:] if m.document), None)
    )
    await api.wait_until_polled()
    return document, api.bot_messages(ADMIN.id)[seen:]


def read_back(api: FakeBotApi, message: Message, fmt: str) -> Quiz:
    """What the bot sent, read as a file of `fmt` (named as it was sent)."""
    assert message.document is not None
    data = api.file_content(message.document)
    options = ReadOptions(name=message.document["file_name"])
    return read_quiz(data, FORMATS[fmt], options).quiz


@pytest.mark.parametrize(
    ("fmt", "carries"),
    [
        ("yaml", {}),
        ("xml", {}),
        ("xlsx", {}),
        ("gift", {"language": "en", "bank_fields": False, "guides": False}),
        ("csv", {"bank_fields": False}),  # every language, no quiz fields
    ],
)
async def test_each_format_is_sent_and_reads_back_as_the_quiz(
    api: FakeBotApi, bot: QuizApplication, fmt: str, carries: dict[str, object]
) -> None:
    document, sent = await export(api, f"/export {SEED} {fmt}")
    assert document.document is not None
    extension = FORMATS[fmt].extension
    assert document.document["file_name"] == f"{SEED}{extension}"
    back = read_back(api, document, fmt)
    quiz = seed()
    if fmt in ("gift", "csv"):  # named after the file, titled as GIFT's category or the file
        wanted = projected(quiz, **carries, title=back.title)  # type: ignore[arg-type]
        assert back == wanted
        assert any("cannot hold everything" in m.text for m in sent)  # what it dropped, named
    else:
        assert back == quiz
    assert str(len(quiz)) in (document.caption or "")
    assert failed_calls(api) == []


async def test_the_seed_bank_as_anki_has_one_note_per_question(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    document, _ = await export(api, f"/export {SEED} apkg")
    assert document.document is not None and document.document["file_name"] == f"{SEED}.apkg"
    fronts = anki_fronts(api.file_content(document.document))
    quiz = seed()
    assert len(fronts) == len(quiz)
    for question, front in zip(quiz.questions, fronts, strict=True):
        assert question.text.get("en", "en")[:20] in front


def anki_fronts(package: bytes) -> list[str]:
    """The front of each note of an .apkg, opened as Anki opens it: the SQLite in the zip."""
    archive = zipfile.ZipFile(io.BytesIO(package))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "collection.anki2")
        path.write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT flds FROM notes ORDER BY id").fetchall()
    return [row[0].split("\x1f")[0] for row in rows]


async def test_an_export_goes_back_in_through_import(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    document, _ = await export(api, f"/export {SEED} xlsx")
    assert document.document is not None
    data = api.file_content(document.document)
    report = await upload(api, ADMIN, data, "Nothing changed", name=f"{SEED}.xlsx")
    assert SEED in report.text


@pytest.mark.parametrize(
    ("command", "expect"),
    [
        (f"/export {SEED} pdf", "pdf\u2069</code> is not a format I write"),
        (f"/export {SEED} aiken", "aiken\u2069</code> is not a format I write"),
        (f"/export {SEED} gift more", "one word too many"),
        ("/export nosuch gift", "no quiz called"),
    ],
)
async def test_a_format_the_bot_cannot_write_is_refused_with_the_formats(
    api: FakeBotApi, bot: QuizApplication, command: str, expect: str
) -> None:
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, command)
    reply = await api.wait_for_bot_message(ADMIN.id, "Formats:", after=seen)
    assert expect in reply.html
    assert "<code>apkg</code>" in reply.html and not reply.document
