"""Whatever the validator accepts, every rendering fits Telegram: many quizzes with long
descriptions, a 500-question quiz all missed, hundreds of weak questions."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.core.render import MAX_MESSAGE_LENGTH, Rendered
from bot.learner.render import (
    MAX_MISSED_SHOWN,
    Overview,
    progress_message,
    quiz_list,
    summary_message,
)
from bot.sandbox.html_check import telegram_length, visible_text
from content.model import Level, Question, Quiz
from content.progress import Mastery
from content.rules import Summary
from content.schema import MAX_DESCRIPTION_LENGTH, MAX_QUESTIONS, MAX_TITLE_LENGTH
from storage import QuizRecord
from tests.support.quizzes import EN, YO, text

MAX_BUTTONS = 100  # Telegram's limit for one inline keyboard


def quiz(number: int, questions: int = 2) -> Quiz:
    return Quiz(
        id=f"quiz-{number}",
        title=text(f"Q{number} " + "&" * (MAX_TITLE_LENGTH - 4)),
        level=Level.EASY,
        questions=tuple(
            Question(f"q{i}", text(f"Question {i} " + "x" * 790), (text("a"), text("b")), 0)
            for i in range(questions)
        ),
        description=text("<d> " * (MAX_DESCRIPTION_LENGTH // 4)),
    )


def fits(messages: list[Rendered]) -> str:
    for message in messages:
        assert telegram_length(visible_text(message.text, "HTML")) <= MAX_MESSAGE_LENGTH
        if isinstance(message.markup, InlineKeyboardMarkup):
            assert sum(len(row) for row in message.markup.inline_keyboard) <= MAX_BUTTONS
    return "\n".join(visible_text(message.text, "HTML") for message in messages)


def test_a_long_quiz_list_is_split_and_each_message_has_the_buttons_of_its_quizzes() -> None:
    quizzes = [quiz(n) for n in range(120)]
    records = {
        q.id: QuizRecord(q.id, 1, 1, 2, 1, 2, 1, 2) for q in quizzes[::2]
    }  # running and finished, on every other quiz
    for locale in (EN, YO):
        messages = quiz_list(quizzes, records, locale)
        assert len(messages) > 1
        shown = fits(messages)
        for q in quizzes:
            assert shown.count(f"/quiz {q.id} ") == 1
        for message in messages:
            page = visible_text(message.text, "HTML")
            listed = [q.id for q in quizzes if f"/quiz {q.id} " in page]
            assert isinstance(message.markup, InlineKeyboardMarkup)
            opened = [row[0].callback_data for row in message.markup.inline_keyboard]
            assert len(opened) == len(listed)
            assert all(quiz_id in str(data) for quiz_id, data in zip(listed, opened, strict=True))


def test_a_summary_of_a_500_question_quiz_all_missed_fits_one_message() -> None:
    big = quiz(1, questions=MAX_QUESTIONS)
    missed = tuple(q.id for q in big.questions)
    for locale in (EN, YO):
        message = summary_message(big, Summary(0, MAX_QUESTIONS, missed), (3, 500), locale)
        shown = fits([message])
        assert shown.count("• ") == MAX_MISSED_SHOWN
        assert f"{MAX_QUESTIONS - MAX_MISSED_SHOWN}" in shown.splitlines()[-1] or any(
            f"{MAX_QUESTIONS - MAX_MISSED_SHOWN} " in line for line in shown.splitlines()
        )


def test_progress_of_many_quizzes_with_hundreds_of_weak_questions_fits() -> None:
    quizzes = [quiz(n, questions=3) for n in range(60)]
    weak = tuple(range(1, MAX_QUESTIONS + 1))
    mastery = {q.id: Mastery(0, MAX_QUESTIONS, MAX_QUESTIONS, weak) for q in quizzes}
    records = {q.id: QuizRecord(q.id, 2, 1, 2, 1, 2, None, None) for q in quizzes}
    for locale in (EN, YO):
        messages = progress_message(quizzes, records, mastery, Overview(3, 5, 9), locale)
        assert len(messages) > 1
        shown = fits(messages)
        assert shown.count("#20,") == 0 and shown.count("#20 … (+480)") == len(quizzes)
