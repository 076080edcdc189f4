"""The end of a learner's exam (bot/learner/exams.py takes it): marked once, whoever ends it
(the learner handing it in, the job at the time limit, a tap or a reply too late, the
homework's deadline), its responses made answers and reviews of their cards in that commit;
the result; and the review, page by page, once the right answers may be shown."""

from __future__ import annotations

import logging

from telegram import Bot, CallbackQuery
from telegram.error import BadRequest, TelegramError

from bot.core import callbacks, faults
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.core.render import Rendered, choice_count
from bot.learner import exam_render as render
from content import grading
from content.deadlines import local_time
from content.exams import ExamResult, Outcome, Paper, mark_responses
from content.model import Question, QuestionType, Quiz
from content.rules import option_order
from storage.exam_store import BY_TIME, MarkedAnswer, Sitting

log = logging.getLogger(__name__)


def order_of(attempt_id: int, quiz: Quiz, question: Question) -> tuple[int, ...]:
    """The choices' order on screen, per attempt (as a quiz's); True always before False."""
    shuffle = quiz.shuffle_options and question.type is not QuestionType.TRUE_FALSE
    return option_order(attempt_id, question.id, choice_count(question), shuffle=shuffle)


async def strip(bot: Bot, chat_id: int, message_id: int | None) -> None:
    """The old panel loses its buttons (quietly: it may be gone, or have none)."""
    if message_id is None:
        return
    try:
        await bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
    except TelegramError as error:
        log.debug("exam panel %s not stripped: %s", message_id, error)


async def close_panel(bot: Bot, chat_id: int, message_id: int | None, closed: Rendered) -> None:
    """The panel says the exam has ended (a photo's panel only loses its buttons)."""
    if message_id is None:
        return
    try:
        await bot.edit_message_text(closed.text, chat_id, message_id, reply_markup=None)
    except BadRequest as error:
        log.debug("exam panel %s not closed: %s", message_id, error)
        await strip(bot, chat_id, message_id)
    except TelegramError as error:
        log.debug("exam panel %s not closed: %s", message_id, error)


async def _marked(
    services: Services, sitting: Sitting, quiz: Quiz | None, paper: Paper
) -> tuple[ExamResult, list[MarkedAnswer]]:
    """The paper marked over its stored responses, and each response that counts as the answer
    it becomes."""
    responses = await services.storage.exams.responses(sitting.attempt.id)
    result = mark_responses(
        quiz, paper, {item: (r.chosen, r.reply) for item, r in responses.items()}
    )
    answers = []
    for marked in result.items:
        if marked.grade is None or quiz is None:
            continue
        question, stored = quiz.question(marked.item), responses[marked.item]
        assert question is not None  # counted: still in the quiz
        credit = float(marked.grade.credit) if grading.scored_in_parts(question) else None
        answers.append(
            MarkedAnswer(marked.item, stored.chosen, marked.grade.fully_right, credit,
                         stored.reply, stored.answered_at)
        )  # fmt: skip
    return result, answers


async def end_exam(bot: Bot, services: Services, sitting: Sitting, ended_by: str) -> None:
    """End the exam once (the learner handed it in, or its time is up): marked, its
    responses made answers and reviews of their cards in one commit; the learner is told
    their result. A second caller finds it ended and does nothing."""
    exams, learners = services.storage.exams, services.storage.learners
    quiz = services.catalog.get(sitting.quiz_id)
    paper = Paper.from_json(sitting.paper)
    result, answers = await _marked(services, sitting, quiz, paper)
    at = services.clock()
    if ended_by == BY_TIME:  # when the time was up, whenever this runs (after a restart)
        at = min(at, sitting.ends_at)
    ended = await exams.end(sitting, ended_by, at, float(result.points), result.out_of, answers)
    if not ended:
        return
    user_id = sitting.attempt.user_id
    log.info("exam %s ended by %s: %s of %d", sitting.attempt.id, ended_by,
             render.points_text(result.points), result.out_of)  # fmt: skip
    awaited = await learners.awaited_reply(user_id)
    if awaited is not None and awaited.attempt_id == sitting.attempt.id:
        await learners.stop_awaiting(user_id)
    stored = await learners.get_user(user_id)
    locale = services.locale_of(stored) if stored is not None else services.default_locale()
    await close_panel(bot, user_id, sitting.message_id, render.closed_panel(
        quiz, ended_by == BY_TIME, locale))  # fmt: skip
    ended_sitting = await exams.get(sitting.attempt.id)
    assert ended_sitting is not None
    try:
        await send_result(bot, services, user_id, ended_sitting, locale)
    except TelegramError as error:
        log.warning("exam %s ended, but its result was not sent: %s", sitting.attempt.id, error)


