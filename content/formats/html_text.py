"""HTML (Moodle's question texts, Anki's fields) to our plain text and back.

Reading keeps the line breaks (`<br>`, paragraphs, list items, table rows) and drops the
tags; `<pre>` becomes a fenced code block and `<code>` inline code, so code survives a trip
through HTML; `<img>` is collected (source and alt), not shown. Moodle's multilang spans
(`<span lang="yo" class="multilang">…</span>`, and filter_multilang2's `{mlang yo}…{mlang}`)
split a text into its languages, as Moodle's filter does: up to the first closing tag.

The scanner is written by hand so that its work is linear in the input: every step moves
forward, and each search for a closing mark starts where the last one ended.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from content.markup import CodeBlock, InlineCode, Plain, segments

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>")
_ATTRIBUTE = re.compile(
    r"""([A-Za-z_:][-A-Za-z0-9_:.]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s"'<>`=]+))?"""
)
_SPACES = re.compile(r"[ \t\r\n\f]+")
_BLOCKS = frozenset(
    [
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "table",
        "tr",
        "blockquote",
        "section",
        "article",
        "header",
        "footer",
        "dl",
        "dt",
        "dd",
        "figure",
        "figcaption",
        "hr",
    ]
)
_SKIPPED = frozenset({"script", "style", "head", "title"})
_LANGUAGE_BLOCK = re.compile(
    r"""<(span|lang)\b[^<>]*?\blang\s*=\s*["']?([A-Za-z0-9_-]+)["']?[^<>]*>""", re.IGNORECASE
)
_MLANG = re.compile(r"\{mlang\s+([A-Za-z0-9_-]+)\s*\}", re.IGNORECASE)


@dataclass(frozen=True)
class Picture:
    source: str
    alt: str | None


@dataclass
class Converted:
    text: str
    pictures: list[Picture] = field(default_factory=list)


