"""`.zip` bundles of a bank and its images (issue 14, content side): what is taken, hostile
zips made by hand (escaping names, links, bombs, lying sizes), and properties: a written
bundle reads back, and no bytes make the reader fail other than with BundleError."""

from __future__ import annotations

import contextlib
import io
import os
import random
import stat
import struct
import unicodedata
import warnings
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content.bundle import (
    MAX_BUNDLE_BYTES,
    MAX_ENTRIES,
    Bundle,
    BundleError,
    parse_bundle,
    read_bundle,
    write_bundle,
)
from content.export import export_bundle
from content.images import MAX_IMAGE_BYTES, MIB
from content.loader import EVERYTHING, MAX_BANK_BYTES
from tests.support.images import png

BANK = (
    b"id: pics\ntitle: Pictures\nlevel: easy\nquestions:\n"
    b"  - id: q1\n    type: true_false\n    text: Is it?\n    answer: true\n"
    b"    image: images/a.png\n    image_alt: A square\n"
)


def zipped(
    *entries: tuple[str | zipfile.ZipInfo, bytes], method: int = zipfile.ZIP_DEFLATED
) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(buffer, "w", compression=method) as archive:
            for name, data in entries:
                archive.writestr(name, data)
    return buffer.getvalue()


def refusal(data: bytes) -> str:
    with pytest.raises(BundleError) as caught:
        read_bundle(data)
    return str(caught.value)


# --- what is taken ----------------------------------------------------------------------


def test_a_bundle_gives_the_bank_and_its_images_by_relative_path() -> None:
    image = png(12, 12)
    bundle = read_bundle(zipped(("bank.yaml", BANK), ("images/a.png", image), ("images/", b"")))
    assert bundle == Bundle("bank.yaml", BANK, {"images/a.png": image})


def test_a_bank_in_a_folder_of_the_zip_takes_its_paths_from_there() -> None:
    image = png()
    bundle = read_bundle(
        zipped(
            ("drill/drill.yml", BANK),
            ("drill/images/a.png", image),
            ("elsewhere/b.png", b"not read"),
            ("__MACOSX/drill/._drill.yml", b"apple double"),
            ("drill/.DS_Store", b"finder"),
        )
    )
    assert bundle.bank_name == "drill/drill.yml"
    assert bundle.images == {"images/a.png": image}


def test_a_bundle_validates_as_a_bank_with_its_images() -> None:
    result = parse_bundle(
        zipped(("bank.yaml", BANK), ("images/a.png", png())), "up.zip", "en", EVERYTHING
    )
    assert result.errors == ()
    assert result.quiz is not None
    assert result.source == "up.zip: bank.yaml"
    image = result.quiz.questions[0].image
    assert image is not None and image.location == "images/a.png"
    assert result.images == {"images/a.png": png()}


def test_a_bundle_without_the_image_is_an_error_with_its_place() -> None:
    result = parse_bundle(zipped(("bank.yaml", BANK)), "up.zip", "en", EVERYTHING)
    assert result.errors == (
        "question q1 (#1), field image: images/a.png: not in the .zip beside the bank",
    )


def test_export_bundle_round_trips() -> None:
    first = parse_bundle(
        zipped(("bank.yaml", BANK), ("images/a.png", png())), "up.zip", "en", EVERYTHING
    )
    assert first.quiz is not None
    data = export_bundle(first.quiz, first.images)
    second = parse_bundle(data, "export.zip", "en", EVERYTHING)
    assert second.quiz == first.quiz
    assert second.images == first.images
    assert second.source == "export.zip: pics.yaml"
    with pytest.raises(ValueError, match="images/a.png"):
        export_bundle(first.quiz, {})


# --- hostile or broken zips, made by hand -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("../evil.png", "`..` is not allowed"),
        ("images/../../evil.png", "`..` is not allowed"),
        ("/etc/evil.png", "absolute path"),
        ("C:/evil.png", "absolute path"),
        ("images\\evil.png", "write paths with /"),
        ("images/evil\x01.png", "control characters"),
    ],
)
def test_names_that_could_escape_are_refused(name: str, words: str) -> None:
    assert words in refusal(zipped(("bank.yaml", BANK), (name, png())))


def test_a_name_with_a_nul_is_refused() -> None:
    # zipfile cuts names at NUL when it writes them: write another byte, then change it
    data = zipped(("bank.yaml", BANK), ("images/evil#.png", png()))
    assert "control characters" in refusal(data.replace(b"evil#", b"evil\x00"))


