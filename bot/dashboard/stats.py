"""How each question of a quiz fared: its share of credit, how many answered it, the median
time to answer, the most common wrong answers (the option's letter and text, or the reply
typed), with the question and its explanation. Pure: stored answer groups in, JSON-ready
data out."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.i18n import Locale
from bot.core.render import choice_count, choice_labels, letters
from content.grading import NumberReply, TextReply, choices_of, stored_response
from content.model import Question, Quiz, clip
from storage.report_store import AnswerGroup, QuestionShare

WRONG_SHOWN = 3  # most common wrong answers per question
ANSWER_SHOWN = 80  # characters of a wrong answer shown
HARDEST_SHOWN = 5  # the class's hardest questions listed
HARDEST_AT_LEAST = 3  # answers a question needs before it may be called hard


def question_stats(
    quiz: Quiz | None,
    question_ids: Sequence[str],
    groups: Sequence[AnswerGroup],
    locale: Locale,
) -> list[dict[str, Any]]:
    """One entry per question, in the order given (the grid's columns)."""
    by_question: dict[str, list[AnswerGroup]] = {}
    for group in groups:
        by_question.setdefault(group.question_id, []).append(group)
    found = []
    for number, question_id in enumerate(question_ids, 1):
        mine = by_question.get(question_id, [])
        question = quiz.question(question_id) if quiz is not None else None
        answered = sum(group.count for group in mine)
        credit = sum(group.credit for group in mine)
        seconds = [second for group in mine for second in group.seconds]
        wrong = sorted(
            (group for group in mine if not group.correct),
            key=lambda group: (-group.count, group.chosen, group.reply or ""),
        )
        found.append(
            {
                "id": question_id,
                "number": number,
                "text": locale.plain(question.text) if question is not None else question_id,
                "explanation": (
                    locale.plain(question.explanation)
                    if question is not None and question.explanation is not None
                    else ""
                ),
                "answered": answered,
                "right": round(100 * credit / answered) if answered else None,
                "seconds": round(statistics.median(seconds), 1) if seconds else None,
                "wrong": [
                    {"answer": answer_label(question, group, locale), "count": group.count}
                    for group in _merged(question, wrong, locale)[:WRONG_SHOWN]
                ],
            }
        )
    return found


def _merged(
    question: Question | None, wrong: list[AnswerGroup], locale: Locale
) -> list[AnswerGroup]:
    """Wrong answers that read the same (a reply typed in other capitals or spacing, counted
    once), most common first."""
    merged: dict[str, AnswerGroup] = {}
    for group in wrong:
        label = answer_label(question, group, locale).casefold()
        if label in merged:
            first = merged[label]
            group = AnswerGroup(
                first.question_id,
                first.chosen,
                first.reply,
                first.count + group.count,
                first.credit + group.credit,
                False,
                (),
            )
        merged[label] = group
    return sorted(merged.values(), key=lambda group: -group.count)


def answer_label(question: Question | None, group: AnswerGroup, locale: Locale) -> str:
    """A stored answer as the teacher reads it: "B · its option's text" (several: "A, C"),
    or the reply as typed."""
    if question is None:
        return group.reply if group.reply is not None else str(group.chosen)
    response = stored_response(question, group.chosen, group.reply)
    if isinstance(response, NumberReply | TextReply):
        return clip(" ".join(response.text.split()), ANSWER_SHOWN)
    picked = choices_of(response)
    if any(not 0 <= choice < choice_count(question) for choice in picked):
        return str(group.chosen)  # the question has fewer options now
    labels = choice_labels(question, locale)
    if len(picked) == 1:
        (choice,) = picked
        return f"{letters(picked)} · {clip(labels[choice], ANSWER_SHOWN)}"
    return letters(picked)


def hardest(
    shares: Sequence[QuestionShare], quiz_of: Callable[[str], Quiz | None], locale: Locale
) -> list[dict[str, Any]]:
    """The class's hardest questions (least credit first, each answered at least
    `HARDEST_AT_LEAST` times), those still in the catalog."""
    found = []
    for share in shares:
        quiz = quiz_of(share.quiz_id)
        question = quiz.question(share.question_id) if quiz is not None else None
        if quiz is None or question is None:
            continue
        position = quiz.position(share.question_id)
        found.append(
            {
                "quiz": share.quiz_id,
                "title": locale.plain(quiz.title),
                "number": position + 1 if position is not None else None,
                "text": clip(" ".join(locale.plain(question.text).split()), 160),
                "answered": share.answered,
                "right": round(100 * share.credit / share.answered),
            }
        )
        if len(found) == HARDEST_SHOWN:
            break
    return found
