"""Long explanations on a phone: the first sentence plain, the rest in an expandable blockquote
(`telegram_html.folded`); the splitter keeps a block quote whole; the stand-in takes
`<blockquote expandable>` as Telegram does and refuses what Telegram refuses."""

from __future__ import annotations

import html

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.config import DEFAULT_CONTENT_DIR
from bot.core.render import split_blocks
from bot.core.telegram_html import FOLD_AFTER, folded, from_markup, visible_length
from bot.sandbox.html_check import EntityParseError, visible_text
from content.loader import load_bank_file
from content.markup import first_sentence, segments
from tests.support.complexity import assert_linear
from tests.support.harness import SEED

OPEN = "<blockquote expandable>"


def test_every_long_seed_explanation_folds_after_its_first_sentence() -> None:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{SEED}.yaml", "en").quiz
    assert quiz is not None
    folded_count = 0
    for question in quiz.questions:
        assert question.explanation is not None
        for language, text in question.explanation.translations.items():
            shown = folded(text)
            if len(text) <= FOLD_AFTER:
                assert OPEN not in shown, (question.id, language)
                continue
            folded_count += 1
            head, _, rest = shown.partition("\n" + OPEN)
            assert rest.endswith("</blockquote>"), (question.id, language)
            assert "<" not in head and head.endswith("."), (question.id, language, head)
            assert text.startswith(html.unescape(head)) and len(head) < len(text) - 100
            assert visible_text(shown, "HTML").replace("\n", " ") == text  # nothing lost
    assert folded_count >= 8  # every English explanation of the seed is over 300 characters


def test_short_text_code_blocks_and_one_sentence_stay_whole() -> None:
    assert folded("Short.") == "Short."
    long_sentence = "word " * 100
    assert OPEN not in folded(long_sentence)  # no sentence end: nothing to fold after
    with_code = "First sentence here. " + "More words. " * 30 + "\n```python\nx = 1\n```"
    assert folded(with_code) == from_markup(with_code)  # a block quote cannot hold a block


def test_the_first_sentence_ends_at_a_sentence_end_not_at_an_abbreviation() -> None:
    text = "Split it, e.g. by columns, then add `x.y`. Then Megatron-LM does it. More."
    head, tail = first_sentence(segments(text))
    assert from_markup_of(head) == "Split it, e.g. by columns, then add <code>x.y</code>."
    assert from_markup_of(tail).startswith("Then Megatron-LM")
    head, tail = first_sentence(segments("No end here at all"))
    assert tail == ()
    head, tail = first_sentence(segments("A lower case follows. then more. And A. Smith said."))
    assert from_markup_of(tail) == "And A. Smith said."  # not after "then", not after "A."


def from_markup_of(parsed: tuple[object, ...]) -> str:
    from content.markup import to_source

    return from_markup(to_source(parsed))  # type: ignore[arg-type]


TEXT = st.lists(
    st.sampled_from([*"ab ZQ.!?`\n<>&\"'😀", "ẹ̀", "e.g. ", "```\n", "\n```", ". A", "word "]),
    max_size=300,
).map("".join)


@given(TEXT)
@example("Sentence one. " + "x" * 400)
@example("Ends with a dot. " * 40)
@example("`code. In` code. Then " + "y " * 200)
@settings(max_examples=400, deadline=None)
def test_folded_text_is_telegram_html_that_shows_the_same_text(text: str) -> None:
    shown = folded(text)
    visible = visible_text(shown, "HTML")  # raises where Telegram would refuse it
    plain = visible_text(from_markup(text), "HTML")
    if OPEN in shown:
        assert shown.count(OPEN) == 1 and shown.endswith("</blockquote>")
        assert visible.replace("\n", "").replace(" ", "") == plain.replace("\n", "").replace(
            " ", ""
        )
    else:
        assert visible == plain


def test_first_sentence_costs_linear_time() -> None:
    """No sentence end that qualifies (every one is followed by lower case): each candidate
    is looked at once."""
    assert_linear(lambda n: "ab. cd " * (n // 7), lambda text: first_sentence(segments(text)))


def test_the_splitter_keeps_a_block_quote_whole_when_it_fits() -> None:
    quote = f"{OPEN}" + " ".join(["words"] * 30) + "</blockquote>"
    block = "Before the quote, some words.\n" + quote + "\nafter"
    chunks = split_blocks([block], visible_length(quote) + 10)
    holding = [chunk for chunk in chunks if OPEN in chunk]
    assert len(holding) == 1 and holding[0].startswith(OPEN), chunks
    assert visible_text(quote, "HTML") in visible_text(holding[0], "HTML")
    # over the limit alone: cut, and every piece is a block quote that Telegram takes
    pieces = split_blocks([quote], 60)
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.startswith(OPEN) and piece.endswith("</blockquote>"), piece
        visible_text(piece, "HTML")


@pytest.mark.parametrize(
    "text",
    [
        "<blockquote>a<blockquote expandable>b</blockquote></blockquote>",
        '<blockquote expandable="no">a</blockquote>',
        '<blockquote class="x">a</blockquote>',
        '<a href="https://x.org"><blockquote>a</blockquote></a>',
        "<blockquote><pre>code</pre></blockquote>",
        "<pre><blockquote>a</blockquote></pre>",
        "<blockquote expandable>never closed",
    ],
)
def test_the_stand_in_refuses_block_quotes_as_telegram_does(text: str) -> None:
    with pytest.raises(EntityParseError):
        visible_text(text, "HTML")


def test_the_stand_in_takes_a_block_quote_with_formatting_inside() -> None:
    text = '<b>Why:</b> a.\n<blockquote expandable>b <i>c</i> <code>d</code> <a href="https://x.org">e</a></blockquote>'
    assert visible_text(text, "HTML") == "Why: a.\nb c d e"
