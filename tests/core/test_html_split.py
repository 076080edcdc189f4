"""Splitting long HTML into Telegram messages: every chunk is valid Telegram HTML, fits the
limit after entity parsing, and together the chunks show exactly the original text."""

from __future__ import annotations

import html
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.core.render import MAX_MESSAGE_LENGTH, split_blocks
from bot.core.telegram_html import visible_length
from bot.sandbox.html_check import telegram_length, visible_text

# characters that escape to entities, a Yoruba letter with two combining marks, emoji (two
# UTF-16 units each, one a ZWJ sequence), spaces and line breaks
ALPHABET = ["a", "b", "Z", "7", "&", "<", ">", '"', "'", " ", "\n", "ẹ̀", "ọ́", "😀", "👩‍💻", "é"]
TAGS = [
    ("<b>", "</b>"),
    ("<i>", "</i>"),
    ('<a href="https://example.com/?a=1&amp;b=&lt;2&gt;">', "</a>"),
    ('<span class="tg-spoiler">', "</span>"),
]
# code holds text only (Telegram takes no entity inside code)
CODE_TAGS = [
    ("<code>", "</code>"),
    ("<pre>", "</pre>"),
    ('<pre><code class="language-python">', "</code></pre>"),
]

plain = st.lists(st.sampled_from(ALPHABET), max_size=60).map(lambda cs: html.escape("".join(cs)))


@st.composite
def fragments(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.booleans()):
            start, end = draw(st.sampled_from(TAGS))
            parts.append(start + draw(fragments(depth + 1)) + end)
        elif draw(st.integers(0, 4)) == 0:
            start, end = draw(st.sampled_from(CODE_TAGS))
            parts.append(start + draw(plain) + end)
        else:
            parts.append(draw(plain))
    return "".join(parts)


def blocks_with_text() -> st.SearchStrategy[list[str]]:
    return st.lists(fragments(), min_size=1, max_size=8).filter(
        lambda blocks: visible_text("\n\n".join(blocks), "HTML").strip() != ""
    )


def check(blocks: list[str], limit: int) -> list[str]:
    """Split, and check what Telegram would: valid HTML, the length, nothing lost or added
    (Telegram trims whitespace at the ends of a message: a cut may leave it out)."""
    chunks = split_blocks(blocks, limit)
    shown = [visible_text(chunk, "HTML") for chunk in chunks]  # raises where Telegram would
    for text in shown:
        assert text.strip(), chunks
        assert telegram_length(text) <= limit, (limit, text)
    pieces = r"\s*".join(re.escape(text.strip()) for text in shown)
    assert re.fullmatch(rf"\s*{pieces}\s*", visible_text("\n\n".join(blocks), "HTML")), chunks
    return chunks


@given(blocks_with_text(), st.integers(min_value=8, max_value=120))
@settings(max_examples=400, deadline=None)
@example(["&amp;" * 30], 8)
@example(["<b>one\ntwo\nthree</b>"], 8)
@example(["x" * 20, "y"], 10)
def test_chunks_are_valid_fit_and_keep_every_character(blocks: list[str], limit: int) -> None:
    check(blocks, limit)


def test_blocks_that_fit_are_never_split_and_are_joined_with_a_blank_line() -> None:
    assert split_blocks(["one", "two"]) == ["one\n\ntwo"]
    assert split_blocks(["a" * 6, "b" * 6], 10) == ["a" * 6, "b" * 6]
    assert split_blocks(["a" * 4, "b" * 4], 10) == ["a" * 4 + "\n\n" + "b" * 4]


def test_a_long_block_is_cut_at_a_line_end_before_a_space_and_a_space_before_a_letter() -> None:
    block = "<b>" + "word " * 4 + "\n" + "x" * 30 + " yyyyy</b>"
    assert check(["intro", block], 40) == [
        "intro",
        "<b>word word word word</b>",
        "<b>" + "x" * 30 + " yyyyy</b>",
    ]
    assert check(["<i>" + "word " * 12 + "</i>"], 40) == [
        "<i>" + " ".join(["word"] * 8) + "</i>",
        "<i>" + " ".join(["word"] * 4) + "</i>",
    ]
    assert check(["x" * 50], 40) == ["x" * 40, "x" * 10]


def test_a_link_cut_in_two_is_a_link_in_both_messages() -> None:
    link = '<a href="https://example.com/?a=1&amp;b=2">'
    chunks = check([f"{link}{'click ' * 10}</a>"], 32)
    assert all(chunk.startswith(link) and chunk.endswith("</a>") for chunk in chunks)


def test_a_block_measured_by_what_telegram_counts_not_by_its_html() -> None:
    """2,000 ampersands are 10,000 characters of HTML but 2,000 on screen: one message."""
    block = html.escape("&" * 2000)
    assert split_blocks([block]) == [block]


def test_emoji_count_two_and_are_never_cut_in_half() -> None:
    chunks = check(["😀" * 3000], MAX_MESSAGE_LENGTH)
    assert [telegram_length(c) for c in chunks] == [4096, 1904]


def test_combining_marks_stay_with_their_letter() -> None:
    chunks = check(["ẹ̀" * 10], 5)  # each letter is two code points: two letters a chunk
    assert all(not chunk.startswith(("\u0323", "\u0300")) for chunk in chunks)
    assert chunks == ["ẹ̀ẹ̀", "ẹ̀ẹ̀", "ẹ̀ẹ̀", "ẹ̀ẹ̀", "ẹ̀ẹ̀"]


@given(blocks_with_text())
@settings(max_examples=200, deadline=None)
def test_visible_length_is_what_telegram_counts(blocks: list[str]) -> None:
    text = "\n\n".join(blocks)
    assert visible_length(text) == telegram_length(visible_text(text, "HTML"))


CODE_LINE = st.lists(st.sampled_from(["a", "b", " ", "&amp;", "&lt;", "ọ́", "😀"]), max_size=12)


@given(
    st.lists(CODE_LINE.map("".join), min_size=1, max_size=8),
    st.lists(st.sampled_from(["word", " ", "\n", "ẹ̀"]), max_size=40).map("".join),
    st.integers(min_value=20, max_value=120),
)
@settings(max_examples=300, deadline=None)
def test_a_code_block_that_fits_a_message_is_never_cut(
    code_lines: list[str], before: str, limit: int
) -> None:
    code = "\n".join(code_lines)
    block = f'<pre><code class="language-python">{code}</code></pre>'
    if not visible_text(block, "HTML").strip() or visible_length(block) > limit:
        return
    chunks = check([f"{before}\n{block}\nafter"], limit)
    holding = [chunk for chunk in chunks if "<pre>" in chunk]
    assert len(holding) == 1, chunks  # the whole block sits in one message
    assert visible_text(block, "HTML").strip() in visible_text(holding[0], "HTML")


def test_a_code_block_longer_than_a_message_is_cut_at_its_line_ends_and_stays_code() -> None:
    code = "\n".join(f"line_{n} = {n} * 2" for n in range(12))
    block = f'Some text first.\n<pre><code class="language-python">{code}</code></pre>'
    chunks = check([block], 60)
    assert chunks[0] == "Some text first."
    for chunk in chunks[1:]:
        assert chunk.startswith('<pre><code class="language-python">line_'), chunk
        assert chunk.endswith("</code></pre>"), chunk
