"""The XML parts of an .xlsx, counted before openpyxl reads them.

openpyxl builds an object for each element of the parts it reads whole: about 45 µs for
each element of `xl/styles.xml` (590,000 cell formats, 2.6 MB, took 21 s and 450 MiB), 8 µs
for shared strings, 6 µs for a sheet's cells. Each part's elements are counted here by expat
as it streams the entry (nothing is built), its size checked against what the zip declares,
and a part over its limit is refused by name before openpyxl sees the file. The limits are
far above what a sheet of questions holds (a bank of 500 questions in two languages: some
25,000 shared-string elements and 45,000 sheet elements) and keep the worst file to about
a second of openpyxl's work per kind of part.
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass
from typing import Any
from xml.parsers import expat

from content.formats.base import ConversionError
from content.images import MIB

STYLES = "xl/styles.xml"  # where openpyxl reads the styles, whatever the manifest says
CONTENT_TYPES = "[Content_Types].xml"
_SHARED_STRINGS_TYPE = (
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
)
_WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_CHUNK = 64 * 1024
# Entries that are no XML and that openpyxl does not parse: images, printer settings, macros.
_BINARY = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".emf", ".wmf", ".bin")


@dataclass(frozen=True)
class Limit:
    whose: str | None  # what the refusal names (None: the part)
    what: str  # what the elements are
    elements: int
    bytes: int  # unpacked, per part
    hint: str


STYLES_LIMIT = Limit(
    None,
    "cell formats, fonts and other style elements",
    5_000,
    4 * MIB,
    "a sheet of questions needs a few: copy the questions into a new workbook",
)
SHARED_STRINGS_LIMIT = Limit(
    None, "elements of shared text", 80_000, 16 * MIB, "a bank of 500 questions takes about 25,000"
)
SHEETS_LIMIT = Limit(
    "the workbook",
    "elements in its sheets",
    80_000,
    40 * MIB,
    "a bank of 500 questions in two languages takes about 45,000",
)
PART_LIMIT = Limit(None, "elements", 10_000, 4 * MIB, "a workbook of questions has far fewer")
OTHER_PARTS_LIMIT = Limit(
    "the workbook",
    "elements in parts other than sheets, shared text and styles",
    20_000,
    40 * MIB,
    "a workbook of questions has far fewer",
)


class _Refused(Exception):
    pass


class _Counter:
    """Counts the elements of one part as expat streams it; refuses a DTD (an entity could
    expand without bound before openpyxl, which refuses them, ever saw the part)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self.manifest: dict[str, str] = {}  # [Content_Types].xml: part name -> content type
        self.parser: Any = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.StartDoctypeDeclHandler = self.doctype
        self.parser.EntityDeclHandler = self.doctype

    def start(self, name: str, attributes: dict[str, str]) -> None:
        self.count += 1
        if self.count > self.limit:
            raise _Refused
        if name.endswith("Override") and "PartName" in attributes:
            self.manifest[attributes["PartName"].lstrip("/")] = attributes.get("ContentType", "")

    def doctype(self, *_: object) -> None:
        raise ConversionError(["a DTD or an entity declaration; a spreadsheet has none"])


def _count(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> _Counter:
    """The part's elements, counted up to `limit` (more raise _Refused); ConversionError for a
    part that is not what its header declares or not XML."""
    counter = _Counter(limit)
    read = 0
    try:
        with archive.open(info) as entry:
            while chunk := entry.read(_CHUNK):
                read += len(chunk)
                if read > info.file_size:
                    break
                counter.parser.Parse(chunk, False)
            counter.parser.Parse(b"", True)
    except expat.ExpatError:
        if info.filename.lower().endswith((".xml", ".rels")):
            raise ConversionError([f"{info.filename[:60]}: not well-formed XML"]) from None
    except (_Refused, ConversionError):
        raise
    except Exception as error:  # zipfile raises many kinds on damaged entries
        raise ConversionError([f"{info.filename[:60]}: damaged ({type(error).__name__})"]) from None
    if read != info.file_size and counter.count <= limit:
        raise ConversionError(
            [f"{info.filename[:60]}: damaged (its size is not the one the zip declares)"]
        )
    return counter


def count_parts(archive: zipfile.ZipFile) -> None:
    """Refuse a workbook whose parts would cost openpyxl more than their limits."""
    infos = {info.filename: info for info in archive.infolist() if not info.is_dir()}
    manifest: dict[str, str] = {}
    if CONTENT_TYPES in infos:
        manifest = _checked(archive, infos[CONTENT_TYPES], PART_LIMIT).manifest
    sheets = others = 0
    for name, info in infos.items():
        if name == CONTENT_TYPES or name.lower().endswith(_BINARY):
            continue
        kind = manifest.get(name, "")
        if name == STYLES:
            _checked(archive, info, STYLES_LIMIT)
        elif kind == _SHARED_STRINGS_TYPE or posixpath.basename(name) == "sharedStrings.xml":
            _checked(archive, info, SHARED_STRINGS_LIMIT)
        elif kind == _WORKSHEET_TYPE or (
            name.startswith("xl/worksheets/") and not name.endswith(".rels")
        ):
            sheets += _checked(archive, info, SHEETS_LIMIT, sheets).count
        else:
            if OTHER_PARTS_LIMIT.elements - others < PART_LIMIT.elements:
                others += _checked(archive, info, OTHER_PARTS_LIMIT, others).count
            else:
                others += _checked(archive, info, PART_LIMIT).count


def _checked(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: Limit, counted: int = 0
) -> _Counter:
    """The part counted against `limit`, of which `counted` elements are already taken."""
    name = limit.whose or info.filename[:60]
    if info.file_size > limit.bytes:
        raise ConversionError(
            [
                f"{info.filename[:60]}: {info.file_size:,} bytes unpacked; "
                f"at most {limit.bytes // MIB} MiB ({limit.hint})"
            ]
        )
    try:
        return _count(archive, info, limit.elements - counted)
    except _Refused:
        raise ConversionError(
            [f"{name}: more than {limit.elements:,} {limit.what}; {limit.hint}"]
        ) from None
