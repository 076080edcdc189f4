"""A learner's attempt in a private chat, a quiz or a review session: open it, ask the next
question, take an answer.

Every decision is made against stored state; callback data only names what was tapped.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from telegram import Bot, CallbackQuery, Message
from telegram.error import BadRequest, TelegramError

from bot.core import pictures
from bot.core.callbacks import AnswerTap, PickOption, SubmitPicks
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.core.render import (
    Rendered,
    choice_count,
    letters,
    picture_line,
    right_choices,
    takes_reply,
)
from bot.learner import render
from content.answers import (
    DigitGrouping,
    Grade,
    NotANumber,
    grade_multiple,
    grade_number,
    grade_typed,
    normalize,
    read_number,
)
from content.catalog import Catalog
from content.model import (
    MultipleAnswer,
    NumericAnswer,
    Question,
    QuestionType,
    Quiz,
    TypedAnswer,
    clip,
)
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
    AnswerOutcome,
    Attempt,
    CardReview,
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
    """The choices' order on screen, per attempt; True always comes before False."""
    shuffle = item.quiz.shuffle_options and item.question.type is not QuestionType.TRUE_FALSE
    return option_order(attempt.id, item.key, choice_count(item.question), shuffle=shuffle)


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
    return summarize(now.items, {key: answer.score for key, answer in answers.items()})


async def send_question(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, position: int, locale: Locale
) -> None:
    """Ask the attempt's question at `position`: with its picture, its selection so far (a
    multiple question), and, for a question answered with a typed reply, noted as the one the
    learner's next text message answers."""
    learners = services.storage.learners
    item = resolve(services.catalog, attempt, attempt.question_ids[position])
    if item is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    question, order = item.question, _order(attempt, item)
    picked: frozenset[int] = frozenset()
    if question.type is QuestionType.MULTIPLE:
        picked = frozenset(order.index(o) for o in await learners.picks(attempt.id, item.key))
    numbering = progress(services.catalog, attempt)
    message = render.question_message(
        _placed(attempt, item, order, numbering), attempt.id, locale, picked
    )
    if question.image is not None:
        alt = picture_line(question, locale)
        sent = await pictures.send_with_picture(
            bot, services, chat_id, question.image, alt, message
        )
    else:
        sent = pictures.Sent(
            await bot.send_message(chat_id, message.text, reply_markup=message.markup)
        )
    if takes_reply(question):
        photo_id = sent.photo.message_id if sent.photo is not None else None
        await learners.await_reply(
            attempt.user_id,
            attempt.id,
            position,
            sent.message.message_id,
            services.clock(),
            photo_message_id=photo_id,
        )
    else:
        await learners.stop_awaiting(attempt.user_id)


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
class _Asked:
    """The question an answer is for, checked against the stored attempt: it is the one
    asked now."""

    attempt: Attempt
    item: Item
    order: tuple[int, ...]
    following: int | None  # the position asked after this one, None if this is the last
    progress: Progress  # before this answer
    answers: Mapping[str, Answer]  # before this answer


async def _check_asked(
    services: Services, attempt_id: int, position: int, user_id: int
) -> _Asked | _Refusal:
    attempt = await services.storage.learners.get_attempt(attempt_id)
    if attempt is None:
        return _Refusal("stale_button")
    if attempt.user_id != user_id:
        return _Refusal("not_your_quiz")
    if attempt.finished:
        return _Refusal("quiz_finished_already")
    if position >= attempt.total:
        return _Refusal("stale_button")
    item = resolve(services.catalog, attempt, attempt.question_ids[position])
    if item is None:
        if attempt.kind == REVIEW or services.catalog.get(attempt.quiz_id) is not None:
            return _Refusal("tap_on_retired", resume=attempt)
        return _Refusal("quiz_gone")
    answers = await services.storage.learners.answers(attempt.id)
    if item.key in answers:
        return _Refusal("already_answered")
    now = progress(services.catalog, attempt, answers.keys())
    if now.next_item != item.key:
        return _Refusal("stale_button")
    after = now.with_answer(item.key).next_item
    following = None if after is None else attempt.question_ids.index(after)
    return _Asked(attempt, item, _order(attempt, item), following, now, answers)


