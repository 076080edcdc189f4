"""How right an answer is (content/grading.py), for every type, with and without Moodle's
weights: the examples of Moodle's own documentation, and properties of the rules."""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content import grading, model
from content.answers import DigitGrouping, NotANumber
from content.grading import (
    Choice,
    EmptyReply,
    Grade,
    Mark,
    NumberReply,
    Selection,
    TextReply,
    grade,
    read_reply,
)
from content.model import LocalizedText, Question

GB = LocalizedText({"en": "GB"})


def question(key: model.AnswerKey, options: int = 0) -> Question:
    texts = tuple(LocalizedText({"en": f"option {i}"}) for i in range(options))
    return Question("q", LocalizedText({"en": "Which?"}), texts, key=key)


def percents(*weights: float) -> tuple[Decimal, ...]:
    return tuple(Decimal(str(weight)) for weight in weights)


def picked(q: Question, *options: int) -> Fraction:
    return grade(q, Selection(frozenset(options))).credit


def replied(q: Question, text: str) -> Grade | grading.Unreadable:
    reading = read_reply(q, text)
    return grade(q, reading) if isinstance(reading, NumberReply | TextReply) else reading


# --- Moodle's weights ----------------------------------------------------------------------

# Moodle's GIFT documentation: "What two people are entombed in Grant's tomb?"
GRANT = question(
    model.MultipleAnswer(frozenset({0, 1}), percents(50, 50, -100, -100)), options=4
)  # Grant, Grant's wife, No one, Grant's father
GRANT_NO_PENALTY = question(
    model.MultipleAnswer(frozenset({0, 1}), percents(50, 50, 0, 0)), options=4
)


def test_moodles_grants_tomb_sums_the_chosen_weights_and_clamps() -> None:
    assert picked(GRANT, 0, 1) == 1
    assert picked(GRANT, 0, 1, 2, 3) == 0  # 50 + 50 - 100 - 100, clamped to 0
    assert picked(GRANT, 0) == Fraction(1, 2)
    assert picked(GRANT, 0, 2) == 0  # 50 - 100: never below 0 for a multiple question
    assert picked(GRANT, 0, 1, 2) == 0


def test_without_negative_weights_ticking_everything_is_fully_right_as_in_moodle() -> None:
    assert picked(GRANT_NO_PENALTY, 0, 1, 2, 3) == 1
    assert picked(GRANT_NO_PENALTY, 1, 3) == Fraction(1, 2)


def test_the_same_question_without_weights_keeps_todays_rule() -> None:
    plain = question(model.MultipleAnswer(frozenset({0, 1})), options=4)
    assert picked(plain, 0, 1, 2, 3) == 0  # (2 right - 2 wrong) / 2
    assert picked(plain, 0, 1, 2) == Fraction(1, 2)
    assert not grade(plain, Selection(frozenset({0}))).weighted


def test_a_weighted_single_scores_the_chosen_options_weight_negative_allowed() -> None:
    single = question(model.SingleAnswer(0, percents(100, 50, 0, -100)), options=4)
    assert [grade(single, Choice(i)).credit for i in range(4)] == [1, Fraction(1, 2), 0, -1]
    half = grade(single, Choice(1))
    assert half.partly_right and not half.fully_right and half.weighted
    assert half.marks == (Mark.MISSED, Mark.PARTIAL, Mark.NONE, Mark.NONE)
    assert grade(single, Choice(3)).marks == (Mark.MISSED, Mark.NONE, Mark.NONE, Mark.WRONG)


def test_moodles_thirds_are_exact_thirds() -> None:
    third = question(
        model.MultipleAnswer(frozenset({0, 1, 2}), percents(33.33333, 33.33333, 33.33333, -100)),
        options=4,
    )
    assert picked(third, 0, 1, 2) == 1
    assert picked(third, 0) == Fraction(1, 3)
    assert grading.share(Decimal("83.33333")) == Fraction(5, 6)
    assert grading.share(Decimal("14.28571")) == Fraction(1, 7)
    assert grading.share(Decimal("12.345")) == Fraction(12345, 100_000)


def test_marks_of_a_weighted_multiple_question() -> None:
    marks = grade(GRANT, Selection(frozenset({0, 2}))).marks
    assert marks == (Mark.RIGHT, Mark.MISSED, Mark.WRONG, Mark.NONE)


weights = st.lists(st.integers(-100, 100), min_size=2, max_size=10)


