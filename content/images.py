"""Question images: where a bank's images may come from, and what an image must be.

An image is a path relative to the bank file (`images/schedule.png`) or an https URL. Paths
never leave the bank's folder: no `..`, no absolute path, no link pointing outside it. A file
must really be a PNG, JPEG or WebP (by its content, whatever its name), at most 5 MiB, and
within what Telegram takes as a photo (width + height ≤ 10,000, sides at most 20 to 1).
Pillow reads the format and the size from the file's header and checks the file's structure
without decoding its pixels; its decompression-bomb guard stays on. URLs are not fetched.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import unicodedata
import warnings
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from PIL import Image as PillowImage

from content.model import Image

MIB = 1024 * 1024
MAX_IMAGE_BYTES = 5 * MIB
TELEGRAM_PHOTO_BYTES = 10_000_000  # sendPhoto: "at most 10 MB"; ours (5 MiB) is stricter
MAX_WIDTH_PLUS_HEIGHT = (
    10_000  # sendPhoto: "the photo's width and height must not exceed 10000 in total"
)
MAX_SIDE_RATIO = 20  # sendPhoto: "width and height ratio must be at most 20"
# What a bank's images may weigh together, so that the bank (at most 512 KiB of YAML) and its
# images always fit one bundle (content/bundle.py, 20 MiB) when it is exported.
MAX_BANK_IMAGES_BYTES = 19 * MIB
# What a PNG's pixels take once inflated (rows of pixels, each with its filter byte), read
# from its header before anything is inflated: a picture of 4,000 × 4,000 in 8-bit RGBA takes
# 61 MiB; a 195 KB file of 5,000 × 5,000 in 16-bit RGBA inflates to 200 MB, which every
# device showing it would have to decode. Inflating costs about 2.5 ms a MiB here.
MAX_PICTURE_PIXEL_BYTES = 64 * MIB
MAX_BANK_PIXEL_BYTES = 512 * MIB  # a bank's PNGs together: some 60 full-HD screenshots
MAX_PATH_LENGTH = 255
MAX_URL_LENGTH = 2048

FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "WEBP": "WebP"}
# Sound and video, by extension: what a bank cannot show (a question naming one is refused by
# name, and a bundle does not read such files).
# fmt: off
MEDIA_SUFFIXES = frozenset(["mp3", "wav", "ogg", "oga", "opus", "m4a", "aac", "flac", "wma",
    "mid", "midi", "mp4", "m4v", "webm", "ogv", "mov", "avi", "mkv", "wmv", "mpeg", "mpg", "3gp",
    "flv", "swf"])
# fmt: on
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
)
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

NOT_AN_IMAGE = "not a PNG, JPEG or WebP image (the file's content is checked, not its name)"


class ImageError(ValueError):
    """An image that cannot be used; the message says why (plain text, no path of the host)."""


def _bytes(count: int) -> str:
    return f"{count:,} bytes"


def image_location(text: str) -> str:
    """The canonical form of an image's place in a bank, or ImageError.

    An https URL stays as written; a path is made canonical (`./a//b.png` is `a/b.png`).
    """
    if not text or not text.strip():
        raise ImageError("an empty image; write a path such as images/diagram.png or an https URL")
    if _CONTROL.search(text):
        raise ImageError("an image path or URL has no control characters")
    if "://" in text or text.lower().startswith(("http:", "https:", "data:", "file:")):
        return _https_url(text)
    if len(text) > MAX_PATH_LENGTH:
        raise ImageError(f"an image path has at most {MAX_PATH_LENGTH} characters")
    if "\\" in text:
        raise ImageError(f"{text!r}: write paths with / (images/diagram.png)")
    if text.startswith("/") or _DRIVE.match(text):
        raise ImageError(f"{text!r}: an absolute path; write it relative to the bank file")
    parts = [part for part in text.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ImageError(f"{text!r}: `..` is not allowed; images live in the bank's folder")
    if not parts:
        raise ImageError(f"{text!r} names no file")
    return "/".join(parts)


def _https_url(text: str) -> str:
    if len(text) > MAX_URL_LENGTH:
        raise ImageError(f"an image URL has at most {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        host = None
        parts = None
    if parts is None or parts.scheme != "https" or not text.startswith("https://"):
        raise ImageError(f"{text[:60]!r}: an image URL must start with https://")
    if not host or any(char.isspace() for char in text):
        raise ImageError(f"{text[:60]!r} is not a valid URL")
    return text


@dataclass(frozen=True)
class ImageInfo:
    format: str  # PNG, JPEG or WebP
    width: int
    height: int
    pixel_bytes: int = 0  # a PNG's pixels inflated (0 for the others: they are not decoded here)


def inspect_image(data: bytes, pixel_bytes_left: int = MAX_BANK_PIXEL_BYTES) -> ImageInfo:
    """What the bytes are, if they make an image Telegram takes as a photo; else ImageError.
    Its size and, for a PNG, what its pixels take inflated are checked from the header, before
    its pixel data is inflated (`pixel_bytes_left`: what the bank's PNGs may still take)."""
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageError(f"{_bytes(len(data))}; an image may have at most 5 MiB")
    if not any(data.startswith(magic) for magic, _ in _MAGIC) and not (
        data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    ):
        raise ImageError(NOT_AN_IMAGE)
    try:
        with warnings.catch_warnings():
            # Pillow warns above MAX_IMAGE_PIXELS and refuses above twice that: refuse both
            warnings.simplefilter("error", PillowImage.DecompressionBombWarning)
            with PillowImage.open(io.BytesIO(data), formats=list(FORMATS)) as image:
                kind = FORMATS.get(image.format or "")
                width, height = image.size  # from the header: nothing decoded yet
                _check_size(width, height)
                image.verify()  # the file's structure (PNG chunks and checksums), no pixels
    except (PillowImage.DecompressionBombError, PillowImage.DecompressionBombWarning):
        raise ImageError("too many pixels for a safe image") from None
    except ImageError:
        raise
    except Exception:  # Pillow raises many kinds for a broken file; any of them means "broken"
        raise ImageError(f"{NOT_AN_IMAGE}, or a damaged one") from None
    if kind is None:
        raise ImageError(NOT_AN_IMAGE)
    pixel_bytes = 0
    if kind == "PNG":
        pixel_bytes = png_pixel_bytes(data, width, height)
        if pixel_bytes > MAX_PICTURE_PIXEL_BYTES:
            raise ImageError(
                f"{width} × {height} pixels of {_png_bits(data)} bits take {pixel_bytes / MIB:,.0f} MiB "
                f"once inflated; a picture may take at most {MAX_PICTURE_PIXEL_BYTES // MIB} MiB "
                "(save it smaller, or with 8 bits a channel)"
            )
        if pixel_bytes > pixel_bytes_left:
            raise ImageError(
                f"the bank's PNG pictures would take more than {MAX_BANK_PIXEL_BYTES // MIB} MiB "
                "together once inflated (save some smaller, or as JPEG)"
            )
        if not _png_pixels_fit(data, pixel_bytes):
            raise ImageError(f"{NOT_AN_IMAGE}, or a damaged one (its pixel data does not fit it)")
    return ImageInfo(kind, width, height, pixel_bytes)


def _check_size(width: int, height: int) -> None:
    """Refuses, from the header, a size Telegram refuses for a photo."""
    if width < 1 or height < 1:
        raise ImageError(f"{width} × {height} pixels: an empty image")
    if width + height > MAX_WIDTH_PLUS_HEIGHT:
        raise ImageError(
            f"{width} × {height} pixels: Telegram takes photos whose width + height is at most "
            f"{MAX_WIDTH_PLUS_HEIGHT:,}"
        )
    if max(width, height) > MAX_SIDE_RATIO * min(width, height):
        raise ImageError(
            f"{width} × {height} pixels: Telegram takes photos whose long side is at most "
            f"{MAX_SIDE_RATIO} times the short one"
        )


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # by colour type
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
          (0, 1, 1, 2))  # fmt: skip


