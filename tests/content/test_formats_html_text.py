"""HTML (Moodle XML's texts, GIFT's [html] and [moodle] texts) as our plain text.

The scanner's regular expressions were made possessive so that a tag never closed costs one
pass (tests/content/test_complexity.py); here, that they still match exactly what the old
ones matched, on any input. And a text read from HTML reads back the same after a trip
through our HTML: spaces (`&nbsp;` among them) are collapsed once, the first time.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from content.formats import html_text
from content.formats.html_text import html_to_text, split_languages, text_to_html

# The expressions as they were before they were made linear: the reference for what matches.
OLD_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>")
OLD_ATTRIBUTE = re.compile(
    r"""([A-Za-z_:][-A-Za-z0-9_:.]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s"'<>`=]+))?"""
)
OLD_LANGUAGE_BLOCK = re.compile(
    r"""<(span|lang)\b[^<>]*?\blang\s*=\s*["']?([A-Za-z0-9_-]+)["']?[^<>]*>""", re.IGNORECASE
)
OLD_MLANG = re.compile(r"\{mlang\s+([A-Za-z0-9_-]+)\s*\}", re.IGNORECASE)

HTML_TOKENS = [
    *"ab <>/=\"' \t\n-`\\",
    "<b>",
    "</b>",
    "<br>",
    "<br/>",
    "<p>",
    "</p>",
    "<li>",
    "<code>",
    "</code>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<!--",
    "-->",
    "<span",
    "<lang",
    "</span>",
    "</lang>",
    " lang=",
    "lang",
    "xml:lang=",
    "class=",
    '"en"',
    "'yo'",
    "{mlang en}",
    "{mlang yo}",
    "{mlang}",
    "{mlang ",
    "&nbsp;",
    "\xa0",
    "&amp;",
    "&lt;",
    "&#10;",
    "&#x41;",
    "<img src='p.png' alt=\"x\">",
]
html_texts = st.lists(
    st.one_of(st.sampled_from(HTML_TOKENS), st.characters(codec="utf-8")), max_size=40
).map("".join)


def _groups(match: re.Match[str] | None) -> tuple[object, ...] | None:
    return None if match is None else (match.span(), match.groups())


@settings(max_examples=500, deadline=None)
@given(html_texts, st.data())
def test_the_linear_tag_and_attribute_expressions_match_as_the_old_ones_did(
    text: str, data: st.DataObject
) -> None:
    position = data.draw(st.integers(0, len(text)))
    assert _groups(html_text._TAG.match(text, position)) == _groups(OLD_TAG.match(text, position))
    found = [m.groups() for m in html_text._ATTRIBUTE.finditer(text)]
    assert found == [m.groups() for m in OLD_ATTRIBUTE.finditer(text)]


def _old_openings(source: str) -> list[tuple[int, int, str]]:
    found = []
    for match in OLD_LANGUAGE_BLOCK.finditer(source):
        found.append((match.start(), match.end(), match.group(2)))
    return found


@settings(max_examples=500, deadline=None)
@given(html_texts)
def test_language_blocks_open_where_the_old_expressions_found_them(text: str) -> None:
    openings = []
    position = 0
    while (opening := html_text._span_opening(text, position)) is not None:
        openings.append((opening.start, opening.end, opening.language))
        position = opening.end
    assert openings == _old_openings(text)
    mlang = [(m.start(), m.end(), m.group(1)) for m in OLD_MLANG.finditer(text)]
    found = []
    position = 0
    while (opening := html_text._mlang_opening(text, position)) is not None:
        found.append((opening.start, opening.end, opening.language))
        position = opening.end
    assert found == mlang


@settings(max_examples=300, deadline=None)
@given(html_texts)
def test_splitting_languages_never_fails_and_keeps_each_languages_text(text: str) -> None:
    parts = split_languages(text)
    if parts is not None:
        assert parts and all(isinstance(part, str) for part in parts.values())


@settings(max_examples=1000, deadline=None)
@given(html_texts)
def test_a_text_read_from_html_reads_back_the_same_through_our_html(text: str) -> None:
    first = html_to_text(text).text
    assert html_to_text(text_to_html(first)).text == first


def test_a_non_breaking_space_beside_a_space_is_one_space_the_first_time() -> None:
    assert html_to_text("Second line&nbsp; here").text == "Second line here"
    assert html_to_text("a&nbsp;&nbsp;b").text == "a b"
    assert html_to_text("a\xa0 b").text == "a b"
    assert html_to_text("a <b> b</b>").text == "a b"  # across a tag, as a browser shows it
    assert html_to_text("<li> x</li>").text == "- x"


def test_code_keeps_its_spaces_and_a_pre_block_its_lines() -> None:
    assert html_to_text("<pre>a  b\n c</pre>").text == "```\na  b\n c\n```"


def test_code_that_our_text_cannot_hold_as_code_stays_plain_text() -> None:
    assert html_to_text("a <code>x</code> b").text == "a `x` b"
    assert html_to_text("a<code></code> b").text == "a b"  # empty
    assert html_to_text("x<br><code></code> a").text == "x\na"
    assert html_to_text("<code>a<br>b</code>").text == "a\nb"  # a line break in it
    assert html_to_text("<li><code> a").text == "- a"  # never closed
    assert html_to_text("a</code>b").text == "ab"  # closed, never opened