@given(weights, st.data())
def test_a_weighted_multiple_question_is_its_chosen_weights_clamped(
    given_weights: list[int], data: st.DataObject
) -> None:
    count = len(given_weights)
    positive = frozenset(i for i, w in enumerate(given_weights) if w > 0) or frozenset({0})
    q = question(model.MultipleAnswer(positive, percents(*given_weights)), options=count)
    chosen = data.draw(st.sets(st.integers(0, count - 1)))
    credit = picked(q, *chosen)
    assert credit == min(1, max(0, Fraction(sum(given_weights[i] for i in chosen), 100)))
    extra = data.draw(st.integers(0, count - 1))
    more = picked(q, *chosen, extra)
    assert more >= credit if given_weights[extra] >= 0 else more <= credit


# --- the plain rules -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chosen", "credit"),
    [
        ({0, 2}, Fraction(1)),
        ({0}, Fraction(1, 2)),
        ({0, 1, 2}, Fraction(1, 2)),
        ({0, 1}, Fraction(0)),
        ({1}, Fraction(0)),  # never below zero
        ({1, 3}, Fraction(0)),
        (set(), Fraction(0)),
    ],
)
def test_multiple_without_weights(chosen: set[int], credit: Fraction) -> None:
    q = question(model.MultipleAnswer(frozenset({0, 2})), options=4)
    graded = grade(q, Selection(frozenset(chosen)))
    assert graded.credit == credit
    assert graded.fully_right is (chosen == {0, 2})


def test_marks_for_the_reveal() -> None:
    q = question(model.MultipleAnswer(frozenset({0, 2})), options=4)
    marks = grade(q, Selection(frozenset({0, 1}))).marks
    assert marks == (Mark.RIGHT, Mark.WRONG, Mark.MISSED, Mark.NONE)


option_sets = st.sets(st.integers(0, 9), max_size=10)


@given(option_sets, option_sets.filter(bool))
def test_unweighted_credit_is_0_to_1_and_1_only_when_exactly_right(
    chosen: set[int], right: set[int]
) -> None:
    q = question(model.MultipleAnswer(frozenset(right)), options=10)
    credit = picked(q, *chosen)
    assert 0 <= credit <= 1
    assert (credit == 1) is (chosen == right)


@given(option_sets, option_sets.filter(bool), st.integers(0, 9))
def test_a_right_pick_never_lowers_the_credit_and_a_wrong_one_never_raises_it(
    chosen: set[int], right: set[int], option: int
) -> None:
    q = question(model.MultipleAnswer(frozenset(right)), options=10)
    before, after = picked(q, *chosen), picked(q, *chosen, option)
    assert after >= before if option in right else after <= before


def test_single_and_true_false() -> None:
    single = question(model.SingleAnswer(2), options=3)
    assert grade(single, Choice(2)).fully_right
    assert grade(single, Choice(1)).credit == 0
    assert grade(single, Choice(1)).marks == (Mark.NONE, Mark.WRONG, Mark.MISSED)
    false = question(model.TrueFalseAnswer(False))
    assert grade(false, Choice(1)).fully_right  # False is choice 1
    assert grade(false, Choice(0)).credit == 0


def test_a_response_of_another_kind_is_refused() -> None:
    with pytest.raises(TypeError):
        grade(question(model.SingleAnswer(0), options=2), Selection(frozenset({0})))


# --- numbers -------------------------------------------------------------------------------


def test_tolerance_is_absolute_and_exact() -> None:
    q = question(model.NumericAnswer(Decimal("1.1"), Decimal("0.1")))
    # in binary floating point |1.0 - 1.1| > 0.1: exact decimals take both ends
    assert replied(q, "1.0") == Grade(NumberReply("1.0", Decimal("1.0")), Fraction(1))
    assert isinstance(graded := replied(q, "1,2"), Grade) and graded.fully_right
    assert isinstance(graded := replied(q, "1.2001"), Grade) and graded.credit == 0
    assert isinstance(graded := replied(q, "0.99"), Grade) and graded.credit == 0


def test_without_tolerance_only_the_number_itself() -> None:
    q = question(model.NumericAnswer(Decimal(14), unit=GB))
    assert isinstance(graded := replied(q, "14.000 GB"), Grade) and graded.fully_right
    assert isinstance(graded := replied(q, "14.01"), Grade) and graded.credit == 0
    assert replied(q, "1,400") == DigitGrouping("1400", "1.400")
    assert replied(q, "fourteen") == NotANumber()


INCORRECT = LocalizedText({"en": "5 is the number of fingers"})
CLOSE = LocalizedText({"en": "Close"})
# GIFT: {#=%100%9:0#Correct =%0%5:0#5 is the number of fingers =%50%9:2#Close}
NINE = question(
    model.NumericAnswer(
        Decimal(9),
        others=(
            model.OtherNumber(Decimal(5), feedback=INCORRECT),
            model.OtherNumber(Decimal(9), Decimal(2), Decimal(50), CLOSE),
        ),
    )
)


