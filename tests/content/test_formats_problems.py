"""A file's problems, all of them in one run: what its reader finds (mistakes, what a bank
cannot hold) and what the bank's validator finds (lengths, ...), each with its place in the
file, in the file's order. With --skip-unsupported every question that cannot be taken is left
out, whatever the reason, and listed; the good ones are converted. A hint is not a problem:
it is said apart and never counted."""

from __future__ import annotations

import pytest

from content.formats.base import ConversionError, ReadOptions
from content.formats.convert import read_quiz
from content.formats.registry import FORMATS
from tests.support.formats import MIXED_GIFT, MIXED_GIFT_PROBLEMS, OVER_LONG, read, refused
from tests.support.sheets import workbook_bytes


def conversion_error(data: bytes, fmt: str, **options: object) -> ConversionError:
    with pytest.raises(ConversionError) as caught:
        read(data, fmt, **options)
    return caught.value


def test_every_problem_of_a_gift_file_is_said_in_one_run_in_the_files_order() -> None:
    assert refused(MIXED_GIFT.encode(), "gift") == MIXED_GIFT_PROBLEMS


def test_skipping_leaves_out_every_question_that_cannot_be_taken_whatever_the_reason() -> None:
    loaded = read(MIXED_GIFT.encode(), "gift", skip_unsupported=True)
    assert [question.id for question in loaded.quiz.questions] == ["good", "fine"]
    assert loaded.skipped == MIXED_GIFT_PROBLEMS


def test_the_hint_is_apart_from_the_problems_and_says_how_many_questions_are_good() -> None:
    error = conversion_error(MIXED_GIFT.encode(), "gift")
    assert len(error.problems) == 3
    assert error.good_questions == 2
    assert not any("skip-unsupported" in problem for problem in error.problems)


def test_no_hint_when_skipping_would_not_help() -> None:
    only_broken = "::wrong:: Which? {~one ~two}\n"
    assert conversion_error(only_broken.encode(), "gift").good_questions == 0
    # the file's own structure is wrong: no question can be taken out of it
    xml = b"<quiz><question type='truefalse'></question><junk/></quiz>"
    assert conversion_error(xml, "xml").good_questions is None


def test_a_reader_mistake_and_an_unsupported_type_are_said_together() -> None:
    xml = b"""<quiz>
<question type="essay"><name><text>essay</text></name></question>
<question type="multichoice"><name><text>none</text></name>
  <questiontext><text>Which?</text></questiontext>
  <answer fraction="0"><text>a</text></answer><answer fraction="0"><text>b</text></answer>
</question>
<question type="truefalse"><name><text>ok</text></name>
  <questiontext><text>True?</text></questiontext>
  <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
</question>
</quiz>
"""
    assert refused(xml, "xml") == (
        "line 2, question 'essay': a question of type essay",
        "line 3, question 'none': no answer worth 100%",
    )
    loaded = read(xml, "xml", skip_unsupported=True)
    assert [question.id for question in loaded.quiz.questions] == ["ok"]
    assert len(loaded.skipped) == 2


def test_a_question_with_two_problems_is_one_skipped_question() -> None:
    csv = (
        "id,question,option1,option2,answer,explanation\n"
        f"ok,Which?,a,b,A,\n"
        f"two,{'Q' * 801},a,b,A,{OVER_LONG}\n"
    )
    problems = refused(csv.encode(), "csv")
    assert problems == (
        "line 3, field text: the en text has 801 characters; at most 800",
        "line 3, field explanation: the en text has 1001 characters; at most 1000",
    )
    loaded = read(csv.encode(), "csv", skip_unsupported=True)
    assert [question.id for question in loaded.quiz.questions] == ["ok"]
    assert loaded.skipped == ("; ".join(problems),)


def test_a_problem_of_the_quiz_itself_refuses_the_file_even_when_skipping() -> None:
    sheet = workbook_bytes(
        [["question", "option1", "option2", "answer"], ["Which?", "a", "b", "A"]],
        [["title", "T" * 121]],
    )
    error = conversion_error(sheet, "xlsx", skip_unsupported=True)
    assert error.problems == (
        "sheet quiz, row 1, field title: the en text has 121 characters; at most 120",
    )
    assert error.good_questions is None


