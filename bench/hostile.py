"""Inputs made to hurt a parser, by size: for each reader, the worst shapes found for its
regular expressions and loops. `python -m bench.formats` times them at n and 2n; the tests
(tests/content/test_complexity.py) check that 2n costs about twice n, never four times.

Each builder takes a size in characters (or bytes) and gives an input of about that size.
"""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from content.formats.xlsx_parts import STYLES_LIMIT


@dataclass(frozen=True)
class Hostile:
    name: str  # what the input is, as the bench prints it
    target: str  # the format name (content.formats.registry.FORMATS), or the function's
    build: Callable[[int], bytes | str]


def _times(piece: str, size: int) -> str:
    return piece * max(1, size // len(piece))


def _gift(question_text: str) -> str:
    return f"::q:: {question_text} {{T}}\n"


def _xml_text(escaped_html: str) -> bytes:
    """A Moodle XML question whose text is this HTML (escaped, as Moodle writes it)."""
    return (
        '<quiz><question type="truefalse"><name><text>q</text></name>'
        f'<questiontext format="html"><text>{escaped_html}</text></questiontext>'
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer>'
        "</question></quiz>"
    ).encode()


def _xlsx(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


_CONTENT_TYPES = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    b'<Default Extension="xml" ContentType="application/xml"/>'
    b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    b'<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    b"</Types>"
)
_RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    b"</Relationships>"
)
_WORKBOOK = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    b'<sheets><sheet name="questions" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
    b'<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    b"</Relationships>"
)
_MAIN = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet(
    styles: bytes = b"", strings: tuple[bytes, ...] = (), rows: bytes = b"", dimension: str = ""
) -> bytes:
    """A minimal .xlsx: `styles` inside <cellXfs>, `strings` as shared strings, `rows` in the
    sheet's <sheetData> (the header row question, option1, option2, answer comes first), and
    the sheet's <dimension> (such as A1:D9) when given."""
    header = b"".join(
        f'<c r="{column}1" t="inlineStr"><is><t>{name}</t></is></c>'.encode()
        for column, name in zip("ABCD", ("question", "option1", "option2", "answer"), strict=True)
    )
    count = styles.count(b"<xf ")
    return _xlsx(
        {
            "[Content_Types].xml": _CONTENT_TYPES,
            "_rels/.rels": _RELS,
            "xl/workbook.xml": _WORKBOOK,
            "xl/_rels/workbook.xml.rels": _WORKBOOK_RELS,
            "xl/styles.xml": b"<styleSheet "
            + _MAIN
            + b'><fonts count="1"><font/></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
            + b'<borders count="1"><border/></borders>'
            + b'<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>'
            + f'<cellXfs count="{count + 1}"><xf numFmtId="0"/>'.encode()
            + styles
            + b'</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
            + b"</cellStyles></styleSheet>",
            "xl/sharedStrings.xml": b"<sst "
            + _MAIN
            + f' count="{len(strings)}" uniqueCount="{len(strings)}">'.encode()
            + b"".join(b"<si><t>" + text + b"</t></si>" for text in strings)
            + b"</sst>",
            "xl/worksheets/sheet1.xml": b"<worksheet "
            + _MAIN
            + b">"
            + (f'<dimension ref="{dimension}"/>'.encode() if dimension else b"")
            + b'<sheetData><row r="1">'
            + header
            + b"</row>"
            + rows
            + b"</sheetData></worksheet>",
        }
    )


def _yaml_questions(size: int, question: str) -> str:
    return "id: q\ntitle: T\nquestions:\n" + _times(question, size)


