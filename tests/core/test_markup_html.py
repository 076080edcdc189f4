"""Bank text as Telegram HTML (`telegram_html.from_markup`): whatever the text, Telegram takes
the HTML and shows exactly the text's characters, its code as code."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.core.telegram_html import from_markup, visible_length
from bot.sandbox.html_check import telegram_length, visible_text
from content.markup import flatten

PIECES = [
    "`",
    "```",
    "```python\n",
    "\n```",
    "\\`",
    "\\",
    "\n",
    " ",
    "a",
    "<b>",
    "&amp;",
    "é",
    "😀",
]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@given(texts)
@settings(max_examples=500, deadline=None)
@example("What does this print?\n```python\nprint(1 < 2)\n```\nand `x & y`")
@example("```\n```")
def test_any_bank_text_is_valid_html_that_shows_its_characters(text: str) -> None:
    html = from_markup(text)
    shown = visible_text(html, "HTML")  # raises where Telegram would refuse the entities
    assert shown == flatten(text)
    assert visible_length(html) == telegram_length(shown)


def test_code_renders_as_code_and_the_rest_is_escaped() -> None:
    text = "Run <this>:\n```python\nif a < b & c:\n```\nthen `x\\`y` & \\`z"
    assert from_markup(text) == (
        "Run &lt;this&gt;:\n"
        '<pre><code class="language-python">if a &lt; b &amp; c:</code></pre>\n'
        "then <code>x`y</code> &amp; `z"
    )