def test_a_link_is_refused() -> None:
    link = zipfile.ZipInfo("images/a.png")
    link.create_system = 3
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    assert "a link" in refusal(zipped(("bank.yaml", BANK), (link, b"/etc/passwd")))


def test_a_device_or_pipe_entry_is_refused() -> None:
    fifo = zipfile.ZipInfo("images/a.png")
    fifo.create_system = 3
    fifo.external_attr = (stat.S_IFIFO | 0o644) << 16
    assert "not a plain file" in refusal(zipped(("bank.yaml", BANK), (fifo, b"")))


def test_an_image_over_5_mib_unpacked_is_refused_before_unpacking() -> None:
    data = zipped(("bank.yaml", BANK), ("images/a.png", b"\x00" * (MAX_IMAGE_BYTES + 1)))
    assert len(data) < 100_000  # zeros compress: only the declared size can tell
    assert "images/a.png: 5,242,881 bytes unpacked; an image may have at most 5,242,880" in refusal(
        data
    )


def test_a_bank_over_512_kib_is_refused() -> None:
    data = zipped(("bank.yaml", b"#" * (MAX_BANK_BYTES + 1)))
    assert "a bank may have at most 524,288" in refusal(data)


def test_an_entry_that_expands_too_much_is_a_bomb() -> None:
    data = zipped(("bank.yaml", BANK), ("images/a.png", b"\x00" * (4 * MIB)))
    assert "expands" in refusal(data) and "zip bomb" in refusal(data)


def test_a_small_entry_may_compress_well() -> None:
    bundle = read_bundle(zipped(("bank.yaml", BANK + b"#" * 60_000)))
    assert bundle.bank.endswith(b"#")


def _compressible(size: int, seed: int) -> bytes:
    """Bytes that deflate about three times: no bomb, but cheap to send."""
    chooser = random.Random(seed)
    return bytes(chooser.choice(b"abcdefgh") for _ in range(size))


def test_more_than_20_mib_unpacked_in_all_is_refused() -> None:
    image = _compressible(MAX_IMAGE_BYTES - 1000, 1)
    entries = [("bank.yaml", BANK)] + [(f"images/{n}.png", image) for n in range(5)]
    data = zipped(*entries)
    assert len(data) < MAX_BUNDLE_BYTES
    assert "more than 20 MiB unpacked" in refusal(data)


def test_more_than_20_mib_of_zip_is_refused_unread() -> None:
    assert "at most 20 MiB" in refusal(b"PK" + b"\x00" * MAX_BUNDLE_BYTES)


def test_too_many_entries_are_refused_before_zipfile_reads_them() -> None:
    entries = [("bank.yaml", BANK)] + [(f"e/{n}", b"") for n in range(MAX_ENTRIES)]
    assert f"more than {MAX_ENTRIES} entries" in refusal(
        zipped(*entries, method=zipfile.ZIP_STORED)
    )


def _patch_sizes(data: bytes, name: bytes, size: int) -> bytes:
    """The zip with the uncompressed size of entry `name` rewritten in both its headers."""
    patched = bytearray(data)
    found = 0
    # (signature, offset of the uncompressed size, offset of the name) in each header
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = 0
        while (start := patched.find(signature, start)) != -1:
            if patched[start + name_at : start + name_at + len(name)] == name:
                struct.pack_into("<I", patched, start + size_at, size)
                found += 1
            start += 4
    assert found == 2
    return bytes(patched)


@pytest.mark.parametrize("declared", [1000, 2 * MIB])
def test_an_entry_whose_declared_size_lies_is_refused(declared: int) -> None:
    image = os.urandom(MIB)  # the true size: 1 MiB
    data = _patch_sizes(
        zipped(("bank.yaml", BANK), ("images/a.png", image)), b"images/a.png", declared
    )
    assert "images/a.png: damaged" in refusal(data)


def test_encrypted_entries_are_refused() -> None:
    # zipfile never writes encrypted entries: set the flag in both headers by hand
    patched = bytearray(zipped(("bank.yaml", BANK), ("images/a.png", png())))
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := patched.find(signature, start)) != -1:
            patched[start + flags_at] |= 0x1
            start += 4
    assert "encrypted" in refusal(bytes(patched))


def test_an_entry_zipfile_cannot_open_is_refused() -> None:
    # found by fuzzing: "compressed patched data" (flag bit 5) made zipfile raise
    # NotImplementedError, which escaped the reader
    patched = bytearray(zipped(("bank.yaml", BANK)))
    patched[patched.find(b"PK\x01\x02") + 8] |= 0x20
    assert "bank.yaml: damaged" in refusal(bytes(patched))