HOSTILE: tuple[Hostile, ...] = (
    # HTML, as GIFT and Moodle XML texts go through it
    Hostile("HTML: a tag never closed, <a bbb…", "html", lambda n: "<a" + "b" * n),
    Hostile("HTML: <a <a <a … (no >)", "html", lambda n: _times("<a ", n)),
    Hostile("HTML: <!-- <!-- … (comments never closed)", "html", lambda n: _times("<!--", n)),
    Hostile("HTML: <script> <script> … (never closed)", "html", lambda n: _times("<script>", n)),
    Hostile("HTML: <pre><pre> … </pre>", "html", lambda n: _times("<pre><b>x", n) + "</pre>"),
    Hostile('HTML: attributes a="a="a=…', "html", lambda n: '<img src="x" ' + _times('a="', n)),
    Hostile("HTML: entities &amp;&#…", "html", lambda n: _times("&amp;&#x41;&#9&nbsp", n)),
    Hostile(
        "multilang: <span lang=a lang=a … (no >)",
        "languages",
        lambda n: "<span " + _times("lang=a ", n),
    ),
    Hostile(
        'multilang: <span lang="en"> … never closed',
        "languages",
        lambda n: _times('<span lang="en">', n),
    ),
    Hostile(
        "multilang: {mlang a}{mlang a} … never closed",
        "languages",
        lambda n: _times("{mlang a}", n),
    ),
    Hostile(
        "multilang: <span x x x … (no lang)", "languages", lambda n: "<span " + "x " * (n // 2)
    ),
    # our own text: code blocks and inline code
    Hostile("markup: ```a lines never closed", "markup", lambda n: _times("```a\n", n)),
    Hostile("markup: `` `` `` … (literal runs)", "markup", lambda n: _times("``\n", n)),
    Hostile(
        "markup: ` \\` \\` … (inline never closed)", "markup", lambda n: "`" + _times("a\\`", n)
    ),
    # the bot's HTML for Telegram
    Hostile("Telegram HTML: <a <a <a … (no >)", "telegram_html", lambda n: _times("<a ", n)),
    Hostile("Telegram HTML: <<<<…", "telegram_html", lambda n: "<" * n),
    # the readers, whole
    Hostile(
        "GIFT: <a bbb… in a question",
        "gift",
        lambda n: _gift("<a" + "b" * n).encode(),
    ),
    Hostile(
        "GIFT: multilang <span lang=a … in a question",
        "gift",
        lambda n: _gift("[html]<span " + _times("lang=a ", n)).encode(),
    ),
    Hostile(
        "GIFT: one answer section of ~a ~a …",
        "gift",
        lambda n: ("::q:: Q {" + _times("~a ", n) + "}").encode(),
    ),
    Hostile(
        "GIFT: escapes \\{\\{…", "gift", lambda n: ("::q:: " + _times("\\{", n) + " {T}").encode()
    ),
    Hostile(
        "GIFT: a name never closed ::…",
        "gift",
        lambda n: ("::" + _times("a:", n) + " {T}").encode(),
    ),
    Hostile(
        "GIFT: numbers 1..1..1…",
        "gift",
        lambda n: ("::q:: Q {#" + _times("1.", n) + "}").encode(),
    ),
    Hostile(
        "GIFT: weights %1.1111… without %",
        "gift",
        lambda n: ("::q:: Q {=a ~%1." + "1" * n + "}").encode(),
    ),
    Hostile(
        "GIFT: $CATEGORY: a/b/c/…",
        "gift",
        lambda n: ("$CATEGORY: " + _times("a/", n) + "\n\n::q:: Q {T}\n").encode(),
    ),
    Hostile("GIFT: blank lines and comments", "gift", lambda n: _times("//c\n\n", n).encode()),
    Hostile(
        "Moodle XML: <a bbb… in a text",
        "xml",
        lambda n: _xml_text("&lt;a" + "b" * n),
    ),
    Hostile(
        "Moodle XML: <span lang=a … in a text",
        "xml",
        lambda n: _xml_text("&lt;span " + _times("lang=a ", n)),
    ),
    Hostile(
        "Moodle XML: CDATA never closed",
        "xml",
        lambda n: b"<quiz><question><name><text><![CDATA[" + b"]" * n,
    ),
    Hostile(
        "Moodle XML: a comment never closed",
        "xml",
        lambda n: b"<quiz><!--" + b"-" * n,
    ),
    Hostile(
        "Moodle XML: one tag of attributes a1 a2 …",
        "xml",
        lambda n: b"<quiz><question " + b" ".join(b'a%d="1"' % i for i in range(n // 8)) + b"/>",
    ),
    Hostile(
        "Moodle XML: elements of new attribute names",
        "xml",
        lambda n: (
            b"<quiz>"
            + b"".join(b'<q a%d="1" b%d="1"/>' % (i, i) for i in range(n // 24))
            + b"</quiz>"
        ),
    ),
    Hostile(
        "Moodle XML: elements of new names",
        "xml",
        lambda n: b"<quiz>" + b"".join(b"<a%d/>" % i for i in range(n // 9)) + b"</quiz>",
    ),
    Hostile(
        "Moodle XML: files named alike",
        "xml",
        lambda n: _alike_files(n),
    ),
    Hostile(
        "Aiken: an option line of spaces",
        "aiken",
        lambda n: ("Q\nA." + " " * n + "\nB. b\nANSWER: A\n").encode(),
    ),
    Hostile("Aiken: ANSWER: lines", "aiken", lambda n: _times("ANSWER: Z\n", n).encode()),
    Hostile(
        "CSV: one typed answer of \\|\\|…",
        "csv",
        lambda n: ("question,answer,type\nQ," + _times("\\|", n) + ",typed\n").encode(),
    ),
    Hostile(
        "CSV: answer letters A,A,A,…",
        "csv",
        lambda n: ('question,option1,option2,answer\nQ,a,b,"' + _times("A,", n) + '"\n').encode(),
    ),
    Hostile(
        'CSV: a quoted field of ""…',
        "csv",
        lambda n: ('question,answer\n"' + _times('""', n) + '",x\n').encode(),
    ),
    Hostile(
        "CSV: columns ,,,…",
        "csv",
        lambda n: ("question,answer" + "," * n + "\nQ,A\n").encode(),
    ),
    Hostile(
        "YAML: 1:1:1… (sexagesimal)",
        "yaml",
        lambda n: ("id: q\ntitle: T\nx: " + _times("1:", n) + "1\n").encode(),
    ),
    Hostile(
        "YAML: 2001-01-01 1:11:11.000… (timestamp)",
        "yaml",
        lambda n: ("id: q\ntitle: T\nx: 2001-01-01 1:11:11." + "0" * n + "x\n").encode(),
    ),
    Hostile(
        "YAML: plain scalar lines",
        "yaml",
        lambda n: _yaml_questions(n, "- id: a\n  text: a\n    b\n    c\n").encode(),
    ),
    Hostile("Excel: shared strings", "xlsx", lambda n: sheet(strings=_varied(n, b""))),
    Hostile(
        "Excel: cell formats in styles.xml",
        "xlsx",
        lambda n: sheet(styles=b"".join(b'<xf numFmtId="%s"/>' % x for x in _varied(n, b""))),
    ),
)


def _varied(size: int, prefix: bytes) -> tuple[bytes, ...]:
    """About `size` bytes of short numbers that compress only some ten times, as a real
    file's do (a zip of repeats would be refused as a zip bomb before any parsing)."""
    rng = random.Random(size)
    return tuple(prefix + b"%d" % rng.randrange(10**8) for _ in range(max(1, size // 24)))


def _alike_files(size: int) -> bytes:
    """Questions whose pictures are all named image.png, each file different."""
    questions = []
    for number in range(max(1, size // 400)):
        data = (b"x" * 200 + number.to_bytes(4, "big")).hex()
        questions.append(
            '<question type="truefalse"><name><text>q</text></name>'
            '<questiontext format="html"><text>Which? &lt;img src="@@PLUGINFILE@@/image.png"&gt;</text>'
            f'<file name="image.png" path="/" encoding="base64">{data}</file></questiontext>'
            '<answer fraction="100"><text>true</text></answer>'
            '<answer fraction="0"><text>false</text></answer></question>'
        )
    return ("<quiz>" + "".join(questions) + "</quiz>").encode()


def every_part_at_its_limit() -> bytes:
    """An .xlsx whose styles, shared text and sheet each stay just under their limits
    (content/formats/xlsx_parts.py): the most openpyxl is let do."""
    rng = random.Random(7)
    xfs = STYLES_LIMIT.elements - 20  # the stylesheet's own elements take the rest
    styles = b"".join(b'<xf numFmtId="%d"/>' % rng.randrange(200) for _ in range(xfs))
    strings = tuple(b"%d" % rng.randrange(10**6) for _ in range(39_900))
    rows = b"".join(
        b'<row r="%d"><c r="A%d" t="s"><v>%d</v></c></row>' % (n, n, n % 39_900)
        for n in range(2, 2 + 26_500)
    )
    return sheet(styles, strings, rows, dimension="A1:D26501")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data)
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png_of_zeros(width: int, height: int, depth: int = 8, colour: int = 2) -> bytes:
    """A valid PNG whose pixels are all zero, compressed as tightly as zlib can: a small file
    that inflates to its whole size (`colour` 6 is RGBA, 2 RGB)."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    row = b"\x00" * (1 + (width * depth * channels + 7) // 8)
    compressor = zlib.compressobj(9)
    parts = []
    rows_at_once = max(1, (4 << 20) // len(row))
    for start in range(0, height, rows_at_once):
        parts.append(compressor.compress(row * min(rows_at_once, height - start)))
    parts.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", b"".join(parts))
        + _png_chunk(b"IEND", b"")
    )