async def _check_tap(
    services: Services,
    query: CallbackQuery,
    attempt_id: int,
    position: int,
    locale: Locale,
    types: frozenset[QuestionType],
    place: int | None = None,
) -> _Asked | None:
    """The question a tap answers or acts on, or None once the learner was told why not (a
    stale button, someone else's quiz; a retired question moves on to the next)."""
    checked = await _check_asked(services, attempt_id, position, query.from_user.id)
    if isinstance(checked, _Asked):
        question = checked.item.question
        wrong_place = place is not None and place >= choice_count(question)
        if question.type in types and not wrong_place:
            return checked
        checked = _Refusal("stale_button")
    await query.answer(locale.t(checked.key))
    if checked.resume is not None:
        chat_id = query.message.chat.id if query.message else query.from_user.id
        await _continue(query.get_bot(), services, chat_id, checked.resume, locale, resuming=False)
    return None  # fmt: skip


async def _record(
    services: Services,
    asked: _Asked,
    chosen: int,
    grade: Grade,
    asked_at: float | None,
    reply: str | None = None,
) -> AnswerOutcome:
    """Store the answer, with the review of its card (computed in the answer's own
    transaction from the card stored then: FSRS rates Good only when fully right), and
    finish the attempt with its last answer; committed before the caller acknowledges."""
    attempt, item = asked.attempt, asked.item
    now = services.clock()
    seconds = now - asked_at if asked_at is not None and asked_at <= now else None
    result = None
    if asked.following is None:  # the last answer: the score of what the attempt asked
        answered = {key: answer.score for key, answer in asked.answers.items()}
        summary = summarize(asked.progress.items, {**answered, item.key: float(grade.score)})
        result = (summary.score, summary.total)
    partial = item.question.type is QuestionType.MULTIPLE
    return await services.storage.learners.record_answer(
        attempt,
        item.key,
        chosen,
        grade.fully_right,
        now,
        finishes=asked.following is None,
        card=CardReview(grade.fully_right, seconds),
        result=result,
        credit=float(grade.score) if partial else None,
        reply=reply,
    )


def _placed(
    attempt: Attempt, item: Item, order: Sequence[int], numbering: Progress
) -> render.Placed:
    """The attempt's question `item` as the learner meets it, numbered among those that
    still count."""
    return render.Placed(
        item.quiz,
        item.question,
        attempt.question_ids.index(item.key),
        total=numbering.total,
        number=numbering.number(item.key),
        order=order,
        review=attempt.kind == REVIEW,
    )


def _reveal(asked: _Asked, given: render.Given, locale: Locale) -> Rendered:
    placed = _placed(asked.attempt, asked.item, asked.order, asked.progress)
    return render.reveal_message(placed, given, locale)


async def _move_on(
    bot: Bot,
    services: Services,
    chat_id: int,
    asked: _Asked,
    outcome: AnswerOutcome,
    locale: Locale,
    shown_in: int | None,
) -> None:
    """After the reveal: the explanation's picture, then the next question or the summary."""
    image = asked.item.question.explanation_image
    if image is not None:
        await pictures.send_picture(bot, services, chat_id, image, reply_to=shown_in)
    if outcome.finished or asked.following is None:
        await services.storage.learners.stop_awaiting(asked.attempt.user_id)
        await send_summary(bot, services, chat_id, asked.attempt, locale)
    else:
        await send_question(bot, services, chat_id, asked.attempt, asked.following, locale)


def _asked_at(query: CallbackQuery) -> float | None:
    return query.message.date.timestamp() if query.message is not None else None


