"""The bot's HTML as the page draws it (bot/sandbox/web/markup.py): text stays text, and the
tree shows what the stand-in (and Telegram) shows."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from bot.sandbox.html_check import visible_text
from bot.sandbox.web.markup import html_tree
from tests.support.page import tags_of, text_of

FORMATS = ["b", "i", "u", "s", "code", "tg-spoiler", "blockquote", "strong", "em", "del"]
SHOWN = {"b", "i", "u", "s", "code", "pre", "a", "spoiler", "blockquote", "span"}

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@st.composite
def telegram_html(draw: st.DrawFn, depth: int = 0, inside: frozenset[str] = frozenset()) -> str:
    """Text as the bot writes it: escaped text inside Telegram's tags, nested as Telegram
    allows (a block quote in no block quote nor link, and holding no code block)."""
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        if depth < 3 and draw(st.booleans()):
            kinds = [*FORMATS, "a", "pre", "spoiler-span"]
            if "blockquote" in inside or "a" in inside:
                kinds = [kind for kind in kinds if kind not in ("blockquote", "pre")]
            kind = draw(st.sampled_from(kinds))
            inner = draw(telegram_html(depth + 1, inside | {kind}))
            if kind == "a":
                href = draw(st.sampled_from(["https://example.org/?a=1&amp;b=2", "tg://user?id=1"]))
                parts.append(f'<a href="{href}">{inner}</a>')
            elif kind in ("pre", "code"):  # code takes no other entities, as in Telegram
                plain = html.escape(draw(texts), quote=False)
                if kind == "pre":
                    parts.append(f'<pre><code class="language-python">{plain}</code></pre>')
                else:
                    parts.append(f"<code>{plain}</code>")
            elif kind == "spoiler-span":
                parts.append(f'<span class="tg-spoiler">{inner}</span>')
            else:
                parts.append(f"<{kind}>{inner}</{kind}>")
        else:
            parts.append(html.escape(draw(texts), quote=False))
    return "".join(parts)


@given(texts)
def test_escaped_text_is_one_text_node_character_for_character(text: str) -> None:
    nodes = html_tree(html.escape(text, quote=False))
    assert all(isinstance(node, str) for node in nodes)
    assert text_of(nodes) == text


@given(telegram_html())
def test_the_tree_shows_what_telegram_shows_with_its_tags_only(markup: str) -> None:
    nodes = html_tree(markup)
    assert text_of(nodes) == visible_text(markup, "HTML")
    assert tags_of(nodes) <= SHOWN


def test_formatting_becomes_the_entity_it_makes() -> None:
    nodes = html_tree(
        "<b>b</b><strong>b</strong><i>i</i><u>u</u><s>s</s><code>c</code><tg-spoiler>x</tg-spoiler>"
        '<span class="tg-spoiler">y</span><blockquote expandable>q</blockquote>'
        '<pre><code class="language-python">print(1)</code></pre><a href="https://e.org">l</a>'
    )
    assert [n["tag"] for n in nodes if isinstance(n, dict)] == [
        "b", "b", "i", "u", "s", "code", "spoiler", "spoiler", "blockquote", "pre", "a",
    ]  # fmt: skip
    assert nodes[8]["expandable"] is True
    assert nodes[9]["language"] == "python"
    assert nodes[10]["href"] == "https://e.org"


def test_a_link_the_page_should_not_follow_is_its_text_only() -> None:
    for href in ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "//evil"]:
        nodes = html_tree(f'<a href="{html.escape(href)}">click</a>')
        assert nodes == [{"tag": "span", "children": ["click"]}]
