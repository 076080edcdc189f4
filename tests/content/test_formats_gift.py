"""GIFT (issue 15): every construct of Moodle's format on a file written from its
description, what we cannot represent skipped when asked (refused with its place:
test_formats_refusals.py), the
writer for every type read back equal on what GIFT carries, and properties: any text gives a
quiz or ConversionError, and any text survives GIFT's escaping."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from content.answers import normalize
from content.export import bank_data
from content.formats.convert import Loaded
from content.model import Level, LocalizedText, Question, Quiz, TypedAnswer
from tests.support.formats import EVERYTHING_BANK, HERE, SEED, load, projected, read, refused, trip


def constructs() -> dict[str, dict[str, object]]:
    loaded = read((HERE / "constructs.gift").read_bytes(), "gift", "constructs.gift")
    return {q["id"]: q for q in bank_data(loaded.quiz)["questions"]}


def test_the_category_names_the_quiz_and_the_file_its_id() -> None:
    loaded = read((HERE / "constructs.gift").read_bytes(), "gift", "constructs.gift")
    assert loaded.quiz.id == "constructs"
    assert loaded.quiz.title == LocalizedText({"en": "Pipeline basics"})
    assert len(loaded.quiz) == 16


def test_names_become_ids_and_unnamed_questions_are_numbered() -> None:
    ids = list(constructs())
    assert ids[0] == "q1-bubble"  # "Q1 Bubble" slugified
    assert ids[1] == "multi"  # already an id: kept as written
    assert ids[-1] == "q16"


def test_one_right_answer_feedback_and_general_feedback() -> None:
    q = constructs()["q1-bubble"]
    assert q["text"] == {"en": 'What is a "bubble" in pipeline parallelism?'}
    assert q["options"] == [
        {"en": "Idle time while stages wait"},
        {"en": "A memory leak"},
        {"en": "A copy of the optimizer state"},
    ]
    assert q["answer"] == 0
    assert q["explanation"] == {"en": "The bubble is idle time at the start and end of a batch."}


def test_positive_weights_make_a_multiple_question() -> None:
    q = constructs()["multi"]
    assert q["type"] == "multiple"
    assert q["answer"] == [0, 1]


def test_true_false_in_every_spelling_with_feedback() -> None:
    questions = constructs()
    assert [questions[f"tf-{n}"]["answer"] for n in (1, 2, 3, 4)] == [True, False, False, True]
    assert all(questions[f"tf-{n}"]["type"] == "true_false" for n in (1, 2, 3, 4))
    # {FALSE#wrong#right}: the right answer's feedback is the explanation
    assert questions["tf-2"]["explanation"] == {"en": "Right, both are the same."}
    assert questions["tf-4"]["explanation"] == {
        "en": "They send activations forward and gradients back."
    }


def test_numbers_with_a_tolerance_a_range_and_feedback() -> None:
    questions = constructs()
    assert (questions["num-tol"]["answer"], questions["num-tol"]["tolerance"]) == (14, 0.5)
    assert (questions["num-range"]["answer"], questions["num-range"]["tolerance"]) == (4, 1)
    assert questions["num-plain"]["answer"] == 4
    assert "tolerance" not in questions["num-plain"]
    assert questions["num-plain"]["explanation"] == {"en": "Four stages."}


def test_short_answers_are_typed() -> None:
    q = constructs()["typed"]
    assert q["type"] == "typed"
    assert q["answer"] == [{"en": "bubble"}, {"en": "pipeline bubble"}, {"en": "the bubble"}]


def test_a_missing_word_leaves_a_blank() -> None:
    q = constructs()["missing"]
    assert q["text"] == {"en": "Tensor parallelism splits _____ inside a layer."}
    assert q["answer"] == 0


def test_escapes_and_new_lines() -> None:
    q = constructs()["escapes"]
    assert q["text"] == {"en": "Which is right: 2 = 1 \\+ 1, a ~ b, #1, {x} or a\\b?\nPick one."}
    assert q["options"] == [{"en": "2 = 1 + 1"}, {"en": "a ~ b"}, {"en": "#1 and {x}"}]


def test_format_markers_html_plain_and_markdown() -> None:
    questions = constructs()
    assert questions["html"]["text"] == {"en": "Which tag makes bold text?\nSecond line here."}
    assert questions["html"]["options"] == [{"en": "`b`"}, {"en": "`i`"}]  # <code> is code
    assert questions["plain"]["text"] == {"en": "Is \\`x\\` code here?"}  # shown as written
    assert questions["markdown"]["text"] == {"en": "What does `print(1 + 1)` print?"}


def test_a_question_over_several_lines_keeps_its_line_break() -> None:
    q = constructs()["q16"]
    assert q["text"] == {
        "en": "Which collective sums a tensor across GPUs\nand leaves the result on every one?"
    }


def test_feedback_that_cannot_be_kept_is_named() -> None:
    loaded = read((HERE / "constructs.gift").read_bytes(), "gift", "constructs.gift")
    assert any(
        "feedback on wrong answers is not kept" in w and "line 7 ::Q1 Bubble::" in w
        for w in loaded.warnings
    )


def test_skipping_converts_the_rest_and_lists_what_it_skipped() -> None:
    loaded = read((HERE / "unsupported.gift").read_bytes(), "gift", skip_unsupported=True)
    assert [q.id for q in loaded.quiz.questions] == ["good"]
    assert len(loaded.skipped) == 4
    assert loaded.skipped[0].startswith("line 4 ::match::")


def test_a_wildcard_short_answer_cannot_be_represented() -> None:
    problems = refused(b"::q:: Name it. {=pipe*}", "gift")
    assert problems[0] == "line 1 ::q::: a short answer with a wildcard: 'pipe*'"
    loaded = read(b"::q:: Name it. {=C\\*}", "gift")  # an escaped star is a star
    assert loaded.quiz.questions[0].key == TypedAnswer((LocalizedText({"en": "C*"}),))


def test_lowercase_true_is_a_short_answer_as_in_moodle_and_says_so() -> None:
    loaded = read(b"::q:: Is it? {true}", "gift")
    assert loaded.quiz.questions[0].key == TypedAnswer((LocalizedText({"en": "true"}),))
    assert any("read as a short answer, as Moodle does" in w for w in loaded.warnings)


def test_text_that_is_not_utf8_is_refused_at_its_line() -> None:
    problems = refused(b"::a:: Is it? {T}\n\n::b:: Caf\xe9? {T}", "gift")
    assert problems == ("line 3: not UTF-8 text (save the file as UTF-8)",)


def test_a_byte_order_mark_and_windows_line_ends_are_taken() -> None:
    loaded = read(b"\xef\xbb\xbf::a:: Is it? {T}\r\n\r\n::b:: Or?\r\n{F}\r\n", "gift")
    assert [q.id for q in loaded.quiz.questions] == ["a", "b"]


# --- writing --------------------------------------------------------------------------------


def test_written_gift_reads_back_equal_on_what_gift_carries(sample_bank: Loaded) -> None:
    loaded = sample_bank
    back, output = trip(loaded, "gift", quiz_id=loaded.quiz.id)
    expected = projected(
        loaded.quiz, "en", images=False, units=False, strict=False, bank_fields=False,
        guides=False,
    )  # fmt: skip
    assert back.quiz == expected
    warnings = " | ".join(output.warnings)
    assert "GIFT has no quiz id" in warnings
    if loaded.quiz.level.value != "medium":
        assert f"the level ({loaded.quiz.level.value})" in warnings


def test_the_warnings_name_what_gift_cannot_hold() -> None:
    _, output = trip(load(EVERYTHING_BANK), "gift", quiz_id="everything")
    assert output.warnings[1:] == (
        "GIFT holds one language: only the en texts were written (left out: yo; choose another with --language)",
        "GIFT cannot hold the description, the level (hard), the guide, shuffle_options: false, 3 images, 1 unit, 1 strict_diacritics, 2 question guides: left out",
    )


def test_gift_in_another_language_falls_back_field_by_field() -> None:
    loaded = load(SEED)
    back, _ = trip(loaded, "gift", quiz_id=loaded.quiz.id, language="yo")
    written = projected(loaded.quiz, "yo", images=False, bank_fields=False, guides=False)
    # read back, the texts are in the language asked for
    assert back.quiz.questions[0].text == written.questions[0].text
    assert back.quiz.questions[-1].text.translations["yo"] == loaded.quiz.questions[-1].text.get(
        "yo", "yo"
    )


SPECIAL = st.sampled_from([*list("~=#{}:\\%[]`*"), "\\n", "[html]", "->", "####", "//", "::"])
TEXT = (
    st.lists(
        st.one_of(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), SPECIAL),
        min_size=1,
        max_size=30,
    )
    .map(lambda parts: " ".join("".join(parts).split()))
    .filter(lambda text: bool(text.strip()))
)


@given(question=TEXT, option=TEXT, answer=TEXT)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_survives_gift_escaping(question: str, option: str, answer: str) -> None:
    """Texts with every character GIFT gives a meaning to read back as written."""
    assume("\\`" not in question + option)  # `\`` is our escape of a backtick, not two characters
    assume(normalize(answer) and "->" not in answer)  # the validator's rule; GIFT's matching
    english = lambda text: LocalizedText({"en": text})  # noqa: E731
    quiz = Quiz(
        "prop",
        english("Prop"),
        Level.MEDIUM,
        (
            Question("c", english(question), (english(option), english("other")), 0),
            Question("t", english(question), key=TypedAnswer((english(answer),))),
        ),
    )
    back, _ = trip(Loaded(quiz), "gift", quiz_id="prop")
    assert back.quiz.questions[0].text == english(question.strip())
    assert back.quiz.questions[0].options[0] == english(option.strip())
    assert back.quiz.questions[1].key == TypedAnswer((english(answer.strip()),))


def test_numbers_are_exact() -> None:
    loaded = read(b"::q:: Tiny? {#0.1:0.05}", "gift")
    key = loaded.quiz.questions[0].key
    assert (key.value, key.tolerance) == (Decimal("0.1"), Decimal("0.05"))  # type: ignore[union-attr]


def test_an_accepted_answer_with_an_arrow_is_left_out_with_a_warning() -> None:
    english = lambda text: LocalizedText({"en": text})  # noqa: E731
    quiz = Quiz(
        "arrows",
        english("Arrows"),
        Level.MEDIUM,
        (
            Question(
                "a", english("Which way?"), key=TypedAnswer((english("->"), english("right")))
            ),
            Question("b", english("Only arrows?"), key=TypedAnswer((english("a->b"),))),
        ),
    )
    back, output = trip(Loaded(quiz), "gift", quiz_id="arrows")
    assert [q.id for q in back.quiz.questions] == ["a"]
    assert back.quiz.questions[0].key == TypedAnswer((english("right"),))
    assert output.warnings[-3:] == (
        "left out a: the accepted answer '->' (GIFT reads -> as matching)",
        "left out b: the accepted answer 'a->b' (GIFT reads -> as matching)",
        "left out b: the whole question (no answer GIFT can hold)",
    )


def test_a_multiple_question_explains_with_every_right_options_feedback_once() -> None:
    gift = (
        b"::m:: Who is buried in Grant's tomb? {"
        b" ~%50%Grant#Grant is. ~%50%Grant's wife#She is, beside him."
        b" ~%-100%No one#Someone is. ~%50%x#Grant is.}"
    )
    (question,) = read(gift, "gift").quiz.questions
    assert question.explanation == LocalizedText({"en": "Grant is.\nShe is, beside him."})
