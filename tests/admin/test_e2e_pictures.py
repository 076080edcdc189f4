"""Pictures through /import and /export, end to end: a `.zip` sent to the bot as a document,
its images checked and kept in SQLite (one row per distinct file), played as photos (uploaded
once, then sent by file_id, also after a restart), exported back as the same `.zip` and
imported again unchanged; every refusal says why and stores nothing."""

from __future__ import annotations

import io
import os
import sqlite3
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.formats.base import ReadOptions
from content.formats.convert import read_quiz
from content.formats.registry import FORMATS
from content.images import MAX_IMAGE_BYTES, MIB
from tests.support.admin import failed_calls, nothing_stored, seed_banks, upload, zipped
from tests.support.db import rows
from tests.support.harness import make_settings, running_bot
from tests.support.images import png
from tests.support.learner import Learner

ADMIN = FakeUser(990, "Ade", "en")

BANK = """\
id: pics
title: Pictures
level: easy
questions:
  - id: p1
    text: "What colour is this square?"
    image: images/square.png
    image_alt: "A white square"
    options: ["White", "Black"]
    answer: 0
    explanation: "It is white."
    explanation_image: images/square.png
  - id: p2
    text: "And this one?"
    image: images/red.png
    options: ["Red", "Blue"]
    answer: 0
"""


def red() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (12, 6), "red").save(buffer, "PNG")
    return buffer.getvalue()


def bundle(bank: str = BANK, images: dict[str, bytes] | None = None) -> bytes:
    """The bank in a folder of the .zip, with its pictures (`images` replace or add some)."""
    files = {"images/square.png": png(), "images/red.png": red()} | (images or {})
    return zipped(("pics/pics.yaml", bank.encode()), *((f"pics/{n}", d) for n, d in files.items()))


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


def stored_pictures(db_path: Path) -> list[tuple[str, bytes]]:
    return rows(
        db_path,
        """SELECT b.location, p.data FROM bank_pictures b JOIN pictures p USING (sha256)
           ORDER BY b.location""",
    )


async def export(api: FakeBotApi, command: str) -> Message:
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, command)
    return await api.wait_for(
        lambda: next((m for m in api.bot_messages(ADMIN.id)[seen:] if m.document), None)
    )