def test_other_compression_methods_are_refused() -> None:
    data = zipped(("bank.yaml", BANK), method=zipfile.ZIP_BZIP2)
    assert "other than deflate" in refusal(data)


def test_a_name_twice_is_refused() -> None:
    assert "twice" in refusal(zipped(("bank.yaml", BANK), ("a.png", png()), ("a.png", png())))


@pytest.mark.parametrize(
    ("entries", "found"),
    [
        ([("a.png", b"x")], "none"),
        ([("a.yaml", BANK), ("b.yml", BANK)], "a.yaml, b.yml"),
        ([("__MACOSX/a.yaml", BANK)], "none"),
    ],
)
def test_exactly_one_bank(entries: list[tuple[str, bytes]], found: str) -> None:
    assert f"exactly one .yaml bank and its images (found: {found})" in refusal(zipped(*entries))


@pytest.mark.parametrize("data", [b"", b"PK", b"not a zip at all", os.urandom(1000)])
def test_what_is_not_a_zip(data: bytes) -> None:
    assert "not a" in refusal(data) and ".zip" in refusal(data)


def test_a_truncated_zip_is_refused() -> None:
    data = zipped(("bank.yaml", BANK), ("images/a.png", png()))
    for cut in (10, len(data) // 2, len(data) - 5):
        refusal(data[:cut])


# --- properties ---------------------------------------------------------------------------

names = st.lists(
    st.text("abcxyz0123-_.", min_size=1, max_size=8).filter(lambda part: part not in {".", ".."}),
    min_size=1,
    max_size=3,
).map("/".join)


@given(
    st.dictionaries(names, st.binary(max_size=300), max_size=6),
    st.sampled_from(["bank.yaml", "drill/bank.yml", "a/b/c.yaml"]),
)
def test_a_written_bundle_reads_back(images: dict[str, bytes], bank_name: str) -> None:
    images = {
        name: data
        for name, data in images.items()
        if not name.lower().endswith((".yaml", ".yml"))
        and not any(other.startswith(name + "/") for other in images)
        and name != ".DS_Store"
        and not name.endswith("/.DS_Store")
    }
    bundle = read_bundle(write_bundle(bank_name, BANK, images))
    assert bundle == Bundle(bank_name, BANK, images)


VALID = zipped(("drill/bank.yaml", BANK), ("drill/images/a.png", png()), ("drill/b.png", png(3, 3)))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.integers(0, 255)), max_size=8))
def test_a_damaged_bundle_gives_a_bundle_or_a_bundle_error(changes: list[tuple[int, int]]) -> None:
    data = bytearray(VALID)
    for position, value in changes:
        data[position] = value
    try:
        bundle = read_bundle(bytes(data))
    except BundleError:
        return
    assert bundle.bank_name.endswith((".yaml", ".yml"))
    assert all(".." not in name.split("/") for name in bundle.images)


@settings(max_examples=200)
@given(st.binary(max_size=2000))
def test_random_bytes_are_refused_with_a_bundle_error(data: bytes) -> None:
    with pytest.raises(BundleError):
        read_bundle(data)


@settings(max_examples=200)
@given(st.integers(0, len(VALID)))
def test_any_cut_of_a_bundle_is_refused_cleanly(cut: int) -> None:
    with contextlib.suppress(BundleError):
        read_bundle(VALID[:cut])


# Names a Mac writes decomposed (NFD), as typed text is composed (NFC): "ọ̀" is one name.
COMPOSED = unicodedata.normalize("NFC", "images/ọ̀rọ̀.png")
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)


def test_a_name_twice_in_two_unicode_forms_is_refused() -> None:
    assert COMPOSED != DECOMPOSED
    found = refusal(zipped(("bank.yaml", BANK), (COMPOSED, png()), (DECOMPOSED, png(9, 9))))
    assert "twice" in found


def test_an_image_named_in_another_unicode_form_than_the_bank_writes_it_is_found() -> None:
    bank = BANK.replace(b"images/a.png", COMPOSED.encode())
    result = parse_bundle(
        zipped(("bank.yaml", bank), (DECOMPOSED, png())), "up.zip", "en", EVERYTHING
    )
    assert result.errors == ()
    assert result.images == {COMPOSED: png()}  # kept under the bank's name for it
