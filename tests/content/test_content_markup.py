"""Code in a bank's text (content.markup): fenced blocks, inline code, `\\`` for a backtick;
examples of each rule, properties of the parser, and the warnings the validator gives."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from content.loader import bank_files, load_bank_file, parse_bank
from content.markup import (
    CodeBlock,
    InlineCode,
    Plain,
    Segment,
    flatten,
    parse_markup,
    problems,
    segments,
    to_source,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain text", (Plain("plain text"),)),
        ("use `x + 1` here", (Plain("use "), InlineCode("x + 1"), Plain(" here"))),
        ("`a``b`", (InlineCode("a"), InlineCode("b"))),
        ("a \\` b", (Plain("a ` b"),)),
        ("`a\\`b`", (InlineCode("a`b"),)),
        ("C:\\path and \\n", (Plain("C:\\path and \\n"),)),
        (
            "What does this print?\n```python\nprint(sum([4, 4, 4]) // 3)\n```",
            (
                Plain("What does this print?\n"),
                CodeBlock("print(sum([4, 4, 4]) // 3)", "python"),
            ),
        ),
        ("```\nx = 1\n\ny = 2\n```\nAfter", (CodeBlock("x = 1\n\ny = 2"), Plain("\nAfter"))),
        ("```c++\nint x;\n```", (CodeBlock("int x;", "c++"),)),
        ("```sh  \necho \\`date\\` `x`\n```", (CodeBlock("echo \\`date\\` `x`", "sh"),)),
        ("```py\n```", (CodeBlock("", "py"),)),
        ("```\n```python\n```", (CodeBlock("```python"),)),
        ("```\na\n```   \nb", (CodeBlock("a"), Plain("\nb"))),
    ],
)
def test_segments(text: str, expected: tuple[Segment, ...]) -> None:
    parsed = parse_markup(text)
    assert parsed.segments == expected
    assert parsed.problems == ()


@pytest.mark.parametrize(
    ("text", "literal", "problem"),
    [
        ("a lone ` here", "a lone ` here", "not closed on its line"),
        ("`open\nclosed`", "`open\nclosed`", "line 1: a ` starts inline code"),
        ("two `` here", "two `` here", "2 backticks in a row"),
        ("x ```py y", "x ```py y", "3 backticks in a row"),
        ("```python\nprint(1)", "```python\nprint(1)", "line 1: a ``` code block is not closed"),
        ("```py", "```py", "not closed"),
        ("```python print(1)\n```", "```python print(1)\n```", "alone on its line"),
    ],
)
def test_what_makes_no_code_stays_literal_with_a_problem(
    text: str, literal: str, problem: str
) -> None:
    parsed = parse_markup(text)
    assert flatten(text) == literal
    assert all(isinstance(segment, Plain) for segment in parsed.segments)
    assert any(problem in found for found in parsed.problems), parsed.problems


def test_flatten_shows_code_as_text() -> None:
    assert flatten("call `f(x)` then\n```py\nreturn 1\n```") == "call f(x) then\nreturn 1"


# --- properties ----------------------------------------------------------------------------

code_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)


@given(code_text)
@example("```\n```\n```")
@example("\\```\n```")
def test_parsing_never_raises_and_the_source_of_the_segments_gives_them_back(text: str) -> None:
    parsed = parse_markup(text)
    assert parse_markup(to_source(parsed.segments)).segments == parsed.segments


@given(st.text(st.sampled_from("`\\\n ap"), max_size=40))
def test_backtick_soup_round_trips(text: str) -> None:
    parsed = segments(text)
    assert segments(to_source(parsed)) == parsed
    assert not any(isinstance(s, Plain) and not s.text for s in parsed)  # no empty plain
    assert not any(
        isinstance(a, Plain) and isinstance(b, Plain) for a, b in itertools.pairwise(parsed)
    )


@given(code_text)
def test_text_without_backticks_is_one_plain_segment(text: str) -> None:
    assume("`" not in text)
    assert segments(text) == ((Plain(text),) if text else ())
    assert problems(text) == ()


def _inline() -> st.SearchStrategy[Segment]:
    return (
        st.text(
            st.characters(exclude_categories=["Cs"], exclude_characters="\n"),
            min_size=1,
            max_size=10,
        )
        .filter(lambda code: not code.endswith("\\"))
        .map(InlineCode)
    )


def _block() -> st.SearchStrategy[Segment]:
    lines = st.lists(code_text.map(lambda s: s.replace("\n", " ")), max_size=3).map("\n".join)
    return st.builds(
        CodeBlock,
        lines.filter(
            lambda code: not any(line.rstrip(" \t") == "```" for line in code.split("\n"))
        ),
        st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_+#.-]{1,10}", fullmatch=True)),
    )


@st.composite
def documents(draw: st.DrawFn) -> list[Segment]:
    """Segments a text can hold: a block on its own lines, no backslash before inline code."""
    parts: list[Segment] = []
    for kind in draw(st.lists(st.sampled_from(["plain", "inline", "block"]), max_size=6)):
        if kind == "plain":
            text = draw(code_text.filter(bool))
            if parts and isinstance(parts[-1], Plain):
                continue
            if parts and isinstance(parts[-1], CodeBlock) and not text.startswith("\n"):
                text = "\n" + text
            parts.append(Plain(text))
        elif kind == "inline":
            if parts and isinstance(parts[-1], CodeBlock):
                parts.append(Plain("\n"))
            if parts and isinstance(parts[-1], Plain) and parts[-1].text.endswith("\\"):
                parts[-1] = Plain(parts[-1].text + " ")
            parts.append(draw(_inline()))
        else:
            if parts and isinstance(parts[-1], Plain):
                if not parts[-1].text.endswith("\n"):
                    parts[-1] = Plain(parts[-1].text + "\n")
            elif parts:
                parts.append(Plain("\n"))
            parts.append(draw(_block()))
    return parts


@given(documents())
def test_any_segments_a_text_can_hold_survive_source_and_parse(parts: list[Segment]) -> None:
    source = to_source(parts)
    parsed = parse_markup(source)
    assert parsed.segments == tuple(parts)
    assert parsed.problems == ()


# --- the banks, and the validator's warnings ---------------------------------------------


def test_the_banks_written_before_code_have_no_backtick_that_would_change_meaning() -> None:
    seed = REPO / "content" / "banks" / "model-pipeline-parallelism.yaml"
    assert "`" not in seed.read_text(encoding="utf-8")


def test_the_banks_use_code_only_as_meant() -> None:
    for path in bank_files(REPO / "content" / "banks"):
        result = load_bank_file(path, "en")
        assert result.errors == () and result.warnings == (), path


def test_the_validator_warns_where_a_backtick_shows_as_it_is() -> None:
    text = (
        "id: code\ntitle: Code\nlevel: easy\nquestions:\n"
        '  - id: c1\n    text: "What is `x?"\n    options: ["`a`", "b ``"]\n    answer: 0\n'
    )
    result = parse_bank(text, "code.yaml", "en")
    assert result.quiz is not None
    assert result.warnings == (
        "question c1 (#1), field text (en): a ` starts inline code that is not closed on its "
        "line; a literal backtick is written \\`",
        "question c1 (#1), field options[1] (en): 2 backticks in a row show as they are: "
        "inline code takes one backtick on each side, and a literal backtick is written \\`",
    )