def test_nothing_left_after_skipping_is_said() -> None:
    error = conversion_error(b"::wrong:: Which? {~one ~two}\n", "gift", skip_unsupported=True)
    assert error.problems == (
        "line 1 ::wrong::: no right answer: mark it with = (or with a positive weight ~%50%)",
        "no question can be taken (1 skipped)",
    )


def test_what_the_bot_cannot_play_is_skipped_like_the_rest() -> None:
    from content.loader import IN_GROUPS

    data = b"::n:: How many? {#4}\n\n::t:: True? {T}\n"
    options = ReadOptions(name="q.gift", skip_unsupported=True)
    loaded = read_quiz(data, FORMATS["gift"], options, accepts=IN_GROUPS)
    assert [question.id for question in loaded.quiz.questions] == ["t"]
    assert loaded.skipped == (
        "line 1 ::n::, field type: this version of the bot cannot play numeric questions yet",
    )


def test_a_yaml_bank_skips_its_broken_questions_when_asked() -> None:
    bank = (
        "id: y\ntitle: Y\nquestions:\n"
        "  - {id: a, text: 'A?', options: [x, y], answer: 0}\n"
        "  - {id: b, text: 'B?', options: [x], answer: 0}\n"
    )
    assert refused(bank.encode(), "yaml") == (
        "question b (#2), field options: List should have at least 2 items after validation, not 1",
    )
    loaded = read(bank.encode(), "yaml", skip_unsupported=True)
    assert [question.id for question in loaded.quiz.questions] == ["a"]
    assert loaded.skipped == refused(bank.encode(), "yaml")


# --- ids from a file's text (a Moodle category's idnumber, a sheet's id) ---------------------


def category(idnumber: str) -> bytes:
    return f"""<quiz>
<question type="category"><category><text>$course$/top/Week 3</text></category>
  <idnumber>{idnumber}</idnumber></question>
<question type="truefalse"><name><text>t</text></name>
  <questiontext><text>True?</text></questiontext>
  <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
</question>
</quiz>""".encode()


def test_a_moodle_category_idnumber_becomes_a_quiz_id_as_question_idnumbers_do() -> None:
    assert read(category("Week_3 / Pipelines"), "xml").quiz.id == "week-3-pipelines"
    assert read(category("pipes-1"), "xml").quiz.id == "pipes-1"


def test_an_idnumber_with_nothing_an_id_can_take_falls_back_to_the_file_name_and_says_so() -> None:
    loaded = read(category("日本"), "xml", name="week3.xml")
    assert loaded.quiz.id == "week3"
    assert loaded.warnings == (
        "the category's idnumber '日本' has no letter or digit a quiz id can take: "
        "the quiz id comes from the file name (or --id) (line 2)",
    )


def test_ids_in_a_sheet_are_slugified_as_moodle_names_are() -> None:
    sheet = workbook_bytes(
        [["id", "question", "option1", "option2", "answer"], ["Q 1", "Which?", "a", "b", "A"]],
        [["id", "My Quiz"]],
    )
    loaded = read(sheet, "xlsx")
    assert loaded.quiz.id == "my-quiz"
    assert [question.id for question in loaded.quiz.questions] == ["q-1"]
    csv = "id,question,option1,option2,answer\nQ 1,Which?,a,b,A\n"
    assert [question.id for question in read(csv.encode(), "csv").quiz.questions] == ["q-1"]


def test_an_invalid_quiz_id_is_refused_with_a_hint() -> None:
    bank = (
        b"id: My Quiz\ntitle: T\nquestions:\n  - {id: a, text: 'A?', options: [x, y], answer: 0}\n"
    )
    assert refused(bank, "yaml") == (
        "field id: 'My Quiz' is not a quiz id: lower-case letters and digits, "
        "words joined by single dashes (such as my-quiz)",
    )