def _png_bits(data: bytes) -> int:
    """Bits a pixel of a PNG (its IHDR, which Pillow has read: the bytes are there)."""
    depth, colour = data[24], data[25]
    return depth * _PNG_CHANNELS.get(colour, 4)


def png_pixel_bytes(data: bytes, width: int, height: int) -> int:
    """What a PNG's pixel data inflates to, from its header: each row of each pass with its
    filter byte."""
    bits, interlaced = _png_bits(data), data[28]
    passes = _ADAM7 if interlaced else ((0, 0, 1, 1),)
    expected = 0
    for x0, y0, dx, dy in passes:
        columns, rows = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if columns > 0 and rows > 0:
            expected += rows * (1 + (columns * bits + 7) // 8)
    return expected


def _png_pixels_fit(data: bytes, expected: int) -> bool:
    """Whether a PNG's IDAT (checksums already verified) inflates to exactly the `expected`
    bytes its header declares: neither garbage nor a stream cut short, nor more than the image
    (a bomb that Telegram would decode). Streamed in chunks: memory stays small whatever it
    holds."""
    inflater, produced, position = zlib.decompressobj(), 0, 8
    try:
        while position + 8 <= len(data):
            length = int.from_bytes(data[position : position + 4], "big")
            chunk_type = data[position + 4 : position + 8]
            if chunk_type == b"IDAT":
                pending = data[position + 8 : position + 8 + length]
                while pending and produced <= expected:
                    produced += len(inflater.decompress(pending, 1 << 20))
                    pending = inflater.unconsumed_tail
            position += 12 + length
    except zlib.error:
        return False
    return inflater.eof and produced == expected


class ImageSource(Protocol):
    """Where the relative paths of a bank lead: the bytes of one image, or ImageError."""

    def read(self, location: str) -> bytes: ...


@dataclass(frozen=True)
class FolderImages:
    """Images on disk, beside the bank file; nothing outside `folder` is read."""

    folder: Path

    def read(self, location: str) -> bytes:
        base = os.path.realpath(self.folder)
        target = os.path.realpath(os.path.join(base, location))
        if os.path.commonpath([base, target]) != base:
            raise ImageError("a link that leads out of the bank's folder")
        try:
            status = os.stat(target)
            if not stat.S_ISREG(status.st_mode):
                raise ImageError("not a file")
            if status.st_size > MAX_IMAGE_BYTES:
                raise ImageError(f"{_bytes(status.st_size)}; an image may have at most 5 MiB")
            with open(target, "rb") as file:
                data = file.read(MAX_IMAGE_BYTES + 1)
        except FileNotFoundError:
            raise ImageError("no such file beside the bank") from None
        except OSError as error:
            raise ImageError(f"cannot read it: {error.strerror}") from None
        if len(data) > MAX_IMAGE_BYTES:
            raise ImageError(f"more than {_bytes(MAX_IMAGE_BYTES)}; at most 5 MiB")
        return data


@dataclass(frozen=True)
class BundleImages:
    """Images that came with the bank rather than from disk (a `.zip` bundle, or the database),
    keyed by their canonical path relative to the bank file. A path is found in any Unicode
    form (a Mac names files decomposed, typed text is composed)."""

    files: Mapping[str, bytes]
    missing: str = "not in the .zip beside the bank"  # what a path without a file is told

    def read(self, location: str) -> bytes:
        data = self.files.get(location)
        if data is None:
            wanted = unicodedata.normalize("NFC", location)
            data = next(
                (d for n, d in self.files.items() if unicodedata.normalize("NFC", n) == wanted),
                None,
            )
        if data is None:
            raise ImageError(self.missing)
        return data


class NoImages:
    """A bank that came alone (a YAML document): it may only use https URLs."""

    def read(self, location: str) -> bytes:
        raise ImageError("not found: send the file as a .zip that holds it and its images")


@dataclass
class ImageChecker:
    """Checks every image a bank names, each file once, and keeps what it read.

    Used during validation; `files` then holds the checked bytes by canonical path.
    """

    source: ImageSource
    files: dict[str, bytes] = field(default_factory=dict)
    pixel_bytes: int = 0  # what the PNGs checked so far take inflated
    _checked: dict[str, Image | ImageError] = field(default_factory=dict)

    @property
    def total_bytes(self) -> int:
        return sum(len(data) for data in self.files.values())

    def check(self, text: str) -> Image:
        """The image as the model holds it, or ImageError saying what is wrong."""
        location = image_location(text)
        if location.startswith("https://"):
            return Image(location)
        if location not in self._checked:
            self._checked[location] = self._check_file(location)
        outcome = self._checked[location]
        if isinstance(outcome, ImageError):
            raise outcome
        return outcome

    def _check_file(self, location: str) -> Image | ImageError:
        try:
            data = self.source.read(location)
            if self.total_bytes + len(data) > MAX_BANK_IMAGES_BYTES:
                raise ImageError("the bank's images would weigh more than 19 MiB together")
            info = inspect_image(data, MAX_BANK_PIXEL_BYTES - self.pixel_bytes)
        except ImageError as error:
            return ImageError(f"{location}: {error}")
        self.pixel_bytes += info.pixel_bytes
        self.files[location] = data
        return Image(location, hashlib.sha256(data).hexdigest())
