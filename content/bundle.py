"""A bank with its images as one `.zip` (a bundle): read safely, entirely in memory.

What a bundle may be: at most 20 MiB; exactly one `.yaml`/`.yml` bank (at most 512 KiB) and
its images (each at most 5 MiB) in the bank's folder or below it; at most 20 MiB unpacked in
all. Entries are only stored or deflated, never encrypted; no links or other special files;
no absolute names, no `..`, no backslashes, no name twice. The sizes an entry declares are
checked before anything is unpacked, an entry over 64 KiB may not expand more than 100 times,
and every entry is read with a limit and must give exactly its declared size and checksum, so
a zip bomb costs at most the limits. Files outside the bank's folder, sound and video files
(no bank can use them) and macOS's `__MACOSX/` and `.DS_Store` are not read. Nothing is ever
written to disk.
"""

from __future__ import annotations

import io
import posixpath
import stat
import unicodedata
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass

from content.images import (
    MAX_IMAGE_BYTES,
    MEDIA_SUFFIXES,
    MIB,
    BundleImages,
    ImageError,
    image_location,
)
from content.loader import MAX_BANK_BYTES, PLAYABLE, Accepts, BankResult, parse_bank

MAX_BUNDLE_BYTES = 20 * MIB  # the .zip itself, and everything in it unpacked
# A bank has at most 500 questions with two images each; the rest is folders and room.
MAX_ENTRIES = 1200
MAX_RATIO = 100  # how many times an entry may expand...
RATIO_FLOOR = 64 * 1024  # ...once it is bigger than this (small texts of repeats do better)
_CENTRAL_ENTRY = b"PK\x01\x02"  # each entry of the central directory starts with it
_UNIX = 3
_IGNORED_FOLDERS = ("__MACOSX/",)
_IGNORED_NAMES = (".DS_Store",)


# What a bundle's main file may be, by suffix, with its size limit: a YAML bank here; the
# interchange formats (content/formats/) pass theirs.
YAML_MAINS: Mapping[str, int] = {".yaml": MAX_BANK_BYTES, ".yml": MAX_BANK_BYTES}


class BundleError(ValueError):
    """Not a bundle the bot takes; the message says why, in plain text."""


@dataclass(frozen=True)
class Bundle:
    bank_name: str  # the bank's name in the zip
    bank: bytes
    images: Mapping[str, bytes]  # every other file of the bank's folder, by path relative to it


def _name(info: zipfile.ZipInfo) -> str:
    """The entry's canonical path, or BundleError for a name that could escape or deceive."""
    raw = info.orig_filename
    if any(ord(char) < 32 or ord(char) == 127 for char in raw):
        raise BundleError(f"{raw[:60]!r}: a name with control characters")
    try:
        return image_location(raw.removesuffix("/")) + ("/" if raw.endswith("/") else "")
    except ImageError as error:
        raise BundleError(f"{raw[:60]!r} in the .zip: {error}") from None


def _check_entry(info: zipfile.ZipInfo, name: str, mains: Mapping[str, int]) -> None:
    if info.flag_bits & 0x1:
        raise BundleError(f"{name}: encrypted entries are not taken")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise BundleError(f"{name}: compressed with a method other than deflate")
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when a tool wrote only permissions
    if info.create_system == _UNIX and kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        what = "a link" if kind == stat.S_IFLNK else "not a plain file"
        raise BundleError(f"{name}: {what}; a bundle holds plain files")
    main = _main_limit(name, mains)
    limit = main if main is not None else MAX_IMAGE_BYTES
    if _media(name):
        limit = MAX_BUNDLE_BYTES  # not read: counted in the bundle's unpacked size only
    if info.file_size > limit:
        what = "a bank" if main is not None else "an image"
        raise BundleError(
            f"{name}: {info.file_size:,} bytes unpacked; {what} may have at most {limit:,}"
        )
    if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise BundleError(
            f"{name}: expands {info.file_size // max(info.compress_size, 1):,} times; "
            f"at most {MAX_RATIO} (a zip bomb?)"
        )


def _main_limit(name: str, mains: Mapping[str, int]) -> int | None:
    """The size limit of a main file of this name, or None for any other file."""
    suffix = posixpath.splitext(name.lower())[1]
    return mains.get(suffix)


def _ignored(name: str) -> bool:
    return (
        name.startswith(_IGNORED_FOLDERS)
        or posixpath.basename(name) in _IGNORED_NAMES
        or _media(name)
    )


