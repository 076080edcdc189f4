"""An exam's messages, drawn purely: whatever the validator accepts fits Telegram (the longest
question on a panel, its review page with a section's longest title, a result with fifty
sections), the panel never says right or wrong, and every button's data fits 64 bytes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import MAX_MESSAGE_LENGTH
from bot.learner import exam_render
from bot.learner.exam_render import Shown, clock_text, percent_text, points_text
from bot.sandbox.html_check import telegram_length
from content import schema
from content.exams import MarkedItem, Paper, PaperPart, mark_paper
from content.grading import Choice, TextReply, grade
from content.model import LocalizedText
from tests.support.quizzes import LOCALES, buttons, visible, worst_case_quiz

LONG_TITLE = LocalizedText({"en": "s" * schema.MAX_TITLE_LENGTH})


def paper(items: tuple[str, ...], sections: int = 1) -> Paper:
    parts = tuple(PaperPart(LONG_TITLE, items) for _ in range(sections))
    return Paper(parts, seconds=24 * 3600, penalty=Fraction(1, 3), pass_mark=Fraction(60))


@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.language)
def test_the_longest_question_on_a_panel_and_its_review_page_fit_one_message(
    locale: Locale,
) -> None:
    quiz, question = worst_case_quiz(weighted=True)
    drawn = paper((question.id,))
    order = tuple(range(schema.MAX_OPTIONS))
    for response in (None, Choice(0)):
        shown = Shown(quiz, drawn, question, 0, 1, 1, None, None, order, response, 86_399.5)
        panel = exam_render.question_panel(shown, 10**17, locale)
        text = visible(panel)
        assert telegram_length(text) <= MAX_MESSAGE_LENGTH
        assert "w" * schema.MAX_QUESTION_LENGTH in text and "24:00:00" in text
        assert "✅" not in text and "❌" not in text  # never right or wrong while it runs
        assert all(len(data.encode()) <= callbacks.MAX_BYTES for _, data in buttons(panel))
    for graded in (grade(question, Choice(0)), None):
        marked = MarkedItem(question.id, graded, Fraction(-1, 3) if graded else Fraction(0))
        page = exam_render.review_page(quiz, marked, 1, 1, order, 10**17, locale)
        text = visible(page)
        assert telegram_length(text) <= MAX_MESSAGE_LENGTH
        assert "w" * schema.MAX_EXPLANATION_LENGTH in text


def test_a_result_and_the_rules_with_fifty_sections_fit_one_message() -> None:
    quiz, question = worst_case_quiz()
    drawn = paper((question.id,), sections=schema.MAX_SECTIONS)
    result = mark_paper(drawn, {question.id: grade(question, Choice(1))})
    standing = exam_render.Standing(quiz, result, 100.0, drawn.seconds, True, None)
    for locale in LOCALES:
        for message in (
            exam_render.result_message(standing, 10**17, locale),
            exam_render.rules_message(quiz, drawn, 1000, locale, seconds=1.0),
        ):
            assert telegram_length(visible(message)) <= MAX_MESSAGE_LENGTH


def test_a_typed_reply_on_the_panel_is_shown_as_text() -> None:
    quiz, question = worst_case_quiz()
    shown = Shown(
        quiz, paper(("x",)), question, 0, 1, 1, None, None, (0,), TextReply("<b>&" * 200), 5
    )
    assert "<b>&" in visible(exam_render.question_panel(shown, 1, LOCALES[0]))


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0, "0:00"), (0.2, "0:01"), (59.5, "1:00"), (61, "1:01"), (3600, "1:00:00"), (-5, "0:00")],
)
def test_the_clock_rounds_what_is_left_up(seconds: float, shown: str) -> None:
    assert clock_text(seconds) == shown


@pytest.mark.parametrize(
    ("points", "shown"),
    [
        (Fraction(13, 2), "6.5"),
        (Fraction(27, 4), "6.75"),
        (Fraction(1, 3), "0.33"),
        (Fraction(-1, 4), "−0.25"),
        (Fraction(10), "10"),
        (Fraction(0), "0"),
    ],
)
def test_points_show_at_most_two_decimals_and_a_real_minus(points: Fraction, shown: str) -> None:
    assert points_text(points) == shown


def test_a_percent_shows_one_decimal_when_it_has_one() -> None:
    assert [percent_text(Fraction(p)) for p in ("65", "175/4", "200/3")] == ["65", "43.8", "66.7"]
