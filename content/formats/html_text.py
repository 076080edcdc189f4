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
from typing import NamedTuple
from urllib.parse import unquote

from content.images import MEDIA_SUFFIXES
from content.markup import CodeBlock, InlineCode, Plain, segments

# Every quantifier that a failing match could make retry is possessive (`*+`, `++`): what
# it took is never given back, so a match attempt costs at most the text it looks at, and a
# tag never closed (`<a` and 500 KiB of letters) costs one pass instead of its square.
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*+)([^<>]*+)>")
_ATTRIBUTE = re.compile(
    r"""([A-Za-z_:][-A-Za-z0-9_:.]*+)\s*+(?:=\s*+("[^"]*+"|'[^']*+'|[^\s"'<>`=]++))?"""
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
# A multilang block opens with a <span> or <lang> tag that has a lang="…" among its
# attributes: the tag is found first (one pass to its `>`), then the attribute inside it.
_LANGUAGE_TAG = re.compile(r"<(span|lang)\b([^<>]*+)>", re.IGNORECASE)
_LANGUAGE_ATTRIBUTE = re.compile(r"""\blang\s*+=\s*+["']?+([A-Za-z0-9_-]++)""", re.IGNORECASE)
_MLANG = re.compile(r"\{mlang\s++([A-Za-z0-9_-]++)\s*+\}", re.IGNORECASE)


@dataclass(frozen=True)
class Picture:
    source: str
    alt: str | None


@dataclass
class Converted:
    text: str
    pictures: list[Picture] = field(default_factory=list)
    media: list[str] = field(default_factory=list)  # sound, video: <audio>, <a href=….mp3>
    files: list[str] = field(default_factory=list)  # links to other files: <a href=@@PLUGINFILE…


PLUGINFILE = "@@PLUGINFILE@@/"  # how Moodle names a file that travels with the question
MEDIA_TAGS = frozenset({"audio", "video", "source", "track", "embed", "object", "iframe"})


def named(sources: list[str], shown: int = 5) -> str:
    """Files as a warning names them: their paths, each once, the first few and a count."""
    paths = list(dict.fromkeys(file_path(source)[:60] for source in sources))
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(paths[:shown]) + more


def file_path(source: str) -> str:
    """The path of a file an HTML text names (`@@PLUGINFILE@@/my%20pic.png?time=1` is
    `my pic.png`); an address (https://…) is returned as it is."""
    if "://" in source or source.lower().startswith(("data:", "mailto:")):
        return source
    return unquote(source.removeprefix(PLUGINFILE).split("?")[0].split("#")[0])


def is_media(source: str) -> bool:
    """Whether a link leads to sound or video, by its file's extension."""
    path = source.split("?")[0].split("#")[0].lower()
    return path.rpartition(".")[2] in MEDIA_SUFFIXES and "." in path.rsplit("/", 1)[-1]


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
        if self.at_line_start or self.parts[-1].endswith(" "):
            # spaces collapse across tags too (`a <b> b</b>` shows one space), as browsers do
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

    def drop(self, index: int) -> None:
        """Takes back the part at `index` (a backtick that opened no code), and with it a
        space that would now follow a space or start a line."""
        del self.parts[index]
        if index < len(self.parts) and (index == 0 or self.parts[index - 1].endswith((" ", "\n"))):
            self.parts[index] = self.parts[index].lstrip(" ")
        if index > 0 and (index == len(self.parts) or self.parts[index].startswith("\n")):
            self.parts[index - 1] = self.parts[index - 1].rstrip(" ")
        self.parts = [part for part in self.parts if part]
        self.at_line_start = not self.parts or self.parts[-1].endswith("\n")

    def soft_break(self) -> None:
        if not self.at_line_start:
            self.newline()


def _escape_backticks(text: str) -> str:
    return text.replace("`", "\\`")


def html_to_text(source: str) -> Converted:
    """Plain text from HTML: tags dropped, line breaks kept, code kept as code."""
    out = _Text()
    pictures: list[Picture] = []
    media: list[str] = []
    files: list[str] = []
    lowered = source.lower()
    position, length = 0, len(source)
    in_pre = False
    pre_parts: list[str] = []
    pre_language: str | None = None
    code_opened: int | None = None  # where the open <code>'s backtick is in out.parts
    while position < length:
        opening = source.find("<", position)
        chunk = source[position : opening if opening >= 0 else length]
        if chunk:
            if in_pre:
                pre_parts.append(html.unescape(chunk))
            else:
                out.add(_escape_backticks(_plain_spaces(html.unescape(chunk))))
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
        if name == "img" and not closing:  # in a <pre> too: nothing named is lost
            found = attributes(match.group(3))
            pictures.append(Picture(found.get("src", ""), found.get("alt")))
        elif name in MEDIA_TAGS and not closing:
            found = attributes(match.group(3))
            media.append(found.get("src") or found.get("data") or f"<{name}>")
        elif name == "a" and not closing:
            href = attributes(match.group(3)).get("href", "")
            if is_media(href):
                media.append(href)
            elif href.startswith(PLUGINFILE):
                files.append(href)
        if in_pre:
            if name == "code" and not closing and pre_language is None:
                pre_language = _language_class(attributes(match.group(3)))
            elif name == "br":
                pre_parts.append("\n")
            continue
        if name == "br":
            out.newline()
        elif name == "code":
            if not closing and code_opened is None:
                out.add("`")
                code_opened = len(out.parts) - 1
            elif closing and code_opened is not None:
                _close_code(out, code_opened)
                code_opened = None
        elif name in _BLOCKS:
            out.soft_break()
            if name == "li" and not closing:
                out.add("- ")
    if code_opened is not None:  # a <code> never closed: its text is plain text
        out.drop(code_opened)
    if in_pre:  # a <pre> never closed: its text is still text, line by line
        for number, line in enumerate("".join(pre_parts).split("\n")):
            if number:
                out.newline()
            out.add(_escape_backticks(_plain_spaces(line)))
    return Converted("".join(out.parts).strip(), pictures, media, files)


def _plain_spaces(text: str) -> str:
    """Text outside code as a browser shows it: a non-breaking space is a space, and every
    run of spaces (character references included, `&nbsp; `) is one space."""
    return _SPACES.sub(" ", text.replace("\xa0", " "))


def _close_code(out: _Text, opened: int) -> None:
    """Ends inline code opened at `out.parts[opened]`, or, where our text cannot hold it as
    inline code (nothing in it, a line break in it, a backslash before either backtick,
    which would read as an escape), leaves its text plain."""
    code = "".join(out.parts[opened + 1 :])
    before = "".join(out.parts[max(0, opened - 1) : opened])
    if code.strip() and "\n" not in code and not code.endswith("\\") and not before.endswith("\\"):
        out.add("`")
    else:
        out.drop(opened)


def _language_class(found: dict[str, str]) -> str | None:
    for name in found.get("class", "").split():
        if name.startswith("language-") and re.fullmatch(r"[A-Za-z0-9_+#.-]{1,30}", name[9:]):
            return name[9:]
    return None


class _Opening(NamedTuple):
    """Where a language block opens: the opening's span, its language, what closes it."""

    start: int
    end: int
    language: str
    closing: str


def _span_opening(source: str, position: int) -> _Opening | None:
    """The first <span>/<lang> tag from `position` with a lang attribute."""
    while (tag := _LANGUAGE_TAG.search(source, position)) is not None:
        if (found := _LANGUAGE_ATTRIBUTE.search(tag.group(2))) is not None:
            closing = f"</{tag.group(1).lower()}>"
            return _Opening(tag.start(), tag.end(), found.group(1), closing)
        position = tag.end()
    return None


def _mlang_opening(source: str, position: int) -> _Opening | None:
    found = _MLANG.search(source, position)
    if found is None:
        return None
    return _Opening(found.start(), found.end(), found.group(1), "{mlang}")


def split_languages(source: str) -> dict[str | None, str] | None:
    """The text of each language of a multilang text, as Moodle's filter shows it: the parts
    outside language blocks belong to every language. None when the text has no blocks (it
    is in the default language)."""
    blocks: list[tuple[int, int, str, str]] = []  # start, end, language, inner text
    lowered = source.lower()
    position = 0
    span = _span_opening(source, 0)
    mlang = _mlang_opening(source, 0)
    while span is not None or mlang is not None:
        # each kind is searched again only once its last opening lies behind: linear work
        if span is not None and span.start < position:
            span = _span_opening(source, position)
            continue
        if mlang is not None and mlang.start < position:
            mlang = _mlang_opening(source, position)
            continue
        opening = (
            mlang if mlang is not None and (span is None or mlang.start < span.start) else span
        )
        assert opening is not None
        end = lowered.find(opening.closing, opening.end)
        if end < 0:
            break
        position = end + len(opening.closing)
        blocks.append((opening.start, position, opening.language, source[opening.end : end]))
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
