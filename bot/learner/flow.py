"""A learner's attempt in a private chat, a quiz or a review session: open it, ask the next
question, take an answer.

Every decision is made against stored state; callback data only names what was tapped.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from telegram import Bot, CallbackQuery, Message
from telegram.error import BadRequest, TelegramError

from bot.core import pictures
from bot.core.callbacks import AnswerTap, PickOption, PractiseMissed, SubmitPicks
from bot.core.context import Services
from bot.core.i18n import Locale
from bot.core.render import (
    Rendered,
    answer_toast,
    choice_count,
    letters,
    picture_line,
    takes_reply,
)
from bot.learner import exam_end, exams, render
from content import grading
from content.answers import DigitGrouping
from content.catalog import Catalog
from content.grading import Choice, Grade, NumberReply, Selection, TextReply
from content.model import Guide, Question, QuestionType, Quiz, clip
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
from content.study import (
    AHEAD_DAYS,
    FORGOTTEN_DAYS,
    RETENTION_DAYS,
    CardCounts,
    card_counts,
    comes_back,
    day_end,
    day_start,
)
from storage import (
    EXAM,
    PRACTICE,
    REVIEW,
    REVIEW_QUIZ_ID,
    Answer,
    AnswerOutcome,
    Attempt,
    CardReview,
    QuizRecord,
    StoredCard,
    User,
    attempt_item_parts,
    names_items,
    practice_of,
    review_item,
)

log = logging.getLogger(__name__)

REVIEW_SESSION_SIZE = 20
DAY = 86_400


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
    zone, the reviews due now and by the end of their day, their cards by kind, their true
    retention over 30 days and their daily goal."""
    learners, now = services.storage.learners, services.clock()
    tz = learner_zone(services, learner)
    utc_offset = datetime.fromtimestamp(now, tz).utcoffset()
    offset = int(utc_offset.total_seconds()) if utc_offset is not None else 0
    days = await learners.study_days(learner.user_id, offset)
    records = await quiz_records(services, learner.user_id)
    cards = await learners.cards(learner.user_id)
    latest_by_quiz = await learners.latest_answers_by_quiz(learner.user_id)
    # a heavy learner's thousands of cards parsed: off the event loop
    by_quiz, kinds = await asyncio.to_thread(
        _mastery, services.catalog, records, cards, latest_by_quiz, now
    )
    goal = None
    if learner.daily_goal is not None:
        done = await learners.count_reviews(learner.user_id, day_start(now, tz))
        goal = render.Goal(learner.daily_goal, done)
    overview = render.Overview(
        streak=streak(days, int((now + offset) // 86400)),
        due_now=await learners.count_due(learner.user_id, now),
        due_today=await learners.count_due(learner.user_id, day_end(now, tz)),
        cards=kinds,
        retention=await learners.review_counts(learner.user_id, now - RETENTION_DAYS * DAY),
        goal=goal,
    )
    return Standing(records, by_quiz, overview)


def _mastery(
    catalog: Catalog,
    records: Mapping[str, QuizRecord],
    cards: Sequence[StoredCard],
    latest_by_quiz: Mapping[str, Mapping[str, Answer]],
    now: float,
) -> tuple[dict[str, Mastery], CardCounts]:
    """The mastery of each quiz the learner touched, and their cards by kind (the questions
    of those quizzes without a card counted as new)."""
    cards_by_quiz: dict[str, dict[str, str]] = {}
    for card in cards:
        cards_by_quiz.setdefault(card.quiz_id, {})[card.question_id] = card.card_json
    by_quiz = {}
    unseen = 0
    for quiz in catalog:
        if quiz.id in cards_by_quiz or quiz.id in records:
            latest = latest_by_quiz.get(quiz.id, {})
            correct = {qid: answer.correct for qid, answer in latest.items()}
            seen = cards_by_quiz.get(quiz.id, {})
            by_quiz[quiz.id] = mastery(quiz, seen, correct, now)
            unseen += sum(1 for question in quiz.questions if question.id not in seen)
    return by_quiz, card_counts((card.card_json for card in cards), unseen)


def learner_zone(services: Services, learner: User | None) -> tzinfo:
    """The learner's time zone, else the bot's default."""
    stored = learner.timezone if learner is not None else None
    return zone(stored or services.settings.default_timezone)


async def _zone_of(services: Services, user_id: int) -> tzinfo:
    return learner_zone(services, await services.storage.learners.get_user(user_id))


def _order(attempt: Attempt, item: Item) -> tuple[int, ...]:
    """The choices' order on screen, per attempt; True always comes before False."""
    shuffle = item.quiz.shuffle_options and item.question.type is not QuestionType.TRUE_FALSE
    return option_order(attempt.id, item.key, choice_count(item.question), shuffle=shuffle)


async def open_quiz(
    bot: Bot, services: Services, chat_id: int, user_id: int, quiz: Quiz, locale: Locale
) -> None:
    """Start the quiz, or continue the running attempt at its first unanswered question; not
    while the learner takes an exam of it (its answers stay hidden until it ends)."""
    if quiz.id in await services.storage.exams.hidden_quizzes(user_id, services.clock()):
        await bot.send_message(chat_id, locale.t("exam_running_refusal", quiz_id=quiz.id))
        return
    learners = services.storage.learners
    attempt = await learners.running_attempt(user_id, quiz.id)
    resuming = attempt is not None
    if attempt is None:
        attempt = await learners.start_attempt(
            user_id, quiz.id, attempt_order(quiz), services.clock()
        )
    await _continue(bot, services, chat_id, attempt, locale, resuming)


DUE, AHEAD, FORGOTTEN = "due", "ahead", "forgotten"  # which cards a new review session takes


async def open_review(
    bot: Bot, services: Services, chat_id: int, user_id: int, locale: Locale, cards: str = DUE
) -> None:
    """Continue the running review session, or start one of the cards due now (`DUE`), due
    within a few days (`AHEAD`: studying ahead, scheduled by FSRS from each card's
    retrievability now), or forgotten lately (`FORGOTTEN`). With nothing to take: when the
    next review is, and the offers to review ahead or what was forgotten. Not while the
    learner takes an exam (a review would reveal its questions' answers)."""
    hidden = await services.storage.exams.hidden_quizzes(user_id, services.clock())
    if hidden:
        await bot.send_message(chat_id, locale.t("exam_running_refusal", quiz_id=min(hidden)))
        return
    learners = services.storage.learners
    now = services.clock()
    attempt = await learners.running_attempt(user_id, REVIEW_QUIZ_ID)
    resuming = attempt is not None
    if attempt is None:
        due = _playable(services, await _review_cards(services, user_id, now, cards))
        if not due:
            await _nothing_to_review(bot, services, chat_id, user_id, now, cards, locale)
            return
        attempt = await learners.start_attempt(
            user_id, REVIEW_QUIZ_ID, tuple(due[:REVIEW_SESSION_SIZE]), now, kind=REVIEW
        )
    await _continue(bot, services, chat_id, attempt, locale, resuming)


async def _review_cards(
    services: Services, user_id: int, now: float, cards: str
) -> list[StoredCard]:
    learners = services.storage.learners
    if cards == AHEAD:
        return await learners.due_cards(user_id, now + AHEAD_DAYS * DAY)
    if cards == FORGOTTEN:
        return await learners.lapsed_cards(user_id, now - FORGOTTEN_DAYS * DAY)
    return await learners.due_cards(user_id, now)


def _playable(services: Services, cards: Sequence[StoredCard]) -> list[str]:
    """The review items of the cards whose question is still in the catalog."""
    return [
        review_item(card.quiz_id, card.question_id)
        for card in cards
        if (quiz := services.catalog.get(card.quiz_id)) is not None
        and quiz.question(card.question_id) is not None
    ]


async def _nothing_to_review(
    bot: Bot, services: Services, chat_id: int, user_id: int, now: float, cards: str,
    locale: Locale,
) -> None:  # fmt: skip
    learners = services.storage.learners
    if cards == AHEAD:
        message = Rendered(locale.t("review_ahead_none"))
    elif cards == FORGOTTEN:
        message = Rendered(locale.t("review_forgotten_none"))
    else:
        soon = _playable(services, await _review_cards(services, user_id, now, AHEAD))
        lapsed = _playable(services, await _review_cards(services, user_id, now, FORGOTTEN))
        ahead = render.Ahead(len(soon), len(lapsed))
        message = render.nothing_due(await learners.next_due(user_id, now), now, ahead, locale)
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


async def practise(
    bot: Bot, services: Services, query: CallbackQuery, tap: PractiseMissed, locale: Locale
) -> None:
    """ "Practise the N you missed": a round of exactly the questions that attempt got wrong
    (its options shuffled anew), started or, while it runs, continued."""
    learners = services.storage.learners
    source = await learners.get_attempt(tap.attempt_id)
    if source is None or not source.finished:
        await query.answer(locale.t("stale_button"))
        return
    if source.user_id != query.from_user.id:
        await query.answer(locale.t("not_your_quiz"))
        return
    offer = await _practice_offer(services, source)
    if offer.waits:
        await query.answer(locale.t("practice_after_deadline"))
        return
    closed = (
        await exam_end.answers_closed(services, source.id, locale) if source.kind == EXAM else None
    )
    if closed is not None:  # a practice reveals the right answers, as the review would
        await query.answer(closed)
        return
    missed = await _missed_items(services, source)
    if not missed:
        await query.answer(locale.t("practice_nothing"))
        return
    await query.answer()
    chat_id = _chat_of(query)
    running = await learners.running_attempt(source.user_id, practice_of(source.id))
    if running is not None:  # pressed again while the round runs: where it stands
        await _continue(bot, services, chat_id, running, locale, resuming=True)
        return
    attempt = await learners.start_attempt(
        source.user_id, practice_of(source.id), missed, services.clock(), kind=PRACTICE
    )
    await bot.send_message(chat_id, render.practice_intro(attempt.total, locale))
    await _continue(bot, services, chat_id, attempt, locale, resuming=False)


async def _missed_items(services: Services, attempt: Attempt) -> tuple[str, ...]:
    """What an attempt got wrong (not fully right) among the questions still in the catalog,
    as review items, in its order."""
    answers = await services.storage.learners.answers(attempt.id)
    summary = _summary(progress(services.catalog, attempt, answers.keys()), answers)
    return tuple(
        review_item(*attempt_item_parts(attempt, key))
        for key in summary.missed
        if key in answers and resolve(services.catalog, attempt, key) is not None
    )


async def _practice_offer(services: Services, attempt: Attempt) -> render.Practice:
    """The offer to practise what a finished attempt missed; a homework's waits for its
    deadline."""
    missed = len(await _missed_items(services, attempt))
    homework = (
        await services.storage.homework.get(attempt.assignment_id)
        if attempt.assignment_id is not None
        else None
    )
    waits = homework is not None and homework.deadline > services.clock()
    return render.Practice(attempt.id, missed, waits)


async def open_attempt(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, locale: Locale
) -> None:
    """Ask an attempt another feature started (an `AttemptOpener`, handed to it by
    `bot/app.py`): its next question, or its summary if nothing is left."""
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
    photo_id = None
    if question.image is not None:
        alt = picture_line(question, locale)
        sent = await pictures.send_with_picture(
            bot, services, chat_id, question.image, alt, message
        )
        message_id = sent.message.message_id
        photo_id = sent.photo.message_id if sent.photo is not None else None
    else:
        message_id = await pictures.send_text(bot, chat_id, message)
    if takes_reply(question):
        await learners.await_reply(
            attempt.user_id,
            attempt.id,
            position,
            message_id,
            services.clock(),
            photo_message_id=photo_id,
        )
    else:
        await learners.stop_awaiting(attempt.user_id)


async def send_summary(
    bot: Bot, services: Services, chat_id: int, attempt: Attempt, locale: Locale
) -> None:
    """The end of an attempt: a review's, a practice round's or a quiz's summary, each with
    the offer to practise what it missed."""
    answers = await services.storage.learners.answers(attempt.id)
    summary = _summary(progress(services.catalog, attempt, answers.keys()), answers)
    offer = await _practice_offer(services, attempt)
    if names_items(attempt.kind):
        now = services.clock()
        next_due = await services.storage.learners.next_due(attempt.user_id, now)
        if attempt.kind == PRACTICE:
            sections = _sections(services, attempt)
            message = render.practice_summary(summary, next_due, now, sections, offer, locale)
        else:
            message = render.review_summary(summary, next_due, now, locale, offer)
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
    message = render.summary_message(quiz, summary, best, locale, offer)
    await bot.send_message(chat_id, message.text, reply_markup=message.markup)


def _sections(services: Services, attempt: Attempt) -> list[Guide]:
    """The sections of the guides that teach an attempt's questions, each once, in order."""
    found: dict[str, Guide] = {}
    for key in attempt.question_ids:
        item = resolve(services.catalog, attempt, key)
        guide = item.quiz.guide_of(item.question) if item is not None else None
        if guide is not None:
            found.setdefault(guide.url, guide)
    return list(found.values())


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
    if attempt is None or attempt.kind == EXAM:  # an exam's questions take exams' buttons
        return _Refusal("stale_button")
    if attempt.user_id != user_id:
        return _Refusal("not_your_quiz")
    if attempt.finished:
        return _Refusal("quiz_finished_already")
    if position >= attempt.total:
        return _Refusal("stale_button")
    item = resolve(services.catalog, attempt, attempt.question_ids[position])
    if item is None:
        if names_items(attempt.kind) or services.catalog.get(attempt.quiz_id) is not None:
            return _Refusal("tap_on_retired", resume=attempt)
        return _Refusal("quiz_gone")
    if item.quiz.id in await services.storage.exams.hidden_quizzes(user_id, services.clock()):
        return _Refusal("exam_running")  # an answer shown now would be a key to the exam
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
    services: Services, asked: _Asked, grade: Grade, asked_at: float | None
) -> AnswerOutcome:
    """Store the answer as graded, with the review of its card (computed in the answer's own
    transaction from the card stored then: FSRS rates Good only when fully right), and
    finish the attempt with its last answer; committed before the caller acknowledges."""
    attempt, item = asked.attempt, asked.item
    now = services.clock()
    seconds = now - asked_at if asked_at is not None and asked_at <= now else None
    result = None
    if asked.following is None:  # the last answer: the score of what the attempt asked
        answered = {key: answer.score for key, answer in asked.answers.items()}
        summary = summarize(asked.progress.items, {**answered, item.key: float(grade.credit)})
        result = (summary.score, summary.total)
    response = grade.response
    reply = response.text if isinstance(response, NumberReply | TextReply) else None
    return await services.storage.learners.record_answer(
        attempt,
        item.key,
        grading.chosen_column(response),
        grade.fully_right,
        now,
        finishes=asked.following is None,
        card=CardReview(grade.fully_right, seconds, practice=attempt.kind == PRACTICE),
        result=result,
        credit=float(grade.credit) if grading.scored_in_parts(item.question) else None,
        reply=None if reply is None else clip(reply, MAX_STORED_REPLY),
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
        practice=attempt.kind == PRACTICE,
    )


async def _reveal(
    services: Services, asked: _Asked, grade: Grade, outcome: AnswerOutcome, locale: Locale
) -> Rendered:
    """The reveal, ending with the section to read after a miss and when the card just
    stored comes back, in the learner's time zone."""
    placed = _placed(asked.attempt, asked.item, asked.order, asked.progress)
    back = None
    if outcome.card is not None:
        tz = await _zone_of(services, asked.attempt.user_id)
        back = comes_back(outcome.card.due, services.clock(), tz)
    read = None if grade.fully_right else asked.item.quiz.guide_of(asked.item.question)
    return render.reveal_message(placed, grade, locale, render.Footer(read, back))


async def _move_on(
    bot: Bot,
    services: Services,
    chat_id: int,
    asked: _Asked,
    outcome: AnswerOutcome,
    locale: Locale,
    shown_in: int | None,
) -> None:
    """After the reveal: the explanation's picture, a word about a card that became a leech,
    then the next question or the summary."""
    image = asked.item.question.explanation_image
    if image is not None:
        await pictures.send_picture(bot, services, chat_id, image, reply_to=shown_in)
    if outcome.card is not None and outcome.card.tell_leech:
        item = asked.item
        told = render.leech_message(outcome.card.lapses, item.quiz.guide_of(item.question), locale)
        await bot.send_message(chat_id, told.text)
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


async def _answered(
    bot: Bot, services: Services, query: CallbackQuery, asked: _Asked, grade: Grade,
    locale: Locale,
) -> None:  # fmt: skip
    """A tapped answer, graded: recorded with its card update (committed first), then
    acknowledged, revealed, and the next question asked; a second tap is only told so."""
    outcome = await _record(services, asked, grade, _asked_at(query))
    if not outcome.recorded:
        await query.answer(locale.t("already_answered"))
        return
    toast = answer_toast(asked.item.question, grade, locale, asked.order)
    reveal = await _reveal(services, asked, grade, outcome, locale)
    shown_in = await _acknowledge(bot, query, asked, toast, reveal)
    await _move_on(bot, services, _chat_of(query), asked, outcome, locale, shown_in)


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
    chosen = Choice(asked.order[tap.place])  # the choice of the bank shown at the place tapped
    await _answered(bot, services, query, asked, grading.grade(question, chosen), locale)


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
    question = asked.item.question
    picks = await services.storage.learners.picks(asked.attempt.id, asked.item.key)
    if not picks:
        await query.answer(locale.t("pick_first"))
        return
    await _answered(bot, services, query, asked, grading.grade(question, Selection(picks)), locale)


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
    if await services.storage.exams.get(awaited.attempt_id) is not None:
        unreadable = await exams.take_reply(bot, services, message, awaited, locale)
        if unreadable is not None:
            await message.reply_text(_not_an_answer(unreadable, locale), do_quote=True)
        return
    checked = await _check_asked(services, awaited.attempt_id, awaited.position, user_id)
    if isinstance(checked, _Refusal) or not takes_reply(checked.item.question):
        await learners.stop_awaiting(user_id)  # answered, finished or retired meanwhile
        resume = checked.resume if isinstance(checked, _Refusal) else None
        if resume is not None:
            await _continue(bot, services, message.chat.id, resume, locale, resuming=False)
        elif isinstance(checked, _Refusal) and checked.key == "exam_running":
            await message.reply_text(locale.t("exam_running"))
        else:
            await message.reply_text(locale.t("plain_text"))
        return
    reading = grading.read_reply(checked.item.question, message.text or "")
    if not isinstance(reading, NumberReply | TextReply):
        await message.reply_text(_not_an_answer(reading, locale), do_quote=True)
        return
    grade = grading.grade(checked.item.question, reading)
    outcome = await _record(services, checked, grade, awaited.asked_at)
    if not outcome.recorded:
        await message.reply_text(locale.t("already_answered"))
        return
    reveal = await _reveal(services, checked, grade, outcome, locale)
    shown_in = None
    try:
        sent = await message.reply_text(reveal.text, reply_markup=reveal.markup, do_quote=True)
        shown_in = sent.message_id
    except TelegramError as error:
        log.warning("answer %s/%s stored, but its reveal failed: %s",
                    checked.attempt.id, checked.item.key, error)  # fmt: skip
    await _move_on(bot, services, message.chat.id, checked, outcome, locale, shown_in)


MAX_STORED_REPLY = 500  # characters of a typed reply kept with its answer


def _not_an_answer(reading: grading.Unreadable, locale: Locale) -> str:
    """Why a reply is no answer: a number written with digit grouping (and how to write it),
    no number at all, or nothing left to compare."""
    if isinstance(reading, DigitGrouping):
        if reading.as_decimal is not None:
            return locale.t(
                "digit_grouping_ambiguous",
                ungrouped=reading.ungrouped,
                as_decimal=reading.as_decimal,
            )
        return locale.t("digit_grouping", ungrouped=reading.ungrouped)
    return locale.t("empty_reply" if isinstance(reading, grading.EmptyReply) else "not_a_number")


ONE_TAP = frozenset({QuestionType.SINGLE, QuestionType.TRUE_FALSE})
MULTIPLE = frozenset({QuestionType.MULTIPLE})
