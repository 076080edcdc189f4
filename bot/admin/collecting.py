"""Telegram quiz polls turned into questions (`/collect`): pure rules, no I/O.

A quiz poll that an admin creates in the private chat with the bot (the reply keyboard's
"Create a quiz question" button) carries its right option(s) and explanation. A *forwarded*
quiz poll carries them only once it is closed (Telegram's rule: the right answer of an open
quiz is not shown to whoever has not voted), so an open one is refused. A regular poll has no
right answer at all.

Poll texts are plain text: a backtick in them is escaped so that it stays a backtick (in a
bank, backticks mark code).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram import Poll

from bot.core.render import Reply
from content.loader import BankResult, check_bank
from content.markup import Plain, to_source

MAX_COLLECTED = 100  # questions in one collection: a bank has at most 500 in all


@dataclass
class Collection:
    """An admin's collected questions for one quiz, in the order received; nothing is stored
    until /done. Lives in the admin's user data: a restart drops it (said on the next poll)."""

    quiz_id: str
    questions: list[dict[str, Any]] = field(default_factory=list)


def _plain(text: str) -> str:
    return to_source([Plain(text)])


def question_from_poll(poll: Poll, forwarded: bool, language: str) -> dict[str, Any] | Reply:
    """The poll as bank data for a question (without an id), or why it cannot be one."""
    if poll.type != Poll.QUIZ:
        return Reply("collect_regular_poll")
    right = sorted(set(poll.correct_option_ids or ()))
    if not right:
        # Telegram leaves the right options out of an open quiz that was forwarded
        return Reply(
            "collect_open_poll" if forwarded and not poll.is_closed else "collect_no_answer"
        )
    options = [{language: _plain(option.text)} for option in poll.options]
    data: dict[str, Any] = {"text": {language: _plain(poll.question)}, "options": options}
    if len(right) == 1:
        data["answer"] = right[0]
    else:
        data["type"] = "multiple"
        data["answer"] = right
    if poll.explanation:
        data["explanation"] = {language: _plain(poll.explanation)}
    return data


def check_question(quiz_id: str, question: dict[str, Any], language: str) -> Sequence[str]:
    """The errors of one collected question alone (what the bot cannot play included), each
    without the place of a bank; the whole quiz is validated again at /done."""
    bank = {
        "id": quiz_id,
        "title": quiz_id,
        "level": "easy",
        "questions": [{"id": "q", **question}],
    }
    result: BankResult = check_bank(bank, "poll", language)
    return [
        error.removeprefix("poll: ").removeprefix("question q (#1), ") for error in result.errors
    ]
