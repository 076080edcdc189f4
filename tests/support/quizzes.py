"""Quizzes built in code for rendering tests, the nastiest content included, and what a
person sees of a rendering."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from telegram import InlineKeyboardMarkup

from bot.core.i18n import Locale
from bot.core.render import Rendered
from bot.sandbox.html_check import visible_text
from content.model import Guide, Level, LocalizedText, Question, Quiz, SingleAnswer
from content.schema import (
    MAX_EXPLANATION_LENGTH,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_QUESTION_LENGTH,
    MAX_QUIZ_ID_LENGTH,
    MAX_TITLE_LENGTH,
)

EN = Locale("en", "en")
YO = Locale("yo", "en")
LOCALES = [EN, YO]
LONGEST_QUIZ_ID = ("ab-" * 20)[: MAX_QUIZ_ID_LENGTH - 1] + "z"

NASTY = "<b>Tom & \"Jerry\"</b> 'x' <i>1 < 2 > 0</i> &amp; &lt;"


def text(value: str) -> LocalizedText:
    return LocalizedText({"en": value})


def make_question(
    qid: str, question: str, options: list[str], answer: int = 0, explanation: str | None = None
) -> Question:
    return Question(
        id=qid,
        text=text(question),
        options=tuple(text(o) for o in options),
        answer=answer,
        explanation=text(explanation) if explanation is not None else None,
    )


def make_quiz(
    questions: list[Question],
    title: str = "Arithmetic",
    quiz_id: str = "arith",
    description: str | None = None,
    guide: Guide | None = None,
) -> Quiz:
    return Quiz(
        id=quiz_id,
        title=text(title),
        level=Level.MEDIUM,
        questions=tuple(questions),
        description=text(description) if description is not None else None,
        guide=guide,
    )


def nasty_quiz() -> Quiz:
    return make_quiz(
        [
            make_question(
                f"n{k}",
                f"Q{k} {NASTY}",
                [f"opt{k}a {NASTY}", f"opt{k}b {NASTY}"],
                answer=1,
                explanation=f"E{k} {NASTY}",
            )
            for k in range(2)
        ],
        title=f"T {NASTY}",
        quiz_id="nasty",
        description=f"D {NASTY}",
        guide=Guide(text(f"G {NASTY}"), "https://example.org/a?b=1&c=<2>"),
    )


def worst_case_quiz(char: str = "w", weighted: bool = False) -> tuple[Quiz, Question]:
    """The longest question: longest texts, most options; `weighted`, each option with the
    longest weight a reveal shows beside it."""
    question = make_question(
        "worst",
        char * MAX_QUESTION_LENGTH,
        [char * MAX_OPTION_LENGTH] * MAX_OPTIONS,
        answer=MAX_OPTIONS - 1,
        explanation=char * MAX_EXPLANATION_LENGTH,
    )
    if weighted:
        weights = (*[Decimal("-33.33333")] * (MAX_OPTIONS - 1), Decimal(100))
        key = SingleAnswer(MAX_OPTIONS - 1, weights)
        question = dataclasses.replace(question, key=key)
    return make_quiz([question], title=char * MAX_TITLE_LENGTH, quiz_id=LONGEST_QUIZ_ID), question


def visible(rendered: Rendered) -> str:
    """What the learner sees; fails the test where Telegram would refuse the HTML."""
    return visible_text(rendered.text, "HTML")


def buttons(rendered: Rendered) -> list[tuple[str, str]]:
    markup = rendered.markup
    assert isinstance(markup, InlineKeyboardMarkup)
    return [
        (button.text, str(button.callback_data)) for row in markup.inline_keyboard for button in row
    ]
