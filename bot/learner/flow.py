"""A learner's attempt in a private chat, a quiz or a review session: open it, ask the next
question, take an answer.

Every decision is made against stored state; callback data only names what was tapped.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from telegram import Bot, CallbackQuery
from telegram.error import BadRequest, TelegramError

from bot.core.callbacks import AnswerTap
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.core.render import Rendered, answer_toast
from bot.learner import render
from content import spacing
from content.catalog import Catalog
from content.model import Question, Quiz
from content.progress import Mastery, mastery
from content.rules import (
    Progress,
    Summary,
    attempt_order,
    attempt_progress,
    option_order,
    streak,
    summarize,
    zone,
)
from storage import (
    REVIEW,
    REVIEW_QUIZ_ID,
    Answer,
    Attempt,
    CardUpdate,
    QuizRecord,
    User,
    attempt_item_parts,
    review_item,
)

log = logging.getLogger(__name__)

REVIEW_SESSION_SIZE = 20


@dataclass(frozen=True)
class Item:
    """One question of an attempt, resolved against the catalog."""

    key: str
    quiz: Quiz
    question: Question


def resolve(catalog: Catalog, attempt: Attempt, key: str) -> Item | None:
    """The quiz and question behind an attempt's item; None once retired from the catalog."""
    quiz_id, question_id = attempt_item_parts(attempt, key)
    quiz = catalog.get(quiz_id)
    question = quiz.question(question_id) if quiz is not None else None
    return None if quiz is None or question is None else Item(key, quiz, question)


def _retired(catalog: Catalog, attempt: Attempt) -> frozenset[str]:
    return frozenset(k for k in attempt.question_ids if resolve(catalog, attempt, k) is None)


def progress(catalog: Catalog, attempt: Attempt, answered: Collection[str] = ()) -> Progress:
    """The attempt as the catalog has its quiz now: the one reading of it for every view."""
    return attempt_progress(attempt.question_ids, answered, _retired(catalog, attempt))


async def quiz_records(services: Services, user_id: int) -> dict[str, QuizRecord]:
    """The learner's record on each quiz, a running attempt counted as its quiz is now."""
    records = await services.storage.learners.quiz_records(user_id)
    for quiz_id, record in records.items():
        if record.running_answered is None:
            continue
        attempt = await services.storage.learners.running_attempt(user_id, quiz_id)
        if attempt is None:
            continue
        now = progress(
            services.catalog, attempt, (await services.storage.learners.answers(attempt.id)).keys()
        )
        records[quiz_id] = dataclasses.replace(
            record, running_answered=now.done, running_total=now.total
        )
    return records


@dataclass(frozen=True)
class Standing:
    """A learner's whole standing, as `/progress` shows it."""

    records: dict[str, QuizRecord]
    mastery: dict[str, Mastery]  # per quiz touched, by its id
    overview: render.Overview


