"""Telegram's HTML parse mode, strictly: which tags, which entities, what length counts."""

from __future__ import annotations

import re
from html.parser import HTMLParser

ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
    "a", "code", "pre", "blockquote", "tg-emoji",
}  # fmt: skip
NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
LANGUAGE = re.compile(r"language-[^\s\"'<>]+")


class EntityParseError(ValueError):
    """The text would make Telegram answer "can't parse entities"."""


class _TelegramHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.visible: list[str] = []
        self.open: list[str] = []
        self.pre_has_text = False  # within the open <pre>: text came before any <code>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            raise EntityParseError(f'Unsupported start tag "{tag}"')
        inside = self.open[-1] if self.open else None
        language = dict(attrs).get("class") if tag == "code" else None
        if language is not None:
            # `<pre><code class="language-x">`: a code block's language, right inside <pre>
            if inside != "pre" or self.pre_has_text or not LANGUAGE.fullmatch(language):
                raise EntityParseError('a class on "code" names the language of a "pre" block')
        elif inside in ("pre", "code"):
            raise EntityParseError(f'"{tag}" inside "{inside}": code takes no other entities')
        if tag == "a" and not dict(attrs).get("href"):
            raise EntityParseError("a tag without href")
        if tag == "span" and dict(attrs).get("class") != "tg-spoiler":
            raise EntityParseError("span without class tg-spoiler")
        if tag == "blockquote":
            self._blockquote(attrs)
        elif tag == "pre" and "blockquote" in self.open:
            raise EntityParseError('"pre" inside "blockquote": a block quote holds no code block')
        self.open.append(tag)
        if tag == "pre":
            self.pre_has_text = False

    def _blockquote(self, attrs: list[tuple[str, str | None]]) -> None:
        """`<blockquote>` or `<blockquote expandable>` (Bot API 7.4), never inside another
        one ("blockquote and expandable_blockquote entities can't be nested") nor inside a
        link."""
        if "blockquote" in self.open:
            raise EntityParseError("Blockquote entities can't be nested")
        if "a" in self.open:
            raise EntityParseError('"blockquote" inside "a"')
        for name, value in attrs:
            if name != "expandable" or value not in (None, ""):
                raise EntityParseError(f'Unsupported attribute "{name}" of "blockquote"')

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise EntityParseError(f'Unsupported self-closing tag "{tag}"')

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise EntityParseError(f'Unmatched end tag "{tag}"')
        self.open.pop()

    def handle_data(self, data: str) -> None:
        for bare in "<>&":
            if bare in data:
                raise EntityParseError(f"Unescaped {bare!r} in text")
        self.pre_has_text = self.pre_has_text or bool(data)
        self.visible.append(data)

    def handle_entityref(self, name: str) -> None:
        if name not in NAMED_ENTITIES:
            raise EntityParseError(f'Unsupported HTML entity "&{name};"')
        self.visible.append(NAMED_ENTITIES[name])

    def handle_charref(self, name: str) -> None:
        code = int(name[1:], 16) if name.lower().startswith("x") else int(name)
        self.visible.append(chr(code))

    def unknown_decl(self, data: str) -> None:
        raise EntityParseError("Unsupported declaration")

    def handle_comment(self, data: str) -> None:
        raise EntityParseError("Unsupported comment")


def visible_text(text: str, parse_mode: str | None) -> str:
    """The text a person sees; raises EntityParseError where Telegram would refuse it."""
    if parse_mode is None:
        return text
    if parse_mode.upper() != "HTML":
        raise EntityParseError(f"parse mode {parse_mode} is not supported by the stand-in")
    parser = _TelegramHtml()
    parser.feed(text)
    parser.close()
    if parser.rawdata:
        raise EntityParseError("Unclosed start of a tag")
    if parser.open:
        raise EntityParseError(
            f'Can\'t find end tag corresponding to start tag "{parser.open[-1]}"'
        )
    return "".join(parser.visible)


def telegram_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2