def contents(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


async def test_a_bundle_is_imported_played_with_its_pictures_and_exported_back_the_same(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    assert "2 questions" in report.text
    # one row per distinct file: the square is named twice (question and explanation)
    assert rows(db_path, "SELECT COUNT(*) FROM pictures") == [(2,)]
    assert stored_pictures(db_path) == [("images/red.png", red()), ("images/square.png", png())]

    ada = Learner(api, FakeUser(5001, "Ada", "en"))
    question = await ada.send("/quiz pics", "Question 1 of 2")
    assert question.photo is not None and "A white square" in (question.caption or "")
    assert api.photo_uploads == [png()]  # uploaded from the database's bytes
    bola = Learner(api, FakeUser(5002, "Bola", "en"))
    again = await bola.send("/quiz pics", "Question 1 of 2")
    assert again.photo is not None and api.photo_uploads == [png()]  # then by its file_id
    assert api.calls_to("sendPhoto")[-1].params["photo"] == question.photo[-1]["file_id"]

    document = await export(api, "/export pics")
    assert document.document is not None and document.document["file_name"] == "pics.zip"
    exported = contents(api.file_content(document.document))
    assert exported["images/square.png"] == png() and exported["images/red.png"] == red()
    assert set(exported) == {"pics.yaml", "images/square.png", "images/red.png"}
    again_report = await upload(
        api, ADMIN, api.file_content(document.document), "Nothing changed", name="pics.zip"
    )
    assert "pics" in again_report.text
    assert stored_pictures(db_path) == [("images/red.png", red()), ("images/square.png", png())]
    assert failed_calls(api) == []


async def test_pictures_of_an_imported_bank_survive_a_restart(
    api: FakeBotApi, settings: Settings
) -> None:
    async with running_bot(settings):
        await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    async with running_bot(settings):
        ada = Learner(api, FakeUser(5003, "Ada", "en"))
        question = await ada.send("/quiz pics", "Question 1 of 2")
        assert question.photo is not None
        _, second = await ada.choose(question, 0, "Question 2 of 2")
        assert second.photo is not None
    assert api.photo_uploads == [png(), red()]


@pytest.mark.parametrize("fmt", ["xml", "csv", "xlsx", "yaml"])
async def test_each_format_that_carries_pictures_exports_them_and_imports_back_unchanged(
    api: FakeBotApi, bot: QuizApplication, db_path: Path, fmt: str
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    document = await export(api, f"/export pics {fmt}")
    assert document.document is not None
    data = api.file_content(document.document)
    name = document.document["file_name"]
    if fmt != "xml":  # Moodle XML embeds them in base64; the others travel in a .zip
        assert name == "pics.zip" and contents(data)["images/red.png"] == red()
    else:
        loaded = read_quiz(data, FORMATS["xml"], ReadOptions(name=name))
        assert sorted(loaded.images.values()) == sorted([png(), red()])
    # CSV has no place for the bank's title: the same questions and pictures, a new title
    expect = "Nothing changed" if fmt != "csv" else "updated"
    await upload(api, ADMIN, data, expect, name=name)
    assert stored_pictures(db_path) == [("images/red.png", red()), ("images/square.png", png())]


async def test_the_gift_export_says_it_left_the_pictures_out(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    seen = len(api.bot_messages(ADMIN.id))
    document = await export(api, "/export pics gift")
    assert document.document is not None and document.document["file_name"] == "pics.gift"
    note = await api.wait_for_bot_message(ADMIN.id, "GIFT cannot hold", after=seen)
    assert "image" in note.text


async def test_the_anki_export_carries_the_pictures_as_media(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    document = await export(api, "/export pics apkg")
    assert document.document is not None
    package = contents(api.file_content(document.document))
    assert {png(), red()} <= set(package.values())


async def test_a_replaced_bank_drops_the_pictures_no_bank_uses(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    other = BANK.replace("id: pics", "id: other").replace("    image: images/red.png\n", "")
    await upload(api, ADMIN, bundle(other), "imported", name="other.zip")
    without_red = BANK.replace("    image: images/red.png\n", "")
    await upload(api, ADMIN, bundle(without_red), "imported", name="pics.zip")
    assert stored_pictures(db_path) == [("images/square.png", png())] * 2  # both banks' square
    assert rows(db_path, "SELECT COUNT(*) FROM pictures") == [(1,)]
    ada = Learner(api, FakeUser(5004, "Ada", "en"))
    await ada.send("/quiz other", "Question 1 of 2")
    assert api.photo_uploads == [png()]


async def test_a_retired_question_takes_its_picture_along_when_no_bank_names_it(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    admin = Learner(api, ADMIN)
    await admin.send("/delquestion pics p2", "is retired")
    assert stored_pictures(db_path) == [("images/square.png", png())]


# each refused .zip, with what the refusal must name
REFUSED_BUNDLES = [
    pytest.param(
        bundle(images={"images/red.png": png() + os.urandom(MAX_IMAGE_BYTES)}),
        ("images/red.png", "an image may have at most"),
        id="oversized-image",
    ),
    pytest.param(
        bundle(images={"images/red.png": b"GIF89a" + bytes(100)}),
        ("images/red.png", "not a PNG, JPEG or WebP image"),
        id="not-an-image",
    ),
    pytest.param(
        bundle(images={"images/red.png": png()[:40]}),
        ("images/red.png", "or a damaged one"),
        id="damaged-image",
    ),
    pytest.param(  # refused before it is unpacked
        zipped(
            ("pics/pics.yaml", BANK.encode()),
            ("pics/images/square.png", png()),
            ("pics/images/red.png", bytes(MAX_IMAGE_BYTES - 1)),
        ),
        ("images/red.png", "a zip bomb?"),
        id="zip-bomb",
    ),
    pytest.param(
        zipped(("pics.yaml", BANK.encode()), ("../images/red.png", red())),
        ("`..` is not allowed",),
        id="a-file-out-of-the-bundle",
    ),
    pytest.param(
        bundle(BANK.replace("images/red.png", "../red.png")),
        ("../red.png", "`..` is not allowed"),
        id="the-bank-names-a-path-out",
    ),
    pytest.param(
        zipped(("pics.yaml", BANK.encode()), ("images/square.png", png())),
        ("question p2 (#2), field image", "images/red.png: not in the .zip beside the bank"),
        id="an-image-missing",
    ),
]


@pytest.mark.parametrize(("data", "named"), REFUSED_BUNDLES)
async def test_a_bad_bundle_is_refused_saying_why_and_nothing_is_stored(
    api: FakeBotApi, bot: QuizApplication, db_path: Path, data: bytes, named: tuple[str, ...]
) -> None:
    report = await upload(api, ADMIN, data, "was refused", name="pics.zip")
    assert [words for words in named if words not in report.text] == []
    assert nothing_stored(db_path)


def noise_png(side: int) -> bytes:
    """A PNG of random pixels: it does not compress, so its size is about 3 × side²."""
    buffer = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(3 * side * side)).save(buffer, "PNG")
    return buffer.getvalue()


async def test_pictures_past_the_limit_of_one_bank_are_refused_and_nothing_is_stored(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    # four of them weigh more than 19 MiB, and the .zip stays under the 20 MB Telegram lets
    # a bot download
    heavy = noise_png(1289)
    assert len(heavy) > 19 * MIB / 4 and 4 * len(heavy) < 20_000_000 - 2000
    questions = "".join(
        f"  - {{id: h{k}, text: 'Noise {k}?', image: images/h{k}.png, options: [a, b], answer: 0}}\n"
        for k in range(4)
    )
    bank = "id: heavy\ntitle: Heavy\nlevel: easy\nquestions:\n" + questions
    files = [(f"images/h{k}.png", heavy) for k in range(4)]
    heavy_zip = zipped(("heavy.yaml", bank.encode()), *files)
    report = await upload(api, ADMIN, heavy_zip, "was refused", name="heavy.zip")
    assert "images/h3.png: the bank's images would weigh more than 19 MiB together" in report.text
    assert nothing_stored(db_path)


async def test_pictures_past_the_limit_of_all_banks_are_refused_and_nothing_is_stored(
    api: FakeBotApi, db_path: Path, tmp_path: Path
) -> None:
    limit = len(png()) + len(red()) + 10  # the first bank fits; a third picture does not
    settings = make_settings(
        api,
        db_path,
        content_dir=seed_banks(tmp_path),
        admin_ids=frozenset({ADMIN.id}),
        stored_pictures_max_bytes=limit,
    )
    async with running_bot(settings):
        await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
        other = BANK.replace("id: pics", "id: other")
        third = bundle(
            other.replace("images/red.png", "images/big.png"), {"images/big.png": png(40, 40)}
        )
        report = await upload(api, ADMIN, third, "was refused", name="other.zip")
    assert "The pictures of all imported banks would weigh" in report.text
    assert "MiB" in report.text
    assert rows(db_path, "SELECT quiz_id FROM content_banks") == [("pics",)]
    assert rows(db_path, "SELECT COUNT(*) FROM pictures") == [(2,)]


async def test_an_export_whose_picture_is_no_longer_stored_says_so_and_sends_nothing(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    await upload(api, ADMIN, bundle(), "imported", name="pics.zip")
    with sqlite3.connect(db_path) as db:  # a file lost (a restore of an older backup, by hand)
        db.execute("DELETE FROM pictures WHERE data=?", (red(),))
    seen = len(api.bot_messages(ADMIN.id))
    api.send_text(ADMIN, "/export pics")
    refusal = await api.wait_for_bot_message(ADMIN.id, "images/red.png", after=seen)
    assert "no longer stored" in refusal.text and ".zip beside" not in refusal.text
    assert not any(m.document for m in api.bot_messages(ADMIN.id)[seen:])
    assert failed_calls(api) == []