async def _acknowledge(
    bot: Bot, query: CallbackQuery, asked: _Asked, toast: str, reveal: Rendered
) -> int | None:
    """The answer is committed: a failed acknowledgement or edit must not stop the session,
    and a failed acknowledgement must not cost the reveal."""
    key = f"{asked.attempt.id}/{asked.item.key}"
    try:
        await query.answer(toast)
    except TelegramError as error:
        log.warning("answer %s stored, but its toast failed: %s", key, error)
    try:
        return await pictures.show_on(bot, query, reveal)
    except TelegramError as error:
        log.warning("answer %s stored, but its reveal failed: %s", key, error)
        return None


def _chat_of(query: CallbackQuery) -> int:
    return query.message.chat.id if query.message else query.from_user.id


async def take_answer(
    bot: Bot, services: Services, query: CallbackQuery, tap: AnswerTap, locale: Locale
) -> None:
    """A single or true/false question answered with one tap: recorded with its card update
    (committed first), then acknowledged, revealed, and the next question asked."""
    asked = await _check_tap(
        services, query, tap.attempt_id, tap.position, locale, ONE_TAP, tap.place
    )
    if asked is None:
        return
    question = asked.item.question
    chosen = asked.order[tap.place]  # the choice of the bank shown at the place tapped
    grade = Grade.of(chosen in right_choices(question))
    outcome = await _record(services, asked, chosen, grade, _asked_at(query))
    if not outcome.recorded:
        await query.answer(locale.t("already_answered"))
        return
    given = render.Tapped(tap.place)
    toast = render.answer_toast(question, given, locale, asked.order)
    shown_in = await _acknowledge(bot, query, asked, toast, _reveal(asked, given, locale))
    await _move_on(bot, services, _chat_of(query), asked, outcome, locale, shown_in)


async def toggle_pick(
    bot: Bot, services: Services, query: CallbackQuery, tap: PickOption, locale: Locale
) -> None:
    """An option of a multiple question picked or unpicked: the selection is stored, told in
    the toast, and the keyboard redrawn with it."""
    asked = await _check_tap(
        services, query, tap.attempt_id, tap.position, locale, MULTIPLE, tap.place
    )
    if asked is None:
        return
    option = asked.order[tap.place]
    picks = await services.storage.learners.toggle_pick(
        asked.attempt.id, asked.item.key, option, services.clock()
    )
    places = frozenset(asked.order.index(o) for o in picks)
    toast = locale.t("picked_toast", letters=letters(places)) if places else locale.t("picked_none")
    await query.answer(toast)
    placed = _placed(asked.attempt, asked.item, asked.order, asked.progress)
    message = render.question_message(placed, asked.attempt.id, locale, places)
    try:
        await query.edit_message_reply_markup(message.markup)
    except BadRequest as error:
        if "not modified" not in str(error).lower():
            raise


async def submit_picks(
    bot: Bot, services: Services, query: CallbackQuery, tap: SubmitPicks, locale: Locale
) -> None:
    """A multiple question's selection submitted: graded with partial credit, recorded,
    revealed; refused with a toast while nothing is picked."""
    asked = await _check_tap(services, query, tap.attempt_id, tap.position, locale, MULTIPLE)
    if asked is None:
        return
    key = asked.item.question.key
    assert isinstance(key, MultipleAnswer)
    picks = await services.storage.learners.picks(asked.attempt.id, asked.item.key)
    if not picks:
        await query.answer(locale.t("pick_first"))
        return
    chosen = sum(1 << option for option in picks)
    outcome = await _record(services, asked, chosen, grade_multiple(picks, key), _asked_at(query))
    if not outcome.recorded:
        await query.answer(locale.t("already_answered"))
        return
    given = render.Picked(frozenset(asked.order.index(o) for o in picks))
    toast = render.answer_toast(asked.item.question, given, locale, asked.order)
    shown_in = await _acknowledge(bot, query, asked, toast, _reveal(asked, given, locale))
    await _move_on(bot, services, _chat_of(query), asked, outcome, locale, shown_in)


