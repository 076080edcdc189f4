"""The formats the converter knows: one entry each, with its reader, writer and size limit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePath

from content.formats import aiken, anki, csv_sheet, gift, moodle_xml, xlsx_sheet, yaml_bank
from content.formats.base import ConversionError, Draft, ReadOptions, WriteOptions, Written
from content.images import MIB
from content.loader import MAX_BANK_BYTES
from content.model import Quiz

Reader = Callable[[bytes, ReadOptions], Draft]
Writer = Callable[[Quiz, Mapping[str, bytes], WriteOptions], Written]

MAX_TEXT_BYTES = MAX_BANK_BYTES  # GIFT, Aiken, CSV, YAML: 512 KiB
MAX_XLSX_BYTES = 5 * MIB
# Moodle XML carries its images in base64, as a bundle carries them in a zip: it is sized for
# a bank's images (at most 19 MiB, a third more in base64) and its text.
MAX_MOODLE_XML_BYTES = 28 * MIB


@dataclass(frozen=True)
class Format:
    name: str  # as --from/--to and /export take it
    label: str  # as people call it
    extensions: tuple[str, ...]  # the first is the one written
    max_bytes: int  # checked before anything is parsed
    reader: Reader | None = None
    writer: Writer | None = None
    # Whether the images of a quiz travel beside the file (or in a .zip with it); formats
    # that embed them (Moodle XML, Anki) or cannot hold them (GIFT) say False.
    images_beside: bool = False

    @property
    def extension(self) -> str:
        return self.extensions[0]


def _gift_writer(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    return gift.write_gift(quiz, options)


FORMATS: dict[str, Format] = {
    fmt.name: fmt
    for fmt in (
        Format(
            "yaml",
            "Quiz Tutor YAML",
            (".yaml", ".yml"),
            MAX_TEXT_BYTES,
            yaml_bank.read_yaml,
            yaml_bank.write_yaml,
            images_beside=True,
        ),
        Format("gift", "GIFT", (".gift",), MAX_TEXT_BYTES, gift.read_gift, _gift_writer),
        Format("aiken", "Aiken", (".txt",), MAX_TEXT_BYTES, aiken.read_aiken),
        Format(
            "xml",
            "Moodle XML",
            (".xml",),
            MAX_MOODLE_XML_BYTES,
            moodle_xml.read_moodle_xml,
            moodle_xml.write_moodle_xml,
        ),
        Format(
            "csv",
            "CSV",
            (".csv",),
            MAX_TEXT_BYTES,
            csv_sheet.read_csv,
            csv_sheet.write_csv,
            images_beside=True,
        ),
        Format(
            "xlsx",
            "Excel",
            (".xlsx",),
            MAX_XLSX_BYTES,
            xlsx_sheet.read_xlsx,
            xlsx_sheet.write_xlsx,
            images_beside=True,
        ),
        Format("apkg", "Anki", (".apkg",), 0, None, anki.write_apkg),
    )
}
# By extension; `.txt` is Aiken only when asked for (`--from aiken`): a .txt may be anything.
_BY_EXTENSION = {
    extension: fmt
    for fmt in FORMATS.values()
    for extension in fmt.extensions
    if extension != ".txt"
}
INPUT_FORMATS = tuple(name for name, fmt in FORMATS.items() if fmt.reader is not None)
OUTPUT_FORMATS = tuple(name for name, fmt in FORMATS.items() if fmt.writer is not None)


def format_named(name: str) -> Format:
    fmt = FORMATS.get(name.lower().lstrip("."))
    if fmt is None:
        raise ConversionError([f"unknown format {name!r}; the formats are {', '.join(FORMATS)}"])
    return fmt


def format_of(path: str | PurePath, given: str | None = None) -> Format:
    """The format named, else the one of the file's extension."""
    if given:
        return format_named(given)
    suffix = PurePath(path).suffix.lower()
    fmt = _BY_EXTENSION.get(suffix)
    if fmt is None:
        hint = " (an Aiken file: --from aiken)" if suffix == ".txt" else ""
        raise ConversionError(
            [f"{PurePath(path).name}: no format for {suffix or 'a name without extension'}{hint}"]
        )
    return fmt


def input_format(path: str | PurePath, given: str | None = None) -> Format:
    fmt = format_of(path, given)
    if fmt.reader is None:
        raise ConversionError([f"{fmt.label} ({fmt.extension}) is written, not read"])
    return fmt


def output_format(path: str | PurePath, given: str | None = None) -> Format:
    fmt = format_of(path, given)
    if fmt.writer is None:
        raise ConversionError([f"{fmt.label} is read, not written"])
    return fmt


def bundle_main_format(name: str, data: bytes, given: str | None = None) -> Format:
    """The format of a bundle's main file: the one named, else its extension's. A `.txt` in a
    .zip is Aiken when a line starts with `ANSWER:` (Aiken's last line of each question), else
    GIFT: the GIFT-with-media layout (Moodle's qformat_giftmedia) puts a GIFT `.txt` at the
    root of the .zip beside its pictures."""
    if given or PurePath(name).suffix.lower() != ".txt":
        return format_of(name, given)
    aiken = any(line.lstrip().startswith(b"ANSWER:") for line in data.splitlines())
    return FORMATS["aiken" if aiken else "gift"]


def bundle_mains() -> dict[str, int]:
    """What a `.zip` bundle's main file may be: any input format, by extension."""
    mains = {ext: fmt.max_bytes for ext, fmt in _BY_EXTENSION.items() if fmt.reader is not None}
    return mains | {".txt": MAX_TEXT_BYTES}