def _media(name: str) -> bool:
    """Sound or video: no bank can use it (the question naming it says so), so it is not read."""
    return posixpath.splitext(name.lower())[1].lstrip(".") in MEDIA_SUFFIXES


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> bytes:
    try:
        with archive.open(info) as entry:
            data = entry.read(info.file_size + 1)
    except Exception as error:  # zipfile raises many kinds on crafted headers (fuzzing found
        # NotImplementedError besides BadZipFile, zlib.error, EOFError): each means damaged
        raise BundleError(f"{name}: damaged ({str(error)[:80]})") from None
    if len(data) != info.file_size:
        raise BundleError(f"{name}: damaged (its size is not the one it declares)")
    return data


def read_bundle(data: bytes, mains: Mapping[str, int] = YAML_MAINS) -> Bundle:
    """The bank and its images from a `.zip`'s bytes; BundleError says why not. Never raises
    anything else. `mains` are the suffixes a main file may have (a `.yaml` bank unless
    given), with their size limits."""
    if len(data) > MAX_BUNDLE_BYTES:
        raise BundleError(f"{len(data):,} bytes; a .zip may have at most 20 MiB")
    # Counted before zipfile builds an object per entry: no entry escapes this count.
    if data.count(_CENTRAL_ENTRY) > MAX_ENTRIES:
        raise BundleError(f"more than {MAX_ENTRIES} entries; a bank has far fewer files")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as error:
        raise BundleError(f"not a .zip file ({str(error)[:80]})") from None
    except Exception:  # zipfile raises other kinds on crafted headers (struct.error, ...)
        raise BundleError("not a readable .zip file") from None
    with archive:
        return _contents(archive, mains)


def _contents(archive: zipfile.ZipFile, mains: Mapping[str, int]) -> Bundle:
    files: dict[str, zipfile.ZipInfo] = {}
    composed: set[str] = set()  # each name in one Unicode form: a Mac writes é as e + ´
    declared = 0
    for info in archive.infolist():
        name = _name(info)
        form = unicodedata.normalize("NFC", name.rstrip("/"))
        if form in composed:
            raise BundleError(f"{name}: twice in the .zip")
        composed.add(form)
        _check_entry(info, name, mains)
        declared += info.file_size
        if declared > MAX_BUNDLE_BYTES:
            raise BundleError("more than 20 MiB unpacked; a bundle may have at most 20 MiB")
        if not name.endswith("/") and not info.is_dir():
            files[name] = info
    wanted = {name: info for name, info in files.items() if not _ignored(name)}
    banks = sorted(name for name in wanted if _main_limit(name, mains) is not None)
    if len(banks) != 1:
        found = ", ".join(banks[:5]) if banks else "none"
        kinds = "/".join(sorted(mains)) if mains is not YAML_MAINS else ".yaml bank"
        raise BundleError(f"a .zip holds exactly one {kinds} and its images (found: {found})")
    bank_name = banks[0]
    folder = posixpath.dirname(bank_name)
    prefix = f"{folder}/" if folder else ""
    bank = _read(archive, wanted[bank_name], bank_name)
    images = {
        name.removeprefix(prefix): _read(archive, info, name)
        for name, info in wanted.items()
        if name != bank_name and name.startswith(prefix)
    }
    return Bundle(bank_name, bank, images)


def parse_bundle(
    data: bytes, source: str, default_language: str, accepts: Accepts = PLAYABLE
) -> BankResult:
    """A bank that came as a bundle, validated with the images it holds."""
    try:
        bundle = read_bundle(data)
    except BundleError as error:
        return BankResult(source, None, (str(error),))
    return parse_bank(
        bundle.bank,
        f"{source}: {bundle.bank_name}",
        default_language,
        images=BundleImages(bundle.images),
        accepts=accepts,
    )


def write_bundle(bank_name: str, bank: bytes, images: Mapping[str, bytes]) -> bytes:
    """A bundle that `read_bundle` gives back: the YAML deflated, the images stored (they are
    compressed already), names as given."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(bank_name, bank, compress_type=zipfile.ZIP_DEFLATED)
        folder = posixpath.dirname(bank_name)
        for location, data in sorted(images.items()):
            name = posixpath.join(folder, location) if folder else location
            archive.writestr(name, data, compress_type=zipfile.ZIP_STORED)
    return buffer.getvalue()
