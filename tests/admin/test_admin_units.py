"""Unit tests of the admin feature's pure parts: callback kinds, draft steps, rendering."""

from __future__ import annotations

import dataclasses

import pytest

from bot.admin import render as admin_render
from bot.admin.flow import Draft, parse_answer, parse_options, parse_translation
from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import MAX_MESSAGE_LENGTH, Rendered, Reply
from bot.group import render as render_group
from bot.sandbox.html_check import telegram_length, visible_text
from content.model import LocalizedText
from content.schema import MAX_EXPLANATION_LENGTH, MAX_OPTION_LENGTH, MAX_QUESTION_LENGTH
from storage.content_store import QuestionStat, QuizTotals, RetiredQuestion
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
