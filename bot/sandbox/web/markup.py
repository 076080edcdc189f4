"""The bot's HTML as a tree the page draws with DOM nodes (never as HTML): what Telegram shows.

A node is a string (text, shown as text) or `{"tag": ..., "children": [...]}` with one of the
few tags Telegram formats: b, i, u, s, code, pre (with `language`), a (with `href`), spoiler,
blockquote. Everything else of the input is text: a bank full of `<script>` reaches the page
as the characters `<script>`, escaped by the bot and decoded here once, as Telegram does.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

Node = str | dict[str, Any]

# Telegram's HTML tags, by the entity each makes
TAGS = {
    "b": "b", "strong": "b", "i": "i", "em": "i", "u": "u", "ins": "u", "s": "s",
    "strike": "s", "del": "s", "code": "code", "pre": "pre", "a": "a",
    "tg-spoiler": "spoiler", "blockquote": "blockquote",
}  # fmt: skip
LINK_SCHEMES = {"http", "https", "tg", "mailto"}


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: dict[str, Any] = {"tag": "root", "children": []}
        self.stack: list[dict[str, Any]] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        kind = TAGS.get(tag)
        if tag == "span" and found.get("class") == "tg-spoiler":
            kind = "spoiler"
        node: dict[str, Any] = {"tag": kind or "span", "children": []}
        if kind == "a":
            href = found.get("href") or ""
            if urlsplit(href).scheme.lower() in LINK_SCHEMES:
                node["href"] = href
            else:
                node["tag"] = "span"  # a link the page will not follow: its text only
        if kind == "code" and (found.get("class") or "").startswith("language-"):
            self.stack[-1]["language"] = (found.get("class") or "").removeprefix("language-")
        if kind == "blockquote" and "expandable" in found:
            node["expandable"] = True
        self.stack[-1]["children"].append(node)
        self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        children = self.stack[-1]["children"]
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


def html_tree(html: str) -> list[Node]:
    """The nodes of a text the stand-in accepted in HTML parse mode."""
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return list(parser.root["children"])


def text_tree(text: str | None) -> list[Node]:
    """Plain text (what a person typed, a caption): one text node."""
    return [text] if text else []
