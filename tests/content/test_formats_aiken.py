"""Aiken read as Moodle's importer reads it (`A)Text` needs no space), strictly: a broken
question is named by its line and first words; with --skip-unsupported the good questions of
a file with broken ones are converted and the broken ones listed (Moodle's "Stop on error:
No"). Properties: any list of questions written in Aiken reads back the same, and good
questions read the same whatever broken ones stand beside them."""

from __future__ import annotations

import contextlib
import string
import time
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from content.export import bank_data
from content.formats.base import ConversionError
from content.grading import right_choices
from tests.support.complexity import assert_linear
from tests.support.formats import read, refused

LETTERS = string.ascii_uppercase


def test_an_option_label_needs_no_space_after_it() -> None:
    loaded = read(b"Which?\nA)one\nB.two\nC) three\nANSWER: B\n", "aiken")
    (question,) = bank_data(loaded.quiz)["questions"]
    assert question["options"] == [{"en": "one"}, {"en": "two"}, {"en": "three"}]
    assert question["answer"] == 1


def test_an_empty_option_is_a_mistake_at_its_line() -> None:
    assert refused(b"Which?\nA)\nB) two\nANSWER: B\n", "aiken") == (
        "line 2 'Which?': option A is empty",
    )


BROKEN = b"""\
What is the idle time at the ends of a pipeline called?
A. A bubble
B. A stall
ANSWER: A

Which split puts consecutive layers on different GPUs?
A. Tensor
C. Pipeline
ANSWER: B

How many stages has a four-GPU pipeline?
A. Two
B. Four
ANSWER: E

Which collective sums a tensor on every GPU?
A. broadcast
B. all-reduce
ANSWER: B
"""


def test_every_broken_question_is_named_by_its_line_and_first_words() -> None:
    assert refused(BROKEN, "aiken") == (
        "line 8 'Which split puts consecutive layers on…': "
        "option C where B was expected (A, B, C... in order)",
        "line 14 'How many stages has a four-GPU pipeline?': ANSWER: 'E' is not one letter A to B",
    )


def test_skipping_imports_the_good_questions_and_names_the_broken_ones() -> None:
    loaded = read(BROKEN, "aiken", skip_unsupported=True)
    texts = [question.text.get("en", "en") for question in loaded.quiz.questions]
    assert texts == [
        "What is the idle time at the ends of a pipeline called?",
        "Which collective sums a tensor on every GPU?",
    ]
    assert loaded.skipped == refused(BROKEN, "aiken")


def test_a_question_without_its_answer_line_does_not_swallow_the_next_one() -> None:
    text = b"First?\nA. a\nB. b\nSecond?\nA. c\nB. d\nANSWER: B\n"
    assert refused(text, "aiken") == (
        "line 4 'First?': after the options comes ANSWER: (an option takes one line)",
    )
    loaded = read(text, "aiken", skip_unsupported=True)
    (question,) = bank_data(loaded.quiz)["questions"]
    assert question["text"] == {"en": "Second?"} and question["answer"] == 1


def test_an_answer_line_without_a_question_is_named() -> None:
    assert refused(b"ANSWER: A\n\nQ?\nA. a\nB. b\nANSWER: A\n", "aiken") == (
        "line 1: ANSWER: without a question before it",
    )


# --- properties ----------------------------------------------------------------------------

# A line of text that Aiken cannot mistake for an option or an answer: it starts with a
# lower-case letter and holds no line break.
_WORDS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=0, max_size=30
)
_LINE = st.builds(lambda first, rest: (first + rest).strip(), st.sampled_from("bcxyz"), _WORDS)


@dataclass(frozen=True)
class Written:
    text: list[str]
    options: list[str]
    answer: int

    def aiken(self, style: int) -> str:
        separators = (". ", ") ", ".", ")", ".\t")
        lines = list(self.text)
        for index, option in enumerate(self.options):
            lines.append(f"{LETTERS[index]}{separators[(style + index) % 5]}{option}")
        lines.append(f"ANSWER: {LETTERS[self.answer]}")
        return "\n".join(lines)


