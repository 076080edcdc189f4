"""Small image files for tests, made with Pillow or by hand (headers that lie)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def encoded(width: int, height: int, kind: str = "PNG", mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height), "white" if mode != "1" else 1).save(buffer, kind)
    return buffer.getvalue()


def png(width: int = 8, height: int = 8) -> bytes:
    return encoded(width, height, "PNG")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims these dimensions, with one tiny row of data: what a
    decompression bomb looks like before it is decoded."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + _chunk(b"IEND", b"")
    )


def png_with(width: int, height: int, pixels: bytes) -> bytes:
    """An RGB PNG of these dimensions whose IDAT is `pixels` as given (checksums right)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", pixels)
        + _chunk(b"IEND", b"")
    )
