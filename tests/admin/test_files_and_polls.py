"""The pure parts of /import, /export and /collect: a document's kind by its name, any bytes
read as any kind without raising, and any Telegram quiz poll read as a question or a reason."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telegram import Poll, PollOption

from bot.admin import collecting, files
from bot.core.i18n import Locale
from bot.core.render import Reply
from content.formats.base import ConversionError
from content.formats.registry import FORMATS
from content.images import FolderImages
from content.loader import EVERYTHING, check_bank
from content.markup import flatten
from tests.support.formats import EVERYTHING_BANK, HERE, load

NAMES = st.text(string.ascii_letters + ". _-/é", max_size=20) | st.sampled_from(
    ["a.gift", "B.XLSX", "c.zip", "d.txt", "e.yml", "f.apkg", "g", ".xml"]
)


@pytest.mark.parametrize(
    ("name", "label", "limit"),
    [
        ("week.gift", "GIFT", 512 * 1024),
        ("WEEK.XLSX", "Excel", 5 * 1024 * 1024),
        ("week.txt", "Aiken", 512 * 1024),
        ("week.xml", "Moodle XML", 20 * 1024 * 1024),  # 28 MiB allowed; Telegram gives 20
        ("week.zip", ".zip", 20 * 1024 * 1024),
        ("week.yml", "Quiz Tutor YAML", 512 * 1024),
        ("week.csv", "CSV", 512 * 1024),
    ],
)
def test_the_kind_and_limit_of_a_document_come_from_its_extension(
    name: str, label: str, limit: int
) -> None:
    kind = files.kind_of(name)
    assert kind is not None and (kind.label, kind.max_bytes) == (label, limit)


@pytest.mark.parametrize("name", ["week.apkg", "week.pdf", "week", "week.gift.bak"])
def test_no_kind_for_what_is_not_read(name: str) -> None:
    assert files.kind_of(name) is None


@given(name=NAMES, data=st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_bytes_of_any_kind_give_a_bank_or_errors(name: str, data: bytes) -> None:
    kind = files.kind_of(name)
    if kind is None:
        return
    checked = files.check_upload(data, name, kind, "en")
    assert (checked.quiz is None) == (checked.stored is None)
    assert checked.quiz is not None or checked.result.errors


def poll(
    question: str,
    options: list[str],
    correct: list[int] | None,
    explanation: str | None = None,
    kind: str = Poll.QUIZ,
    closed: bool = False,
) -> Poll:
    return Poll(
        "1",
        question,
        [PollOption(text, 0, persistent_id=str(n)) for n, text in enumerate(options)],
        0,
        closed,
        True,
        kind,
        False,
        correct_option_ids=correct,
        explanation=explanation,
        allows_revoting=False,
        members_only=False,
    )


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=120)


@given(
    question=TEXT,
    options=st.lists(TEXT, min_size=1, max_size=12),
    correct=st.lists(st.integers(0, 11), max_size=3),
    explanation=st.none() | TEXT,
    kind=st.sampled_from([Poll.QUIZ, Poll.REGULAR]),
    forwarded=st.booleans(),
    closed=st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_any_poll_is_a_question_or_a_reason(
    question: str,
    options: list[str],
    correct: list[int],
    explanation: str | None,
    kind: str,
    forwarded: bool,
    closed: bool,
) -> None:
    read = collecting.question_from_poll(
        poll(question, options, correct, explanation, kind, closed), forwarded, "en"
    )
    if isinstance(read, Reply):
        assert read.text(Locale("yo", "en")).strip()
        return
    assert kind == Poll.QUIZ and correct
    assert flatten(read["text"]["en"]) == question  # poll text is kept literally
    assert [flatten(o["en"]) for o in read["options"]] == options
    errors = collecting.check_question("quiz", read, "en")
    bank = {"id": "quiz", "title": "t", "level": "easy", "questions": [{"id": "q", **read}]}
    assert (not errors) == (check_bank(bank, "poll", "en").quiz is not None)


def test_an_open_forwarded_quiz_and_a_regular_poll_are_refused_with_their_reason() -> None:
    open_quiz = poll("Q?", ["a", "b"], None)
    assert collecting.question_from_poll(open_quiz, True, "en") == Reply("collect_open_poll")
    regular = poll("Q?", ["a", "b"], None, kind=Poll.REGULAR)
    assert collecting.question_from_poll(regular, False, "en") == Reply("collect_regular_poll")


def test_several_right_options_make_a_multiple_question() -> None:
    read = collecting.question_from_poll(poll("Q?", ["a", "b", "c"], [2, 0]), False, "en")
    assert isinstance(read, dict) and read["type"] == "multiple" and read["answer"] == [0, 2]
    assert not collecting.check_question("quiz", read, "en")


def test_every_output_format_has_a_file_name() -> None:
    for fmt in FORMATS.values():
        if fmt.writer is not None:
            assert fmt.extension.startswith(".")


@pytest.mark.parametrize("fmt", ["yaml", "csv", "xlsx"])
def test_an_export_with_pictures_is_a_zip_that_imports_back_with_them(fmt: str) -> None:
    loaded = load(EVERYTHING_BANK)
    assert loaded.images  # the bank has picture files
    exported = files.export_file(loaded.quiz, FolderImages(HERE), FORMATS[fmt], "en")
    assert exported.name == f"{loaded.quiz.id}.zip"
    kind = files.kind_of(exported.name)
    assert kind is not None
    back = files.check_upload(exported.data, exported.name, kind, "en", accepts=EVERYTHING)
    assert back.quiz is not None, back.result.errors
    assert dict(back.result.images) == dict(loaded.images)
    if fmt != "csv":  # CSV holds no quiz fields
        assert back.quiz == loaded.quiz


def test_an_export_whose_picture_cannot_be_read_names_it(tmp_path: Path) -> None:
    loaded = load(EVERYTHING_BANK)
    with pytest.raises(ConversionError) as caught:
        files.export_file(loaded.quiz, FolderImages(tmp_path), FORMATS["yaml"], "en")
    assert all(problem.startswith("images/") for problem in caught.value.problems)