async def take_reply(
    bot: Bot, services: Services, message: Message, user_id: int, locale: Locale
) -> None:
    """A learner's text message: the answer to the numeric or typed question that waits for
    one (sent after it, or as a reply to it). A reply that is no number, or a number written
    with digit grouping, is not an answer: the learner is told and may try again. With no
    question waiting, or as a reply to another message, it changes nothing."""
    learners = services.storage.learners
    awaited = await learners.awaited_reply(user_id)
    if awaited is None:
        await message.reply_text(locale.t("plain_text"))
        return
    replied_to = message.reply_to_message
    if replied_to is not None and not awaited.asked_in(replied_to.message_id):
        await message.reply_text(locale.t("reply_not_current"), do_quote=True)
        return
    checked = await _check_asked(services, awaited.attempt_id, awaited.position, user_id)
    if isinstance(checked, _Refusal) or not takes_reply(checked.item.question):
        await learners.stop_awaiting(user_id)  # answered, finished or retired meanwhile
        resume = checked.resume if isinstance(checked, _Refusal) else None
        if resume is not None:
            await _continue(bot, services, message.chat.id, resume, locale, resuming=False)
        else:
            await message.reply_text(locale.t("plain_text"))
        return
    text = message.text or ""
    judged = judge_reply(checked.item.question, text)
    if isinstance(judged, str):
        await message.reply_text(
            _not_an_answer(judged, checked.item.question, text, locale), do_quote=True
        )
        return
    reply = clip(text, MAX_STORED_REPLY)
    outcome = await _record(services, checked, -1, judged, awaited.asked_at, reply)
    if not outcome.recorded:
        await message.reply_text(locale.t("already_answered"))
        return
    reveal = _reveal(checked, render.Replied(text, judged.fully_right), locale)
    shown_in = None
    try:
        sent = await message.reply_text(reveal.text, reply_markup=reveal.markup, do_quote=True)
        shown_in = sent.message_id
    except TelegramError as error:
        log.warning("answer %s/%s stored, but its reveal failed: %s",
                    checked.attempt.id, checked.item.key, error)  # fmt: skip
    await _move_on(bot, services, message.chat.id, checked, outcome, locale, shown_in)


MAX_STORED_REPLY = 500  # characters of a typed reply kept with its answer
NOT_A_NUMBER, GROUPED, EMPTY = "not_a_number", "grouped", "empty"


def judge_reply(question: Question, text: str) -> Grade | str:
    """A typed reply judged against its question, or why it is not an answer."""
    match question.key:
        case NumericAnswer() as key:
            judged = grade_number(text, key)
            if isinstance(judged, DigitGrouping):
                return GROUPED
            if isinstance(judged, NotANumber):
                return NOT_A_NUMBER
            return judged
        case TypedAnswer(strict_diacritics=strict) as key:
            if not normalize(text, strict):
                return EMPTY
            return grade_typed(text, key)
    raise TypeError(f"question {question.id} is {question.type}: it takes no typed reply")


def _not_an_answer(why: str, question: Question, text: str, locale: Locale) -> str:
    if why == GROUPED:
        key = question.key
        assert isinstance(key, NumericAnswer)
        reading = read_number(text, key.unit)
        assert isinstance(reading, DigitGrouping)
        if reading.as_decimal is not None:
            return locale.t(
                "digit_grouping_ambiguous",
                ungrouped=reading.ungrouped,
                as_decimal=reading.as_decimal,
            )
        return locale.t("digit_grouping", ungrouped=reading.ungrouped)
    return locale.t("empty_reply" if why == EMPTY else "not_a_number")


ONE_TAP = frozenset({QuestionType.SINGLE, QuestionType.TRUE_FALSE})
MULTIPLE = frozenset({QuestionType.MULTIPLE})