def test_a_number_worth_0_percent_gives_its_feedback() -> None:
    five = replied(NINE, "5")
    assert isinstance(five, Grade) and five.credit == 0 and five.feedback == INCORRECT


def test_a_partly_right_number_scores_its_weight_and_the_first_match_counts() -> None:
    assert isinstance(nine := replied(NINE, "9"), Grade) and nine.fully_right
    assert nine.feedback is None
    eight = replied(NINE, "8")
    assert isinstance(eight, Grade) and eight.credit == Fraction(1, 2) and eight.feedback == CLOSE
    assert isinstance(far := replied(NINE, "20"), Grade) and far.credit == 0
    assert far.feedback is None
    first = question(
        model.NumericAnswer(
            Decimal(9),
            others=(
                model.OtherNumber(Decimal(8), Decimal(1), Decimal(50), CLOSE),
                model.OtherNumber(Decimal(8), feedback=INCORRECT),
            ),
        )
    )
    assert isinstance(graded := replied(first, "8"), Grade) and graded.feedback == CLOSE


# --- typed text ----------------------------------------------------------------------------


def test_yoruba_tone_marks_and_underdots_count_only_when_strict() -> None:
    # ọkọ (husband, or vehicle) and oko (farm) are different words
    loose = question(model.TypedAnswer((LocalizedText({"yo": "ọkọ"}),)))
    strict = question(model.TypedAnswer((LocalizedText({"yo": "ọkọ"}),), strict_diacritics=True))

    def right(q: Question, text: str) -> bool:
        graded = replied(q, text)
        return isinstance(graded, Grade) and graded.fully_right

    assert right(loose, "oko") and right(loose, "Ọkọ!")
    assert not right(strict, "oko") and right(strict, "Ọkọ!")
    decomposed = unicodedata.normalize("NFD", "ọkọ")  # the same letters, typed otherwise
    assert decomposed != "ọkọ" and right(strict, decomposed)
    assert not right(strict, "ọ̀kọ̀")  # other tones: another word
    assert right(loose, "ọ̀kọ̀")


def test_any_accepted_answer_in_any_language_matches() -> None:
    q = question(
        model.TypedAnswer(
            (LocalizedText({"en": "bubble"}), LocalizedText({"en": "the bubble", "yo": "àlàfo"}))
        )
    )
    for reply in ["Bubble", "THE BUBBLE.", "alafo", "àlàfo"]:
        assert isinstance(graded := replied(q, reply), Grade) and graded.fully_right, reply
    for reply in ["bubbles", "the"]:
        assert isinstance(graded := replied(q, reply), Grade) and graded.credit == 0, reply
    assert replied(q, "...") == EmptyReply() and replied(q, "") == EmptyReply()


# --- one typed form, stored and read back --------------------------------------------------


@given(st.sets(st.integers(0, 9)))
def test_a_selection_reads_back_from_its_stored_column(options: set[int]) -> None:
    q = question(model.MultipleAnswer(frozenset({0})), options=10)
    selection = Selection(frozenset(options))
    assert grading.stored_response(q, grading.chosen_column(selection)) == selection


def test_a_choice_and_a_reply_read_back_from_their_stored_columns() -> None:
    single = question(model.SingleAnswer(1), options=3)
    assert grading.stored_response(single, grading.chosen_column(Choice(2))) == Choice(2)
    number = question(model.NumericAnswer(Decimal(14), unit=GB))
    reply = NumberReply("14 GB", Decimal(14))
    assert grading.chosen_column(reply) == grading.NO_CHOICE
    assert grading.stored_response(number, grading.NO_CHOICE, "14 GB") == reply
    typed = question(model.TypedAnswer((LocalizedText({"en": "bubble"}),)))
    assert grading.stored_response(typed, -1, "Bubble") == TextReply("Bubble")


# --- an exam's penalty ---------------------------------------------------------------------


def test_an_exam_penalty_takes_marks_for_a_wrong_answer_only_without_weights() -> None:
    penalty = Fraction(1, 4)
    single = question(model.SingleAnswer(0), options=3)
    assert grading.with_penalty(grade(single, Choice(1)), penalty) == Fraction(-1, 4)
    assert grading.with_penalty(grade(single, Choice(0)), penalty) == 1
    weighted = question(model.SingleAnswer(0, percents(100, 0, -50)), options=3)
    assert grading.with_penalty(grade(weighted, Choice(1)), penalty) == 0
    assert grading.with_penalty(grade(weighted, Choice(2)), penalty) == Fraction(-1, 2)
    plain = question(model.MultipleAnswer(frozenset({0, 2})), options=4)
    assert grading.with_penalty(grade(plain, Selection(frozenset({0}))), penalty) == Fraction(1, 2)