async def _review_closed(services: Services, sitting: Sitting, paper: Paper,
                         locale: Locale) -> str | None:  # fmt: skip
    """Why the review of an ended exam cannot show the right answers yet (an interface
    string), or None: while the learner may take the exam again, the answers stay hidden; a
    homework's, until its deadline (a classmate's review must not be their key)."""
    homework = sitting.assignment_id
    if homework is None:  # an exam of the learner's own, while a homework of it is open
        hidden = await services.storage.exams.hidden_quizzes(
            sitting.attempt.user_id, services.clock()
        )
        if sitting.quiz_id in hidden:
            return locale.t("exam_review_homework_open")
    else:
        assignment = await services.storage.homework.get(homework)
        if assignment is not None and services.clock() < assignment.deadline:
            deadline = local_time(assignment.deadline, assignment.timezone)
            return locale.t("exam_review_after_deadline", deadline=deadline)
        return None
    if paper.attempts == 0:
        return locale.t("exam_review_never")
    taken = await services.storage.exams.taken(sitting.attempt.user_id, sitting.quiz_id)
    left = paper.attempts - len(taken)
    return locale.t("exam_review_after_attempts", n=left) if left > 0 else None


async def answers_closed(services: Services, attempt_id: int, locale: Locale) -> str | None:
    """Why an ended exam's right answers may not be shown yet (its review, a practice of what
    it missed), or None: `_review_closed` for exam attempt `attempt_id`."""
    sitting = await services.storage.exams.get(attempt_id)
    if sitting is None or sitting.open:
        return locale.t("exam_review_running")
    return await _review_closed(services, sitting, Paper.from_json(sitting.paper), locale)


async def send_result(
    bot: Bot, services: Services, chat_id: int, sitting: Sitting, locale: Locale
) -> None:
    """An ended exam's result, with the button to its review."""
    quiz = services.catalog.get(sitting.quiz_id)
    if quiz is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    paper = Paper.from_json(sitting.paper)
    result, _ = await _marked(services, sitting, quiz, paper)
    attempt = sitting.attempt
    standing = render.Standing(
        quiz=quiz,
        result=result,
        seconds_taken=(attempt.finished_at or attempt.started_at) - attempt.started_at,
        seconds_allowed=paper.seconds,
        by_time=sitting.ended_by == BY_TIME,
        review=await _review_closed(services, sitting, paper, locale),
        missed=result.count(Outcome.WRONG) + result.count(Outcome.PARTLY),
    )
    message = render.result_message(standing, attempt.id, locale)
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


async def review(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamReview,
    locale: Locale,
) -> None:  # fmt: skip
    """A page of an ended exam's review, for its learner, once the right answers may be
    shown: page 0 opens it in a message of its own, the others turn that message's page."""
    sitting = await services.storage.exams.get(tap.attempt_id)
    if sitting is None:
        await query.answer(locale.t("stale_button"))
        return
    if sitting.attempt.user_id != query.from_user.id:
        await query.answer(locale.t("exam_not_yours"))
        return
    if sitting.open:
        await query.answer(locale.t("exam_review_running"))
        return
    quiz = services.catalog.get(sitting.quiz_id)
    if quiz is None:
        await query.answer(locale.t("quiz_gone"))
        return
    paper = Paper.from_json(sitting.paper)
    closed = await _review_closed(services, sitting, paper, locale)
    if closed is not None:
        await query.answer(closed)
        return
    result, _ = await _marked(services, sitting, quiz, paper)
    page = max(tap.page, 1)
    if page > len(result.items):
        await query.answer(locale.t("stale_button"))
        return
    marked = result.items[page - 1]
    question = quiz.question(marked.item)
    assert question is not None  # counted: still in the bank
    order = order_of(sitting.attempt.id, quiz, question)
    message = render.review_page(
        quiz, marked, page, len(result.items), order, sitting.attempt.id, locale
    )
    await query.answer()
    if tap.page == 0:
        chat_id = query.message.chat.id if query.message is not None else query.from_user.id
        await bot.send_message(chat_id, message.text, reply_markup=message.markup)
    else:
        await faults.edit_quietly(query, message)
