"""A learner who plays the "Parallelism drill" bank (every question type) as a person does:
finds the question asked by its header, and answers it right or wrong in its own way."""

from __future__ import annotations

from bot.core.render import number_text
from bot.sandbox import Message
from content.markup import flatten
from content.model import (
    MultipleAnswer,
    NumericAnswer,
    Question,
    Quiz,
    SingleAnswer,
    TrueFalseAnswer,
    TypedAnswer,
)
from tests.support.learner import Learner, button_for
from tests.support.types import current, pick, reply, submit

HEADERS = {"en": "Question {k} of {n}", "yo": "Ìbéèrè {k} ti {n}"}
REVIEW_HEADERS = {"en": "Review {k} of {n}", "yo": "Àtúnyẹ̀wò {k} ti {n}"}
TRUE_FALSE = {"en": ("True", "False"), "yo": ("Òótọ́", "Irọ́")}


def asked(quiz: Quiz, message: Message, language: str) -> Question:
    """The question a message asks, found by its text."""
    for question in quiz.questions:
        first_line = flatten(question.text.get(language, "en")).splitlines()[0]
        if first_line in message.shown:
            return question
    raise AssertionError(f"no question of {quiz.id} in {message.shown[:200]!r}")


async def answer(
    learner: Learner, quiz: Quiz, message: Message, language: str, right: bool, expect: str
) -> Message:
    """Answer the question `message` asks, right or wrong; the next bot message with
    `expect` (the next question's header, or the summary)."""
    question = asked(quiz, message, language)
    seen = len(learner.messages())
    match question.key:
        case SingleAnswer(option):
            count = len(question.options)
            chosen = option if right else (option + 1) % count
            label = flatten(question.options[chosen].get(language, "en"))
            await learner.tap(message, button_for(message, label))
        case TrueFalseAnswer(value):
            labels = TRUE_FALSE[language]
            wanted = labels[0] if value == right else labels[1]
            data = next(b["callback_data"] for b in message.buttons if b["text"] == wanted)
            await learner.tap(message, data)
        case MultipleAnswer(options):
            picked = options if right else frozenset(range(len(question.options))) - options
            for option in sorted(picked):
                await pick(learner, message, flatten(question.options[option].get(language, "en")))
            await learner.api.wait_for(
                lambda: (
                    sum(b["text"].startswith("☑") for b in current(learner.api, message).buttons)
                    == len(picked)
                )
            )
            await submit(learner, message)
        case NumericAnswer(value, tolerance):
            shown = number_text(value if right else value + tolerance + 1)
            learner.api.send_text(learner.user, shown)
        case TypedAnswer(accepted):
            learner.api.send_text(learner.user, accepted[0].get(language, "en") if right else "x")
    return await learner.api.wait_for_bot_message(learner.chat_id, expect, after=seen)


__all__ = ["HEADERS", "REVIEW_HEADERS", "answer", "asked", "reply"]
