"""A member's review of what they missed in a group quiz: the questions of that session they
got wrong or did not answer, asked now in private as a review session (their FSRS cards
updated like any review), whatever their due times."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Bot

from bot.core.context import Services
from bot.core.i18n import Locale
from bot.reports import render
from storage import REVIEW, review_item
from storage.group_store import GroupSession

MISSED_QUIZ_PREFIX = ":missed:"  # never a quiz id: one running review per member and session


def missed_attempt_id(session_id: int) -> str:
    """The attempt name of a member's review of session `session_id`: pressing the link again
    resumes it while it runs."""
    return f"{MISSED_QUIZ_PREFIX}{session_id}"


@dataclass(frozen=True)
class Missed:
    session: GroupSession
    items: tuple[str, ...]  # review items (quiz/question) still in the catalog, in quiz order


async def missed(services: Services, session: GroupSession, user_id: int) -> Missed:
    """The questions the session asked that this member got wrong or left unanswered."""
    results = await services.storage.groups.member_results(session.id, user_id)
    quiz = services.catalog.get(session.quiz_id)
    items = tuple(
        review_item(session.quiz_id, result.question_id)
        for result in results
        if not result.correct and quiz is not None and quiz.question(result.question_id) is not None
    )
    return Missed(session, items)


async def open_missed(
    bot: Bot, services: Services, chat_id: int, user_id: int, found: Missed, locale: Locale
) -> None:
    """Congratulate a member who missed nothing; else start (or resume) their review."""
    quiz = services.catalog.get(found.session.quiz_id)
    if quiz is None or not found.items:
        if quiz is None:
            await bot.send_message(chat_id, locale.t("quiz_gone"))
        else:
            await bot.send_message(chat_id, render.nothing_missed(quiz, locale))
        return
    learners = services.storage.learners
    attempt = await learners.start_attempt(
        user_id, missed_attempt_id(found.session.id), found.items, services.clock(), kind=REVIEW
    )
    if not (await learners.answers(attempt.id)):
        await bot.send_message(chat_id, render.missed_intro(quiz, len(found.items), locale))
    assert services.open_attempt is not None  # the learner feature lends it at start
    await services.open_attempt(bot, services, chat_id, attempt, locale)
