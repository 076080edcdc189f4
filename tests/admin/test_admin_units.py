"""Unit tests of the admin feature's pure parts: callback kinds, draft steps, rendering."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.admin import render as admin_render
from bot.admin.drafting import (
    Draft,
    parse_accepted,
    parse_answer,
    parse_answers,
    parse_number,
    parse_options,
    parse_tolerance,
    parse_translation,
    parse_true_false,
)
from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import MAX_MESSAGE_LENGTH, Rendered, Reply
from bot.group import render as render_group
from bot.sandbox.html_check import telegram_length, visible_text
from content.editing import add_question
from content.model import LocalizedText, Question, QuestionType, TypedAnswer
from content.schema import MAX_EXPLANATION_LENGTH, MAX_OPTION_LENGTH, MAX_QUESTION_LENGTH
from storage.content_store import QuestionStat, QuizTotals, RetiredQuestion, WrongReply
from storage.group_store import Tally
from tests.support.quizzes import NASTY, make_question, make_quiz, nasty_quiz, worst_case_quiz

EN = Locale("en", "en")


def visible(rendered: Rendered | str) -> str:
    text = rendered.text if isinstance(rendered, Rendered) else rendered
    shown = visible_text(text, "HTML")
    assert telegram_length(shown) <= MAX_MESSAGE_LENGTH
    return shown


@pytest.mark.parametrize(
    "callback",
    [
        callbacks.PostAnswer(10**18 - 1, 9),
        callbacks.ConfirmDraft(10**12),
        callbacks.CancelDraft(0),
    ],
)
def test_admin_callbacks_round_trip_within_64_bytes(callback: callbacks.Tap) -> None:
    data = callback.encode()
    assert data.startswith("1:ad") and len(data.encode()) <= callbacks.MAX_BYTES
    assert callbacks.decode(data) == callback


@pytest.mark.parametrize("data", ["1:adp:1", "1:adp:01:0", "1:adc:x", "1:adz:1", "1:adp:1:-1"])
def test_forged_admin_callbacks_decode_to_nothing(data: str) -> None:
    assert callbacks.decode(data) is None


def test_draft_steps_refuse_what_a_bank_refuses() -> None:
    assert parse_options("a\n\n b \n") == ["a", "b"]
    assert parse_options("only one") == Reply("draft_options_count", {"n": 1})
    assert isinstance(parse_options("a\n" + "x" * 181), Reply)
    assert parse_answer("b", 3) == 1
    assert parse_answer("3", 3) == 2
    assert parse_answer("D", 3) == Reply("draft_bad_answer", {"last": "C"})
    for foreign in ("\u00b2", "\u0662", "\uff12", "\U0001d7d0"):  # ², ٢, ２, 𝟐: not 0-9
        assert parse_answer(foreign, 3) == Reply("draft_bad_answer", {"last": "C"})
    draft = Draft("q", 1, "Q?", ["a", "b"], 0, "Why")
    assert parse_translation("yo\nQ yo\na yo\nb yo", draft) == ("yo", ["Q yo", "a yo", "b yo"])
    assert parse_translation("yo\nQ\na\nb\nW", draft) == ("yo", ["Q", "a", "b", "W"])
    assert isinstance(parse_translation("yo\nQ\na", draft), Reply)
    assert isinstance(parse_translation("Yoruba!\nQ\na\nb", draft), Reply)
    refused = parse_translation("\u202e<" * 3000 + "\nQ\na\nb", draft)
    assert isinstance(refused, Reply) and len(refused.values["code"]) < 200
    draft.language, draft.translated = "yo", ["Q yo", "a yo", "b yo"]
    data = draft.question_data("en")
    assert data["text"] == {"en": "Q?", "yo": "Q yo"}
    assert data["options"][1] == {"en": "b", "yo": "b yo"}
    assert data["explanation"] == {"en": "Why"}


def test_worst_case_preview_with_translation_fits_in_messages() -> None:
    quiz, worst = worst_case_quiz("𝕎")

    def both(value: LocalizedText, length: int) -> LocalizedText:
        return LocalizedText({"en": value.get("en", "en"), "yo": "𝕐" * length})

    assert worst.explanation is not None
    question = dataclasses.replace(
        worst,
        text=both(worst.text, MAX_QUESTION_LENGTH),
        options=tuple(both(option, MAX_OPTION_LENGTH) for option in worst.options),
        explanation=both(worst.explanation, MAX_EXPLANATION_LENGTH),
    )
    messages = admin_render.draft_preview(quiz, question, 7, "yo", EN)
    assert len(messages) == 2
    for message in messages:
        visible(message)
    assert messages[-1].markup is not None and messages[0].markup is None


def test_posted_question_and_reveal_escape_content_and_fit() -> None:
    quiz = nasty_quiz()
    question = quiz.questions[0]
    posted = render_group.post_message(quiz, question, 5, 3, EN)
    shown = visible(posted)
    assert NASTY in shown and "Answers so far: 3" in shown
    assert [b.callback_data for row in posted.markup.inline_keyboard for b in row] == [  # type: ignore[union-attr]
        "1:adp:5:0",
        "1:adp:5:1",
    ]
    revealed = visible(render_group.post_reveal(quiz, question, Tally(3, 1), {1: 2, 0: 1}, EN))
    assert "3 answered, 1 right" in revealed and "✅ B." in revealed
    worst, big = worst_case_quiz()
    visible(render_group.post_message(worst, big, 10**17, 10**6, EN))
    visible(render_group.post_reveal(worst, big, Tally(10**6, 0), {0: 10**6}, EN))


def test_stats_rank_hardest_first_and_mark_retired() -> None:
    quiz = make_quiz([make_question(f"q{k}", f"Question {k}", ["a", "b"]) for k in (1, 2, 3)])
    stats = [
        QuestionStat("arith", "q1", 4, 4),
        QuestionStat("arith", "q2", 4, 1),
        QuestionStat("arith", "q3", 2, 1),
        QuestionStat("arith", "gone", 5, 0),
    ]
    retired = [RetiredQuestion("arith", "gone", f"Old {NASTY}", 0.0)]
    totals = {"arith": QuizTotals("arith", 3, 15, 6)}
    (text,) = admin_render.stats_messages([quiz], 3, totals, stats, retired, EN)
    shown = visible(text)
    lines = shown.splitlines()
    hardest = lines[lines.index("Hardest:") + 1 :]
    assert hardest[0].startswith("• gone 0% right of 5: [retired] Old")
    assert hardest[1].startswith("• q2 25% right of 4")
    assert hardest[2].startswith("• q3 50% right of 2")
    assert "Retired: gone" in shown
    assert "3 learners, 15 answers, 40% right" in shown


def test_stats_of_many_typed_questions_list_ten_fit_messages_and_escape_replies() -> None:
    questions = [
        Question(
            f"t{k}",
            LocalizedText({"en": f"Typed question {k} " + "long " * 40}),
            key=TypedAnswer((LocalizedText({"en": "right"}),)),
        )
        for k in range(30)
    ]
    quiz = dataclasses.replace(make_quiz(questions[:1]), questions=tuple(questions))
    stats = [QuestionStat(quiz.id, q.id, 50, 1) for q in questions]
    wrong = [
        WrongReply(quiz.id, q.id, f"<b>{NASTY}</b> {n} " + "x" * 300, 10 + k + n)
        for k, q in enumerate(questions)
        for n in range(5)
    ]
    totals = {quiz.id: QuizTotals(quiz.id, 3, 1500, 30)}
    messages = admin_render.stats_messages([quiz], 3, totals, stats, [], EN, wrong, [])
    shown = "\n".join(visible(text) for text in messages)  # each within 4,096
    listed = [line for line in shown.splitlines() if line.startswith("• t") and "×" in line]
    assert [line.split()[1] for line in listed] == [f"t{k}" for k in range(29, 19, -1)]
    assert all(line.count("×") == 3 for line in listed)  # the top 3 replies of each
    assert "… and 20 more" in shown and "<b>" in shown  # shown as written, not as HTML


@given(st.text(max_size=40), st.integers(1, 10))
def test_draft_answer_parsers_never_raise_and_give_what_a_bank_takes(
    text: str, options: int
) -> None:
    picked = parse_answers(text, options)
    if not isinstance(picked, Reply):
        assert picked and picked == sorted(set(picked)) and 0 <= picked[0] <= picked[-1] < options
    assert isinstance(parse_true_false(text), bool | Reply)
    number = parse_number(text)
    assert isinstance(number, Decimal | Reply)
    tolerance = parse_tolerance(text)
    assert isinstance(tolerance, Reply) or tolerance >= 0
    accepted = parse_accepted(text)
    assert isinstance(accepted, Reply) or (accepted and all(a.strip() == a for a in accepted))


def test_draft_parsers_read_what_admins_write() -> None:
    assert parse_answers("a, C", 3) == [0, 2] and parse_answers("3 1 1", 3) == [0, 2]
    assert parse_answers("", 3) == Reply("draft_bad_answers", {"last": "C"})
    assert parse_true_false("True") is True and parse_true_false("irọ́") is False
    assert parse_number("14,5") == Decimal("14.5") and parse_number("1.4e1") == Decimal("14")
    assert parse_number("1,000") == Reply("draft_digit_grouping", {"number": "1000"})
    assert parse_tolerance("-0.5") == Reply("draft_bad_tolerance")
    refused = parse_accepted("bubble\n...")
    assert isinstance(refused, Reply) and refused.key == "draft_accepted_punctuation"


@pytest.mark.parametrize(
    ("kind", "answer", "extra"),
    [
        (QuestionType.MULTIPLE, [0, 1], {}),
        (QuestionType.TRUE_FALSE, True, {}),
        (QuestionType.NUMERIC, Decimal("2.5"), {"tolerance": Decimal("0.1"), "unit": "GB"}),
        (QuestionType.TYPED, ["bubble", "idle time"], {}),
    ],
)
def test_a_draft_of_each_type_validates_as_a_bank_question(
    kind: QuestionType, answer: object, extra: dict[str, object]
) -> None:
    quiz = make_quiz([make_question("q1", "One?", ["a", "b"])])
    options = ["a", "b"] if kind is QuestionType.MULTIPLE else []
    draft = Draft("q", 1, "New?", options, answer, "Why", kind=kind, **extra)  # type: ignore[arg-type]
    result = add_question(quiz, draft.question_data("en"), set(), "en")
    assert result.quiz is not None, result.errors
    assert result.quiz.questions[-1].type is kind


@given(
    st.lists(st.text(min_size=1, max_size=1200), max_size=60),
    st.lists(st.text(min_size=1, max_size=1200), max_size=30),
    st.text(min_size=1, max_size=255),
)
@settings(max_examples=50, deadline=None)
def test_conversion_notes_fit_messages_and_a_long_list_comes_whole_in_a_file(
    skipped: list[str], warnings: list[str], file_name: str
) -> None:
    notes = admin_render.conversion_notes(file_name, skipped, warnings, Locale("en", "en"))
    for text in notes.messages:
        visible(text)  # fits, and is HTML Telegram parses
    if len(skipped) > admin_render.MAX_NOTES_SHOWN or len(warnings) > admin_render.MAX_NOTES_SHOWN:
        assert notes.full_list is not None and notes.file_name.endswith(".skipped.txt")
        for line in (*skipped, *warnings):
            assert line in notes.full_list
    else:
        assert notes.full_list is None


def test_the_good_questions_offer_is_one_button_within_telegrams_limits() -> None:
    offer = admin_render.good_questions_offer("<b>week 3</b>.gift" * 20, 500, Locale("yo", "en"))
    assert "<b>week 3</b>.gift" in visible(offer)  # shown as written, not as markup
    assert offer.markup is not None
    (row,) = offer.markup.inline_keyboard
    (button,) = row
    assert button.callback_data == callbacks.ImportGood().encode()
    assert "500" in button.text
