"""Moodle XML (issue 15): a file of every construct written from Moodle's description, the
types we cannot represent refused with their place (or skipped), hostile documents (entities,
DTDs, truncation, deep nesting) refused with a clear error, and what a round trip writes (the
round trips themselves: tests/content/test_formats_round_trips.py)."""

from __future__ import annotations

import base64
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from content.answers import normalize
from content.export import bank_data
from content.formats.base import ConversionError
from content.formats.convert import Loaded
from content.model import Level, LocalizedText, Question, Quiz, TypedAnswer
from tests.support.formats import (
    DRILL,
    EVERYTHING_BANK,
    HERE,
    load,
    read,
    refused,
    trip,
)
from tests.support.images import png


def constructs() -> tuple[Loaded, dict[str, dict[str, object]]]:
    loaded = read((HERE / "constructs.xml").read_bytes(), "xml", "constructs.xml")
    return loaded, {q["id"]: q for q in bank_data(loaded.quiz)["questions"]}


def test_the_category_gives_title_description_and_id() -> None:
    loaded, _ = constructs()
    quiz = loaded.quiz
    assert (quiz.id, quiz.title) == ("pipeline-basics", LocalizedText({"en": "Pipeline basics"}))
    assert quiz.description == LocalizedText({"en": "Short drills on pipeline parallelism."})
    assert quiz.level is Level.EASY  # from the tag level:easy
    assert not quiz.shuffle_options  # one question says <shuffleanswers>0


def test_multichoice_single_with_an_embedded_image() -> None:
    loaded, questions = constructs()
    q = questions["Bubble"]  # no idnumber: the name
    assert q["text"] == {"en": "What is the grey area in this schedule?"}
    assert q["image"] == "schedule one.png"  # @@PLUGINFILE@@/schedule%20one.png
    assert q["image_alt"] == {"en": "A pipeline schedule"}
    assert q["options"] == [{"en": "Idle time (a bubble)"}, {"en": "A memory leak"}]
    assert q["answer"] == 0
    assert q["explanation"] == {"en": "Idle time:\nstages wait for activations."}
    assert loaded.images["schedule one.png"] == png(12, 6)


def test_fractions_make_a_multiple_question_and_multilang_spans_languages() -> None:
    _, questions = constructs()
    q = questions["mem-1"]  # the idnumber
    assert q["type"] == "multiple"
    assert q["answer"] == [0, 1]
    assert q["text"] == {
        "en": "Which of these lower the memory for the weights?",
        "yo": "Èwo ló ń dín ìrántí kù?",
    }
    # no general feedback: the right answer's feedback explains
    assert q["explanation"] == {"en": "Yes: a slice of each layer."}


def test_truefalse_with_an_explanation_image() -> None:
    loaded, questions = constructs()
    q = questions["tf"]
    assert (q["type"], q["answer"]) == ("true_false", True)
    assert q["text"] == {"en": "Data parallelism copies the model\nto every GPU."}  # auto-format
    assert q["explanation_image"] == "why.png"
    assert loaded.images["why.png"] == png(6, 12)


def test_numerical_with_tolerance_and_unit() -> None:
    _, questions = constructs()
    q = questions["fp16"]
    assert (q["answer"], q["tolerance"], q["unit"]) == (14, 0.5, {"en": "GB"})
    assert q["explanation"] == {"en": "7 × 2 = 14."}


def test_shortanswer_with_code_and_an_escaped_star() -> None:
    _, questions = constructs()
    q = questions["typed"]
    assert q["answer"] == [{"en": "bubble"}, {"en": "pipeline bubble"}, {"en": "C*"}]
    assert q["text"] == {
        "en": "What is the idle time of a pipeline called?\n```text\n"
        "stage 1 |F|F|.|.|\nstage 2 |.|F|F|.|\n```"
    }