def attributes(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(text):
        value = match.group(2) or ""
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        found.setdefault(match.group(1).lower(), html.unescape(value))
    return found


class _Text:
    """The text being built, line by line. A block's edge asks for a line break only where a
    line has something on it; the end of a code block asks for one before what follows."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.at_line_start = True
        self.pending = False

    def add(self, text: str) -> None:
        if not text:
            return
        if self.pending and not self.at_line_start and not text.startswith("\n"):
            self.newline()
        if self.at_line_start:
            text = text.lstrip(" ")
            if not text:
                return
        self.pending = False
        self.parts.append(text)
        self.at_line_start = text.endswith("\n")

    def newline(self) -> None:
        if self.parts and not self.at_line_start:
            self.parts[-1] = self.parts[-1].rstrip(" ")
        self.parts.append("\n")
        self.at_line_start = True
        self.pending = False

    def soft_break(self) -> None:
        if not self.at_line_start:
            self.newline()


def _escape_backticks(text: str) -> str:
    return text.replace("`", "\\`")


def html_to_text(source: str) -> Converted:
    """Plain text from HTML: tags dropped, line breaks kept, code kept as code."""
    out = _Text()
    pictures: list[Picture] = []
    lowered = source.lower()
    position, length = 0, len(source)
    in_pre = False
    pre_parts: list[str] = []
    pre_language: str | None = None
    while position < length:
        opening = source.find("<", position)
        chunk = source[position : opening if opening >= 0 else length]
        if chunk:
            if in_pre:
                pre_parts.append(html.unescape(chunk))
            else:
                text = html.unescape(_SPACES.sub(" ", chunk)).replace("\xa0", " ")
                out.add(_escape_backticks(text))
        if opening < 0:
            break
        position = opening
        if source.startswith("<!--", position):
            end = source.find("-->", position + 4)
            position = length if end < 0 else end + 3
            continue
        if source.startswith(("<!", "<?"), position):
            end = source.find(">", position)
            position = length if end < 0 else end + 1
            continue
        match = _TAG.match(source, position)
        if match is None:  # a lone `<` is text
            if in_pre:
                pre_parts.append("<")
            else:
                out.add("<")
            position += 1
            continue
        position = match.end()
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name in _SKIPPED and not closing:
            end = lowered.find(f"</{name}", position)
            position = length if end < 0 else end
            continue
        if name == "pre":
            if closing and in_pre:
                in_pre = False
                code = "".join(pre_parts).removesuffix("\n")
                out.soft_break()
                out.add(f"```{pre_language or ''}\n{code}\n```")
                out.pending = True
                pre_parts, pre_language = [], None
            elif not closing and not in_pre:
                in_pre = True
                pre_language = _language_class(attributes(match.group(3)))
            continue
        if in_pre:
            if name == "code" and not closing and pre_language is None:
                pre_language = _language_class(attributes(match.group(3)))
            elif name == "br":
                pre_parts.append("\n")
            continue
        if name == "br":
            out.newline()
        elif name == "img" and not closing:
            found = attributes(match.group(3))
            pictures.append(Picture(found.get("src", ""), found.get("alt")))
        elif name == "code":
            out.add("`")
        elif name in _BLOCKS:
            out.soft_break()
            if name == "li" and not closing:
                out.add("- ")
    if in_pre:  # a <pre> never closed: its text is still text
        out.add(_escape_backticks("".join(pre_parts)))
    return Converted("".join(out.parts).strip(), pictures)


def _language_class(found: dict[str, str]) -> str | None:
    for name in found.get("class", "").split():
        if name.startswith("language-") and re.fullmatch(r"[A-Za-z0-9_+#.-]{1,30}", name[9:]):
            return name[9:]
    return None


def split_languages(source: str) -> dict[str | None, str] | None:
    """The text of each language of a multilang text, as Moodle's filter shows it: the parts
    outside language blocks belong to every language. None when the text has no blocks (it
    is in the default language)."""
    blocks: list[tuple[int, int, str, str]] = []  # start, end, language, inner text
    lowered = source.lower()
    position = 0
    span = _LANGUAGE_BLOCK.search(source)
    mlang = _MLANG.search(source)
    while span is not None or mlang is not None:
        # each pattern is searched again only once its last match lies behind: linear work
        if span is not None and span.start() < position:
            span = _LANGUAGE_BLOCK.search(source, position)
            continue
        if mlang is not None and mlang.start() < position:
            mlang = _MLANG.search(source, position)
            continue
        if mlang is not None and (span is None or mlang.start() < span.start()):
            match, closing = mlang, "{mlang}"
        else:
            assert span is not None
            match, closing = span, f"</{span.group(1).lower()}>"
        end = lowered.find(closing, match.end())
        if end < 0:
            break
        language = match.group(1) if match is mlang else match.group(2)
        blocks.append((match.start(), end + len(closing), language, source[match.end() : end]))
        position = end + len(closing)
    if not blocks:
        return None
    languages = list(dict.fromkeys(language for _, _, language, _ in blocks))
    texts: dict[str | None, str] = {}
    for wanted in languages:
        parts: list[str] = []
        last = 0
        for start, end, language, inner in blocks:
            parts.append(source[last:start])
            if language == wanted:
                parts.append(inner)
            last = end
        parts.append(source[last:])
        texts[wanted] = "".join(parts)
    return texts


def text_to_html(text: str) -> str:
    """HTML that `html_to_text` reads back to the same text: code as <code> and <pre>, line
    breaks as <br>."""
    parts: list[str] = []
    for segment in segments(text):
        match segment:
            case Plain(plain):
                parts.append(html.escape(plain, quote=False).replace("\n", "<br>"))
            case InlineCode(code):
                parts.append(f"<code>{html.escape(code, quote=False)}</code>")
            case CodeBlock(code, language):
                attribute = f' class="language-{language}"' if language else ""
                parts.append(f"<pre><code{attribute}>{html.escape(code, quote=False)}</code></pre>")
    return "".join(parts)