async def standing(services: Services, learner: User) -> Standing:
    """Per quiz the record and the mastery; overall the streak of days in the learner's time
    zone and the reviews due now and by the end of their day."""
    learners, now = services.storage.learners, services.clock()
    tz = zone(learner.timezone or services.settings.default_timezone)
    local_now = datetime.fromtimestamp(now, tz)
    end_of_day = datetime.combine(local_now.date() + timedelta(days=1), time(), tz).timestamp()
    utc_offset = local_now.utcoffset()
    offset = int(utc_offset.total_seconds()) if utc_offset is not None else 0
    days = await learners.study_days(learner.user_id, offset)
    overview = render.Overview(
        streak=streak(days, int((now + offset) // 86400)),
        due_now=await learners.count_due(learner.user_id, now),
        due_today=await learners.count_due(learner.user_id, end_of_day),
    )
    records = await quiz_records(services, learner.user_id)
    cards_by_quiz: dict[str, dict[str, str]] = {}
    for card in await learners.cards(learner.user_id):
        cards_by_quiz.setdefault(card.quiz_id, {})[card.question_id] = card.card_json
    by_quiz = {}
    for quiz in services.catalog:
        if quiz.id in cards_by_quiz or quiz.id in records:
            latest = await learners.latest_answers(learner.user_id, quiz.id)
            correct = {qid: answer.correct for qid, answer in latest.items()}
            by_quiz[quiz.id] = mastery(quiz, cards_by_quiz.get(quiz.id, {}), correct, now)
    return Standing(records, by_quiz, overview)


def _order(attempt: Attempt, item: Item) -> tuple[int, ...]:
    return option_order(
        attempt.id, item.key, len(item.question.options), shuffle=item.quiz.shuffle_options
    )


async def open_quiz(
    bot: Bot, services: Services, chat_id: int, user_id: int, quiz: Quiz, locale: Locale
) -> None:
    """Start the quiz, or continue the running attempt at its first unanswered question."""
    learners = services.storage.learners
    attempt = await learners.running_attempt(user_id, quiz.id)
    resuming = attempt is not None
    if attempt is None:
        attempt = await learners.start_attempt(
            user_id, quiz.id, attempt_order(quiz), services.clock()
        )
    await _continue(bot, services, chat_id, attempt, locale, resuming)


async def open_review(
    bot: Bot, services: Services, chat_id: int, user_id: int, locale: Locale
) -> None:
    """Continue the running review session, or start one of the questions due now."""
    learners = services.storage.learners
    now = services.clock()
    attempt = await learners.running_attempt(user_id, REVIEW_QUIZ_ID)
    resuming = attempt is not None
    if attempt is None:
        due = [
            review_item(card.quiz_id, card.question_id)
            for card in await learners.due_cards(user_id, now)
            if (quiz := services.catalog.get(card.quiz_id)) is not None
            and quiz.question(card.question_id) is not None
        ][:REVIEW_SESSION_SIZE]
        if not due:
            message = render.nothing_due(await learners.next_due(user_id, now), now, locale)
            await bot.send_message(chat_id, message.text, reply_markup=message.markup)
            return
        attempt = await learners.start_attempt(
            user_id, REVIEW_QUIZ_ID, tuple(due), now, kind=REVIEW
        )
    await _continue(bot, services, chat_id, attempt, locale, resuming)


async def open_attempt(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, locale: Locale
) -> None:
    """Ask an attempt another feature started (`Services.open_attempt`): its next question, or
    its summary if nothing is left."""
    await _continue(bot, services, chat_id, attempt, locale, resuming=True)


async def _continue(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, locale: Locale, resuming: bool
) -> None:
    answers = await services.storage.learners.answers(attempt.id)
    now = progress(services.catalog, attempt, answers.keys())
    if now.next_item is None:
        # every question left was retired meanwhile: the attempt ends with what it asked
        summary = _summary(now, answers)
        await services.storage.learners.finish_attempt(
            attempt.id, summary.score, summary.total, services.clock()
        )
        await send_summary(bot, services, chat_id, attempt, locale)
        return
    if resuming and now.done:
        await bot.send_message(
            chat_id, locale.t("resuming", k=now.number(now.next_item), n=now.total)
        )
    position = attempt.question_ids.index(now.next_item)
    await send_question(bot, services, chat_id, attempt, position, locale)


def _summary(now: Progress, answers: Mapping[str, Answer]) -> Summary:
    return summarize(now.items, {key: answer.correct for key, answer in answers.items()})


async def send_question(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, position: int, locale: Locale
) -> None:
    item = resolve(services.catalog, attempt, attempt.question_ids[position])
    if item is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    numbering = progress(services.catalog, attempt)
    message = render.question_message(
        item.quiz,
        item.question,
        position,
        attempt.id,
        locale,
        total=numbering.total,
        number=numbering.number(item.key),
        order=_order(attempt, item),
        review=attempt.kind == REVIEW,
    )
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


async def send_summary(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, locale: Locale
) -> None:
    answers = await services.storage.learners.answers(attempt.id)
    summary = _summary(progress(services.catalog, attempt, answers.keys()), answers)
    if attempt.kind == REVIEW:
        now = services.clock()
        next_due = await services.storage.learners.next_due(attempt.user_id, now)
        message = render.review_summary(summary, next_due, now, locale)
        await bot.send_message(chat_id, message.text, reply_markup=message.markup)
        return
    quiz = services.catalog.get(attempt.quiz_id)
    if quiz is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    record = (await services.storage.learners.quiz_records(attempt.user_id)).get(quiz.id)
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
    resume: Attempt | None = None  # after the notice, ask this attempt's next question


@dataclass(frozen=True)
class _ValidTap:
    attempt: Attempt
    item: Item
    order: tuple[int, ...]
    following: int | None  # the position asked after this one, None if this is the last
    progress: Progress  # before this answer
    answers: Mapping[str, Answer]  # before this answer


async def _check_tap(services: Services, tap: AnswerTap, user_id: int) -> _ValidTap | _Refusal:
    attempt = await services.storage.learners.get_attempt(tap.attempt_id)
    if attempt is None:
        return _Refusal("stale_button")
    if attempt.user_id != user_id:
        return _Refusal("not_your_quiz")
    if attempt.finished:
        return _Refusal("quiz_finished_already")
    if tap.position >= attempt.total:
        return _Refusal("stale_button")
    item = resolve(services.catalog, attempt, attempt.question_ids[tap.position])
    if item is None:
        if attempt.kind == REVIEW or services.catalog.get(attempt.quiz_id) is not None:
            return _Refusal("tap_on_retired", resume=attempt)
        return _Refusal("quiz_gone")
    if tap.place >= len(item.question.options):
        return _Refusal("stale_button")
    answers = await services.storage.learners.answers(attempt.id)
    if item.key in answers:
        return _Refusal("already_answered")
    now = progress(services.catalog, attempt, answers.keys())
    if now.next_item != item.key:
        return _Refusal("stale_button")
    after = now.with_answer(item.key).next_item
    following = None if after is None else attempt.question_ids.index(after)
    return _ValidTap(attempt, item, _order(attempt, item), following, now, answers)


async def take_answer(
    bot: Bot, services: Services, query: CallbackQuery, tap: AnswerTap, locale: Locale
) -> None:
    """Record the tap and its card update (committed first), then acknowledge, reveal, move on."""
    checked = await _check_tap(services, tap, query.from_user.id)
    if isinstance(checked, _Refusal):
        await query.answer(locale.t(checked.key))
        if checked.resume is not None:
            chat_id = query.message.chat.id if query.message else query.from_user.id
            await _continue(bot, services, chat_id, checked.resume, locale, resuming=False)
        return
    attempt, item, order = checked.attempt, checked.item, checked.order
    chosen = order[tap.place]  # the option of the bank shown at the place tapped
    correct = item.question.is_correct(chosen)
    now = services.clock()
    card = await services.storage.learners.card(attempt.user_id, item.quiz.id, item.question.id)
    asked_at = query.message.date.timestamp() if query.message is not None else None
    seconds = now - asked_at if asked_at is not None and asked_at <= now else None
    reviewed = spacing.review(card.card_json if card else None, correct, seconds, now)
    result = None
    if checked.following is None:  # the last answer: the score of what the attempt asked
        answered = {key: answer.correct for key, answer in checked.answers.items()}
        summary = summarize(checked.progress.items, {**answered, item.key: correct})
        result = (summary.score, summary.total)
    outcome = await services.storage.learners.record_answer(
        attempt,
        item.key,
        chosen,
        correct,
        now,
        finishes=checked.following is None,
        card=CardUpdate(reviewed.card_json, reviewed.due, int(reviewed.rating)),
        result=result,
    )
    if not outcome.recorded:
        await query.answer(locale.t("already_answered"))
        return
    # The answer is committed: a failed acknowledgement or edit must not stop the session,
    # and a failed acknowledgement must not cost the reveal.
    try:
        await query.answer(answer_toast(item.question, tap.place, locale, order))
    except TelegramError as error:
        log.warning("answer %s/%s stored, but its toast failed: %s", attempt.id, item.key, error)
    reveal = render.reveal_message(
        item.quiz,
        item.question,
        tap.position,
        tap.place,
        locale,
        total=checked.progress.total,
        number=checked.progress.number(item.key),
        order=order,
        review=attempt.kind == REVIEW,
    )
    try:
        await edit_quietly(query, reveal)
    except TelegramError as error:
        log.warning("answer %s/%s stored, but its reveal failed: %s", attempt.id, item.key, error)
    chat_id = query.message.chat.id if query.message else query.from_user.id
    if outcome.finished or checked.following is None:
        await send_summary(bot, services, chat_id, attempt, locale)
    else:
        await send_question(bot, services, chat_id, attempt, checked.following, locale)


async def edit_quietly(query: CallbackQuery, message: Rendered) -> None:
    """Edit the tapped message; a message that is already so, or gone, is not an error."""
    try:
        await query.edit_message_text(message.text, reply_markup=message.markup)
    except BadRequest as error:
        text = str(error).lower()
        if "not modified" in text or "message to edit not found" in text:
            log.debug("edit skipped: %s", error)
            return
        raise
