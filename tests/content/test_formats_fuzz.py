"""Every reader, fed anything: it gives a quiz, or a ConversionError saying what is wrong, and
never another exception. Texts are made of each format's own tokens mixed with any
characters (to reach deep into the reader), bytes are any bytes."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content.formats.base import ConversionError, ReadOptions
from content.formats.registry import FORMATS
from tests.support.formats import made_of, read_or_refuse

# a format's tokens, and how many pieces a text has at most
TOKENS: dict[str, tuple[list[str], int]] = {
    "aiken": (
        [
            "A. ",
            "B) ",
            "C. ",
            "K. ",
            "ANSWER: ",
            "ANSWER: A",
            "Answer: ",
            "\n",
            "\n\n",
            "x",
            "?",
            " ",
        ],
        100,
    ),
    "gift": (
        [
            *list("{}=~#:%\\[]\n\n\n ->.0123456789TF$/"),
            "::",
            "{#",
            "####",
            "[html]",
            "$CATEGORY:",
            "//",
            "..",
            "\\n",
            "<b>",
            "<pre>",
            "TRUE",
            '<img src="@@PLUGINFILE@@/a.png">',
            '<img src\\="b.png" alt\\="x">',
            '<a href="@@PLUGINFILE@@/s.mp3">',
            "<audio>",
        ],
        150,
    ),
    "xml": (
        [
            "<quiz>",
            "</quiz>",
            '<question type="multichoice">',
            '<question type="truefalse">',
            '<question type="numerical">',
            '<question type="shortanswer">',
            '<question type="category">',
            "</question>",
            "<name><text>",
            "</text></name>",
            "<questiontext><text>",
            "</text></questiontext>",
            '<answer fraction="100">',
            '<answer fraction="-50">',
            "<answer>",
            "</answer>",
            "<text>",
            "</text>",
            "<single>false</single>",
            "<![CDATA[",
            "]]>",
            "<p>",
            "<br>",
            '<span lang="yo" class="multilang">',
            "</span>",
            "@@PLUGINFILE@@/a.png",
            '&lt;img src="@@PLUGINFILE@@/a.png"&gt;',
            "&lt;audio&gt;",
            '<file name="a.png">',
            "</file>",
            "<tolerance>1</tolerance>",
            "true",
            "false",
            "14",
            "*",
            "&amp;",
            "&#0;",
            "&bogus;",
            "<units><unit><unit_name>GB</unit_name></unit></units>",
        ],
        60,
    ),
    "csv": (
        [
            "id",
            "type",
            "question",
            "option1",
            "option2",
            "answer",
            "answer:yo",
            "tolerance",
            "unit",
            "single",
            "multiple",
            "true_false",
            "numeric",
            "typed",
            "A",
            "A,B",
            "true",
            "14",
            "1e999",
            "a|b",
            "\\|",
            ",",
            ",",
            ";",
            '"',
            "\n",
            "\n",
            "\r\n",
            "\ufeff",
            "image",
            "images/x.png",
            ":",
        ],
        80,
    ),
}
SKIP_UNSUPPORTED = {"aiken": False, "gift": True, "xml": True, "csv": True}


@pytest.mark.parametrize("fmt", list(TOKENS))
@given(data=st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_gives_a_quiz_or_a_conversion_error(fmt: str, data: st.DataObject) -> None:
    tokens, size = TOKENS[fmt]
    text = data.draw(made_of(tokens, size), label="text")
    read_or_refuse(text, fmt, skip_unsupported=SKIP_UNSUPPORTED[fmt])


@pytest.mark.parametrize("fmt", ["aiken", "gift", "xml", "csv", "xlsx"])
@given(data=st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_bytes_give_a_draft_or_a_conversion_error(fmt: str, data: bytes) -> None:
    reader = FORMATS[fmt].reader
    assert reader is not None
    with contextlib.suppress(ConversionError):
        reader(data, ReadOptions())