@st.composite
def questions(draw: st.DrawFn) -> Written:
    text = draw(st.lists(_LINE, min_size=1, max_size=3))
    options = draw(st.lists(_LINE, min_size=2, max_size=10))
    return Written(text, options, draw(st.integers(0, len(options) - 1)))


def _broken(question: Written, how: int) -> str:
    """The question written with one mistake Moodle would refuse too."""
    lines = question.aiken(0).split("\n")
    if how == 0:  # its answer names no option
        lines[-1] = f"ANSWER: {LETTERS[len(question.options)]}"
    elif how == 1:  # no answer line
        lines.pop()
    else:  # a gap in the letters
        last = len(question.text) + 1
        lines[last] = "Z" + lines[last][1:]
    return "\n".join(lines)


@given(st.lists(questions(), min_size=1, max_size=8), st.integers(0, 4))
@settings(max_examples=150, deadline=None)
def test_any_questions_written_in_aiken_read_back_the_same(
    written: list[Written], style: int
) -> None:
    text = "\n\n".join(question.aiken(style + n) for n, question in enumerate(written))
    loaded = read(text.encode(), "aiken")
    assert [
        (
            question.text.get("en", "en"),
            [option.get("en", "en") for option in question.options],
            right_choices(question),
        )
        for question in loaded.quiz.questions
    ] == [("\n".join(q.text), q.options, frozenset({q.answer})) for q in written]


@given(st.lists(st.tuples(questions(), st.sampled_from([None, 0, 1, 2])), min_size=1, max_size=8))
@settings(max_examples=150, deadline=None)
def test_good_questions_read_the_same_beside_broken_ones(
    written: list[tuple[Written, int | None]],
) -> None:
    text = "\n\n".join(
        question.aiken(0) if how is None else _broken(question, how) for question, how in written
    )
    good = [question for question, how in written if how is None]
    broken = len(written) - len(good)
    if not good:
        assert refused(text.encode(), "aiken", skip_unsupported=True)[-1] == (
            f"no question can be taken ({broken} skipped)"
        )
        return
    loaded = read(text.encode(), "aiken", skip_unsupported=True)
    assert [question.text.get("en", "en") for question in loaded.quiz.questions] == [
        "\n".join(question.text) for question in good
    ]
    assert len(loaded.skipped) == broken
    assert all(line.startswith("line ") for line in loaded.skipped)


# --- work in proportion to the input --------------------------------------------------------


def _cpu_seconds(data: bytes, **options: object) -> float:
    """The least CPU time of three readings through the converter (refused or not)."""
    times = []
    for _ in range(3):
        started = time.process_time()
        with contextlib.suppress(ConversionError):
            read(data, "aiken", **options)
        times.append(time.process_time() - started)
    return min(times)


HOSTILE = {
    "broken questions": b"Which one?\nA. a\nB. b\nANSWER: Z\n\n",
    "options out of order": b"Which one?\nA. a\n" + b"C. c\n" * 20 + b"ANSWER: A\n\n",
    "a text of many lines": b"a line of the question's text\n",
    # under 500 good ones in 2N (a bank's most), each beside twenty broken ones
    "good questions beside broken ones": b"Q?\nA. a\nB. b\nANSWER: A\n\n"
    + b"Q?\nA. a\nANSWER: A\n\n" * 20,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_twice_the_hostile_input_costs_about_twice_the_time(name: str) -> None:
    piece = HOSTILE[name]

    def build(size: int) -> bytes:
        return piece * (size // len(piece))

    assert_linear(build, lambda data: read(data, "aiken", skip_unsupported=True), collector=True)
    assert _cpu_seconds(build(192 * 1024), skip_unsupported=True) < 2, name
