"""The picture files of stored banks: one row per distinct file, shared by the banks that
name it, written in the bank's transaction and deleted once no bank names it."""

from __future__ import annotations

import hashlib

import pytest

from storage import Storage
from storage.errors import StorageError
from storage.media_store import BankPictures

SQUARE, CIRCLE = b"square bytes", b"circle bytes"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pictures(**uses: bytes) -> BankPictures:
    """Uses by path (`a_png` is a.png), with every file's bytes."""
    named = {name.replace("_", "."): sha(data) for name, data in uses.items()}
    return BankPictures(named, {sha(data): data for data in uses.values()})


async def save(storage: Storage, quiz_id: str, kept: BankPictures | None) -> None:
    await storage.content.save_bank(quiz_id, f"id: {quiz_id}", 1, 0.0, "import", {}, pictures=kept)


async def test_banks_share_one_file_and_it_goes_with_the_last_bank_that_names_it(
    storage: Storage,
) -> None:
    await save(storage, "one", pictures(a_png=SQUARE, b_png=CIRCLE))
    await save(storage, "two", pictures(c_png=SQUARE))
    assert await storage.media.stored([sha(SQUARE), sha(CIRCLE)]) == {sha(SQUARE), sha(CIRCLE)}
    assert await storage.media.bank_pictures("two") == {"c.png": SQUARE}
    assert await storage.media.sizes_of_other_banks("one") == {sha(SQUARE): len(SQUARE)}

    await save(storage, "one", BankPictures({"a.png": sha(SQUARE)}))  # the circle is gone
    assert await storage.media.picture(sha(CIRCLE)) is None
    assert await storage.media.picture(sha(SQUARE)) == SQUARE
    await save(storage, "two", BankPictures({}))
    await save(storage, "one", None)  # None leaves them as they are
    assert await storage.media.bank_pictures("one") == {"a.png": SQUARE}
    await save(storage, "one", BankPictures({}))
    assert await storage.media.stored([sha(SQUARE)]) == set()


async def test_a_file_neither_stored_nor_given_fails_the_whole_save(storage: Storage) -> None:
    await save(storage, "one", pictures(a_png=SQUARE))
    with pytest.raises(StorageError):
        await save(storage, "one", BankPictures({"a.png": sha(CIRCLE)}))
    assert await storage.media.bank_pictures("one") == {"a.png": SQUARE}
    assert [bank.yaml for bank in await storage.content.banks()] == ["id: one"]