def test_skipping_unsupported_types_keeps_the_rest() -> None:
    loaded = read((HERE / "unsupported.xml").read_bytes(), "xml", skip_unsupported=True)
    assert [q.id for q in loaded.quiz.questions] == ["good"]
    assert len(loaded.skipped) == 4


def test_a_truncated_document_is_refused_at_its_end() -> None:
    data = (HERE / "constructs.xml").read_bytes()
    cut = data[: data.index(b'<question type="truefalse">') + 40]
    problems = refused(cut, "xml")
    (problem,) = problems
    last_line = cut.count(b"\n") + 1
    assert problem.startswith(f"line {last_line}, column ")
    assert problem.endswith("not well-formed XML (it ends too early: truncated?)")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<quiz><question type="truefalse"><name><text>&lol3;</text></name></question></quiz>
"""


def test_entities_are_refused_before_anything_expands() -> None:
    problems = refused(BILLION_LAUGHS, "xml")
    assert problems == (
        "line 3: an entity declaration; Moodle XML has none, and entities are refused "
        "(they can expand without bound)",
    )


def test_a_dtd_and_external_entities_are_refused() -> None:
    external = b'<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "file:///etc/passwd">\n<quiz/>'
    problems = refused(external, "xml")
    assert problems[0].startswith("line 2: a DTD;")


def test_an_entity_hidden_from_the_quick_look_is_still_refused_by_defusedxml() -> None:
    # UTF-16 hides the ASCII marker from the byte search; the parser itself refuses the DTD
    data = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE q [<!ENTITY a "b">]><quiz/>'
    problems = refused(data.encode("utf-16"), "xml")
    assert problems[0].startswith("refused: ")


def test_deep_nesting_is_refused_while_parsing() -> None:
    data = b"<quiz>" + b"<a>" * 50_000 + b"</a>" * 50_000 + b"</quiz>"
    problems = refused(data, "xml")
    assert problems == ("refused: elements nested more than 32 deep",)


def test_a_tag_longer_than_64_kib_is_refused_before_parsing() -> None:
    # expat reads a whole tag before it reports anything of it: 28 MiB of attributes took 7 s
    data = b"<quiz>\n<question " + b" ".join(b'a%d="1"' % i for i in range(10_000)) + b"/>"
    assert refused(data, "xml") == ("line 2: a tag or comment longer than 64 KiB; not Moodle XML",)


def test_more_than_500_element_and_attribute_names_are_refused_while_parsing() -> None:
    data = b"<quiz>" + b"".join(b'<q a%d="1"/>' % i for i in range(600)) + b"</quiz>"
    assert refused(data, "xml") == ("refused: more than 500 different element and attribute names",)


def test_files_named_alike_in_two_questions_are_kept_apart_and_the_same_file_once() -> None:
    def question(name: str, picture: bytes) -> str:
        b64 = base64.b64encode(picture).decode()
        return (
            f'<question type="truefalse"><name><text>{name}</text></name>'
            '<questiontext format="html"><text><![CDATA[Which? <img src="@@PLUGINFILE@@/image.png">]]></text>'
            f'<file name="image.png" path="/" encoding="base64">{b64}</file></questiontext>'
            '<answer fraction="100"><text>true</text></answer>'
            '<answer fraction="0"><text>false</text></answer></question>'
        )

    data = "<quiz>" + question("a", png(8, 8)) + question("b", png(9, 9))
    data += question("c", png(8, 8)) + question("d", png(10, 10)) + "</quiz>"
    loaded = read(data.encode(), "xml")
    assert [q.image.location for q in loaded.quiz.questions if q.image] == [
        "image.png",
        "image-2.png",
        "image.png",
        "image-3.png",
    ]
    assert loaded.images["image-3.png"] == png(10, 10)


def test_a_document_that_is_not_a_quiz() -> None:
    problems = refused(b"<html><body/></html>", "xml")
    assert problems == ("the document is <html>; Moodle XML is a <quiz>",)


def _question(body: str, kind: str = "multichoice") -> bytes:
    return (
        f'<quiz><question type="{kind}"><name><text>q</text></name>'
        f"<questiontext><text>Which?</text></questiontext>{body}</question></quiz>"
    ).encode()


@pytest.mark.parametrize(
    ("body", "kind", "problem"),
    [
        (
            '<answer fraction="100"><text>a</text></answer><answer fraction="100"><text>b</text></answer>',
            "multichoice",
            "line 1, question 'q': several answers worth 100% in a one-answer question",
        ),
        (
            '<answer fraction="100"><text>9</text></answer>'
            '<answer fraction="-50"><text>5</text></answer>',
            "numerical",
            "line 1, question 'q': a negative fraction (-50%) for a number",
        ),
        (
            '<answer fraction="50"><text>9</text><tolerance>1</tolerance></answer>'
            '<answer fraction="100"><text>9</text></answer>',
            "numerical",
            "line 1, question 'q': a number worth 50% before the right one takes some of its "
            "replies (Moodle gives them that fraction)",
        ),
        (
            '<answer fraction="100"><text>a</text></answer><answer fraction="50"><text>b</text></answer>',
            "shortanswer",
            "line 1, question 'q': partial credit (50%) for a short answer",
        ),
        (
            '<answer fraction="100"><text>pipe*</text></answer>',
            "shortanswer",
            "line 1, question 'q': a short answer with a wildcard: 'pipe*'",
        ),
        (
            '<answer fraction="100"><text><![CDATA[<img src="@@PLUGINFILE@@/a.png">]]></text></answer>'
            '<answer fraction="0"><text>b</text></answer>',
            "multichoice",
            "line 1, question 'q': an answer that is only a picture (a.png); an answer is text",
        ),
        (
            '<answer fraction="100"><text>14</text></answer><answer fraction="100"><text>15</text></answer>',
            "numerical",
            "line 1, question 'q': several right numbers in one question",
        ),
    ],
)
def test_what_a_question_cannot_say_here_is_unsupported(body: str, kind: str, problem: str) -> None:
    problems = refused(_question(body, kind), "xml")
    assert problems[0] == problem


def test_a_multichoice_with_no_right_answer_is_an_error() -> None:
    body = '<single>false</single><answer fraction="0"><text>a</text></answer><answer fraction="-50"><text>b</text></answer>'
    with pytest.raises(ConversionError) as caught:
        read(_question(body), "xml", skip_unsupported=True)  # skipped: nothing is left
    assert caught.value.problems == (
        "line 1, question 'q': no right answer (none has a positive fraction)",
        "no question can be taken (1 skipped)",
    )


def true_false_quiz(question_text: str) -> bytes:
    """A Moodle XML quiz of one true/false question 'q' whose <questiontext> is given."""
    return (
        f'<quiz><question type="truefalse"><name><text>q</text></name>{question_text}'
        '<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>'
        "</question></quiz>"
    ).encode()


def test_a_picture_without_its_file_is_refused_by_name_or_skipped() -> None:
    text = '<questiontext format="html"><text><![CDATA[Which? <img src="@@PLUGINFILE@@/gone.png">]]></text></questiontext>'
    problems = refused(true_false_quiz(text), "xml")
    assert problems == (
        "line 1, question 'q': a picture without its file (gone.png: no <file> in the question text)",
    )


def test_an_embedded_file_that_is_not_an_image_is_refused_with_its_question() -> None:
    b64 = base64.b64encode(b"not a picture").decode()
    text = (
        '<questiontext format="html"><text><![CDATA[Which? <img src="@@PLUGINFILE@@/x.png">]]></text>'
        f'<file name="x.png" path="/" encoding="base64">{b64}</file></questiontext>'
    )
    problems = refused(true_false_quiz(text), "xml")
    assert problems[0].startswith("line 1, question 'q', field image: x.png: not a PNG")


# --- what a round trip writes ----------------------------------------------------------------------------


def test_a_two_language_typed_answer_is_one_answer_per_language() -> None:
    output = trip(load(EVERYTHING_BANK), "xml")[1]
    text = output.data.decode()
    assert '<answer fraction="100" format="moodle_auto_format" xml:lang="en">' in text
    assert "<text>C\\*</text>" in text  # a literal star, escaped as Moodle wants


def test_moodle_xml_in_another_default_language_reads_back_the_same() -> None:
    loaded = load(DRILL)
    back, _ = trip(loaded, "xml", language="yo")
    assert back.quiz == loaded.quiz


SPECIAL = st.sampled_from(
    ["<", ">", "&", "]]>", "`", "\\`", "<b>", "&amp;", "\n", "*", "\\", "é", "'", '"', "/", "//"]
)
TEXT = (
    st.lists(
        st.one_of(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), SPECIAL),
        min_size=1,
        max_size=30,
    )
    .map(lambda parts: "".join(parts))
    .map(lambda text: "\n".join(" ".join(line.split()) for line in text.split("\n")))
    .filter(lambda text: bool(text.strip()))
)


@given(question=TEXT, option=TEXT, answer=TEXT, title=TEXT)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_survives_moodle_xml(question: str, option: str, answer: str, title: str) -> None:
    assume("`" not in question + option)  # code marks have their own tests above
    assume(normalize(answer))
    assume("\n" not in title and "\n" not in answer)

    def english(text: str) -> LocalizedText:
        return LocalizedText({"en": text.strip()})

    quiz = Quiz(
        "prop",
        english(title),
        Level.MEDIUM,
        (
            Question("c", english(question), (english(option), english("other")), 0),
            Question("t", english(question), key=TypedAnswer((english(answer),))),
        ),
    )
    back, _ = trip(Loaded(quiz), "xml")
    assert back.quiz.title == quiz.title
    assert back.quiz.questions[0] == quiz.questions[0]
    assert back.quiz.questions[1] == quiz.questions[1]


def test_the_largest_document_parses_in_bounded_time() -> None:
    """512 KiB of Moodle XML (the limit), made of the questions of the drill bank."""
    output = trip(load(EVERYTHING_BANK), "xml")[1].data
    body = output[output.index(b'<question type="multichoice">') : output.rindex(b"</quiz>")]
    head = b'<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
    copies = (512 * 1024 - len(head) - 10) // len(body)
    data = head + body * copies + b"</quiz>\n"
    assert len(data) <= 512 * 1024
    started = time.perf_counter()
    loaded = read(data, "xml")  # the same ids again and again: made unique, with a warning
    assert time.perf_counter() - started < 10
    assert len(loaded.quiz) == 6 * copies
    assert loaded.warnings[0].startswith("two questions are named 'single-1'")


def test_more_text_than_a_bank_can_hold_is_refused_while_parsing() -> None:
    data = (
        b"<quiz><question><name><text>"
        + b"x" * (5 * 1024 * 1024)
        + b"</text></name></question></quiz>"
    )
    problems = refused(data, "xml")
    assert problems == ("refused: more than 4 MiB of text besides the embedded files",)


def test_a_multiple_question_explains_with_every_right_options_feedback() -> None:
    body = (
        "<single>false</single>"
        '<answer fraction="50"><text>Grant</text><feedback><text>Grant is.</text></feedback></answer>'
        '<answer fraction="50"><text>His wife</text><feedback><text>She is, beside him.</text></feedback></answer>'
        '<answer fraction="-100"><text>No one</text><feedback><text>Someone is.</text></feedback></answer>'
    )
    loaded = read(_question(body), "xml")
    (question,) = loaded.quiz.questions
    assert question.explanation == LocalizedText({"en": "Grant is.\nShe is, beside him."})
    # only the wrong answer's feedback is named as not kept
    assert loaded.warnings == (
        "feedback on wrong answers is not kept (a question has one explanation) (line 1, question 'q')",
    )
