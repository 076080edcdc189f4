"""A learner's quiz attempt in a private chat: open it, ask the next question, take an answer.

Every decision is made against stored state; callback data only names what was tapped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Bot, CallbackQuery
from telegram.error import BadRequest, TelegramError

from bot import render
from bot.callbacks import AnswerTap
from bot.context import Services
from bot.render import Locale
from content.model import Question, Quiz
from content.rules import attempt_order, next_position, retired, summarize
from storage import Attempt

log = logging.getLogger(__name__)


async def open_quiz(
    bot: Bot, services: Services, chat_id: int, user_id: int, quiz: Quiz, locale: Locale
) -> None:
    """Start the quiz, or continue the running attempt at its first unanswered question."""
    repo = services.repo
    attempt = await repo.running_attempt(user_id, quiz.id)
    resuming = attempt is not None
    if attempt is None:
        attempt = await repo.start_attempt(user_id, quiz.id, attempt_order(quiz), services.clock())
    answered = await repo.answers(attempt.id)
    position = next_position(
        attempt.question_ids, answered.keys() | retired(attempt.question_ids, quiz)
    )
    if position is None:
        await send_summary(bot, services, chat_id, quiz, attempt, locale)
        return
    if resuming and answered:
        await bot.send_message(chat_id, locale.t("resuming", k=position + 1, n=attempt.total))
    await send_question(bot, chat_id, quiz, attempt, position, locale)


async def send_question(
    bot: Bot, chat_id: int, quiz: Quiz, attempt: Attempt, position: int, locale: Locale
) -> None:
    question = quiz.question(attempt.question_ids[position])
    if question is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    message = render.question_message(
        quiz, question, position, attempt.id, locale, total=attempt.total
    )
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


async def send_summary(
    bot: Bot, services: Services, chat_id: int, quiz: Quiz, attempt: Attempt, locale: Locale
) -> None:
    answers = await services.repo.answers(attempt.id)
    asked = [q for q in attempt.question_ids if q not in retired(attempt.question_ids, quiz)]
    summary = summarize(asked, {qid: answer.correct for qid, answer in answers.items()})
    record = (await services.repo.quiz_records(attempt.user_id)).get(quiz.id)
    best = (
        (record.best_score, record.best_total)
        if record is not None and record.best_score is not None and record.best_total
        else None
    )
    message = render.summary_message(quiz, summary, best, locale)
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


@dataclass(frozen=True)
class _Refusal:
    key: str


@dataclass(frozen=True)
class _ValidTap:
    attempt: Attempt
    quiz: Quiz
    question: Question
    following: int | None  # the position asked after this one, None if this is the last


async def _check_tap(services: Services, tap: AnswerTap, user_id: int) -> _ValidTap | _Refusal:
    attempt = await services.repo.get_attempt(tap.attempt_id)
    if attempt is None:
        return _Refusal("stale_button")
    if attempt.user_id != user_id:
        return _Refusal("not_your_quiz")
    if attempt.finished:
        return _Refusal("quiz_finished_already")
    quiz = services.catalog.get(attempt.quiz_id)
    if quiz is None:
        return _Refusal("quiz_gone")
    if tap.position >= attempt.total:
        return _Refusal("stale_button")
    question_id = attempt.question_ids[tap.position]
    question = quiz.question(question_id)
    if question is None or tap.option >= len(question.options):
        return _Refusal("stale_button")
    answered = await services.repo.answers(attempt.id)
    if question_id in answered:
        return _Refusal("already_answered")
    skipped = answered.keys() | retired(attempt.question_ids, quiz)
    if next_position(attempt.question_ids, skipped) != tap.position:
        return _Refusal("stale_button")
    following = next_position(attempt.question_ids, skipped | {question_id})
    return _ValidTap(attempt, quiz, question, following)


async def take_answer(
    bot: Bot, services: Services, query: CallbackQuery, tap: AnswerTap, locale: Locale
) -> None:
    """Record the tap (committed first), then acknowledge, reveal, and move on."""
    checked = await _check_tap(services, tap, query.from_user.id)
    if isinstance(checked, _Refusal):
        await query.answer(locale.t(checked.key))
        return
    attempt, quiz, question = checked.attempt, checked.quiz, checked.question
    correct = question.is_correct(tap.option)
    outcome = await services.repo.record_answer(
        attempt,
        question.id,
        tap.option,
        correct,
        services.clock(),
        finishes=checked.following is None,
    )
    if not outcome.recorded:
        await query.answer(locale.t("already_answered"))
        return
    # The answer is committed: a failed acknowledgement or edit must not stop the quiz.
    try:
        await query.answer(render.answer_toast(question, tap.option, locale))
        reveal = render.reveal_message(
            quiz, question, tap.position, tap.option, locale, total=attempt.total
        )
        await edit_quietly(query, reveal)
    except TelegramError as error:
        log.warning(
            "answer %s/%s stored, but its reveal failed: %s", attempt.id, question.id, error
        )
    chat_id = query.message.chat.id if query.message else query.from_user.id
    if outcome.finished or checked.following is None:
        await send_summary(bot, services, chat_id, quiz, attempt, locale)
    else:
        await send_question(bot, chat_id, quiz, attempt, checked.following, locale)


async def edit_quietly(query: CallbackQuery, message: render.Rendered) -> None:
    """Edit the tapped message; a message that is already so, or gone, is not an error."""
    try:
        await query.edit_message_text(message.text, reply_markup=message.markup)
    except BadRequest as error:
        text = str(error).lower()
        if "not modified" in text or "message to edit not found" in text:
            log.debug("edit skipped: %s", error)
            return
        raise
