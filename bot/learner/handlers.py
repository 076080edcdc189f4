"""A learner in a private chat: commands and buttons. Each handler is thin: look up, call, send."""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler

from bot.core import arguments, callbacks
from bot.core.arguments import Refusal
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, TapHandler
from bot.core.i18n import Locale, language_name, ui_languages
from bot.core.render import Rendered, person
from bot.learner import flow, render
from content.model import Quiz
from content.progress import mastery
from content.rules import streak as streak_of_days
from content.rules import zone

log = logging.getLogger(__name__)

FORGET_CONFIRM_SECONDS = 10 * 60  # a /forgetme confirmation left lying around expires


async def _send_quiz_list(update: Update, context: QuizContext, locale: Locale) -> None:
    services = context.services
    assert update.effective_user and update.effective_chat
    records = await flow.quiz_records(services, update.effective_user.id)
    for message in render.quiz_list(list(services.catalog), records, locale):
        await context.bot.send_message(
            update.effective_chat.id, message.text, reply_markup=message.markup
        )


async def _refuse(update: Update, context: QuizContext, refusal: Refusal, locale: Locale) -> None:
    assert update.effective_chat
    await context.bot.send_message(update.effective_chat.id, refusal.text(locale))


async def _open(update: Update, context: QuizContext, quiz_id: str, locale: Locale) -> None:
    """A quiz chosen by a button: still there, or gone since the button was drawn."""
    assert update.effective_chat
    quiz = context.services.catalog.get(quiz_id)
    if quiz is None:
        unknown = locale.t("unknown_quiz", quiz_id=arguments.echo(quiz_id))
        await context.bot.send_message(update.effective_chat.id, unknown)
        return
    await _open_quiz(update, context, quiz, locale)


async def _open_quiz(update: Update, context: QuizContext, quiz: Quiz, locale: Locale) -> None:
    assert update.effective_user and update.effective_chat
    await flow.open_quiz(
        context.bot,
        context.services,
        update.effective_chat.id,
        update.effective_user.id,
        quiz,
        locale,
    )


async def start(update: Update, context: QuizContext) -> None:
    """Welcome, then the quiz list; `/start quiz-<id>` opens that quiz directly."""
    assert update.effective_user and update.effective_chat
    _, locale = await context.services.learner(update.effective_user)
    deep_link = arguments.start(context.args, context.services.catalog)
    if isinstance(deep_link, Refusal):
        await _refuse(update, context, deep_link, locale)
    elif deep_link is not None:
        await _open_quiz(update, context, deep_link, locale)
    else:
        name = person(update.effective_user.first_name, locale)
        await context.bot.send_message(update.effective_chat.id, locale.t("welcome", name=name))
        await _send_quiz_list(update, context, locale)


async def quizzes(update: Update, context: QuizContext) -> None:
    """The quizzes with level, size and the learner's progress."""
    assert update.effective_user
    _, locale = await context.services.learner(update.effective_user)
    await _send_quiz_list(update, context, locale)


async def quiz(update: Update, context: QuizContext) -> None:
    """`/quiz <id>`: start or resume that quiz."""
    assert update.effective_user
    _, locale = await context.services.learner(update.effective_user)
    chosen = arguments.quiz(context.args, context.services.catalog)
    if isinstance(chosen, Refusal):
        await _refuse(update, context, chosen, locale)
        return
    await _open_quiz(update, context, chosen, locale)


async def preview(update: Update, context: QuizContext) -> None:
    """`/preview <id>`: every question and its options, without the answers."""
    assert update.effective_user
    _, locale = await context.services.learner(update.effective_user)
    chosen = arguments.preview(context.args, context.services.catalog)
    if isinstance(chosen, Refusal):
        await _refuse(update, context, chosen, locale)
        return
    await _send_preview(update, context, chosen.id, locale)


async def _send_preview(update: Update, context: QuizContext, quiz_id: str, locale: Locale) -> None:
    assert update.effective_chat
    found = context.services.catalog.get(quiz_id)
    if found is None:
        unknown = locale.t("unknown_quiz", quiz_id=arguments.echo(quiz_id))
        await context.bot.send_message(update.effective_chat.id, unknown)
        return
    for message in render.preview_messages(found, locale):
        await context.bot.send_message(
            update.effective_chat.id, message.text, reply_markup=message.markup
        )


async def progress(update: Update, context: QuizContext) -> None:
    """Per quiz: mastery bar, scores, weak spots; overall: streak and reviews due."""
    assert update.effective_user and update.effective_chat
    services = context.services
    user, locale = await services.learner(update.effective_user)
    learners, now = services.storage.learners, services.clock()
    tz = zone(user.timezone or services.settings.default_timezone)
    local_now = datetime.fromtimestamp(now, tz)
    end_of_day = datetime.combine(local_now.date() + timedelta(days=1), time(), tz).timestamp()
    utc_offset = local_now.utcoffset()
    offset = int(utc_offset.total_seconds()) if utc_offset is not None else 0
    days = await learners.study_days(user.user_id, offset)
    today = int((now + offset) // 86400)
    overview = render.Overview(
        streak=streak_of_days(days, today),
        due_now=await learners.count_due(user.user_id, now),
        due_today=await learners.count_due(user.user_id, end_of_day),
    )
    records = await flow.quiz_records(services, user.user_id)
    cards_by_quiz: dict[str, dict[str, str]] = {}
    for card in await learners.cards(user.user_id):
        cards_by_quiz.setdefault(card.quiz_id, {})[card.question_id] = card.card_json
    standing = {}
    for quiz in services.catalog:
        if quiz.id in cards_by_quiz or quiz.id in records:
            latest = await learners.latest_answers(user.user_id, quiz.id)
            correct = {qid: answer.correct for qid, answer in latest.items()}
            standing[quiz.id] = mastery(quiz, cards_by_quiz.get(quiz.id, {}), correct, now)
    for message in render.progress_message(
        list(services.catalog), records, standing, overview, locale
    ):
        await context.bot.send_message(
            update.effective_chat.id, message.text, reply_markup=message.markup
        )


async def review(update: Update, context: QuizContext) -> None:
    """A session of the questions due now, across quizzes, most overdue first."""
    assert update.effective_user and update.effective_chat
    _, locale = await context.services.learner(update.effective_user)
    await flow.open_review(
        context.bot, context.services, update.effective_chat.id, update.effective_user.id, locale
    )


async def timezone(update: Update, context: QuizContext) -> None:
    """`/timezone Area/City` or `/timezone +01:00`: the zone reminders and streaks use."""
    assert update.effective_user and update.effective_chat
    services = context.services
    user, locale = await services.learner(update.effective_user)
    current = user.timezone or services.settings.default_timezone
    wanted = arguments.timezone(context.args, current)
    if isinstance(wanted, Refusal):
        await _refuse(update, context, wanted, locale)
        return
    await services.storage.learners.set_timezone(user.user_id, wanted, services.clock())
    await context.bot.send_message(
        update.effective_chat.id, locale.t("timezone_set", timezone=wanted)
    )


async def remind(update: Update, context: QuizContext) -> None:
    """`/remind HH:MM` for a daily reminder when reviews are due; `/remind off` to stop."""
    assert update.effective_user and update.effective_chat
    services = context.services
    user, locale = await services.learner(update.effective_user)
    chat_id = update.effective_chat.id
    tz = user.timezone or services.settings.default_timezone
    at = arguments.remind(context.args, tz, user.remind_at)
    if isinstance(at, Refusal):
        await _refuse(update, context, at, locale)
    elif isinstance(at, time):
        await services.storage.learners.set_reminder(
            user.user_id, at.strftime("%H:%M"), services.clock()
        )
        await context.bot.send_message(
            chat_id, locale.t("remind_set", time=at.strftime("%H:%M"), timezone=tz)
        )
    else:  # off
        await services.storage.learners.set_reminder(user.user_id, None, services.clock())
        await context.bot.send_message(chat_id, locale.t("remind_off"))


def _language_choices(context: QuizContext) -> list[str]:
    return sorted(ui_languages() | context.services.catalog.languages)


async def language(update: Update, context: QuizContext) -> None:
    """Buttons to choose the language of questions and of the interface."""
    assert update.effective_user and update.effective_chat
    _, locale = await context.services.learner(update.effective_user)
    message = render.language_menu(_language_choices(context), locale.language, locale)
    await context.bot.send_message(
        update.effective_chat.id, message.text, reply_markup=message.markup
    )


async def on_answer(update: Update, context: QuizContext, tap: callbacks.AnswerTap) -> None:
    """An option tapped: checked against the stored attempt, recorded, revealed."""
    query = update.callback_query
    assert query is not None
    _, locale = await context.services.learner(query.from_user)
    await flow.take_answer(context.bot, context.services, query, tap, locale)


async def on_language(update: Update, context: QuizContext, tap: callbacks.ChooseLanguage) -> None:
    query = update.callback_query
    assert query is not None
    services = context.services
    user, locale = await services.learner(query.from_user)
    if tap.language not in _language_choices(context):
        await query.answer(locale.t("stale_button"))
        return
    await services.storage.learners.set_language(user.user_id, tap.language, services.clock())
    locale = Locale(tap.language, locale.default)
    done = locale.t("language_set", language=language_name(tap.language))
    await query.answer(done)
    await flow.edit_quietly(query, Rendered(done))


async def on_list(update: Update, context: QuizContext, tap: callbacks.ListQuizzes) -> None:
    assert update.callback_query is not None
    _, locale = await context.services.learner(update.callback_query.from_user)
    await update.callback_query.answer()
    await _send_quiz_list(update, context, locale)


async def on_preview(update: Update, context: QuizContext, tap: callbacks.PreviewQuiz) -> None:
    assert update.callback_query is not None
    _, locale = await context.services.learner(update.callback_query.from_user)
    await update.callback_query.answer()
    await _send_preview(update, context, tap.quiz_id, locale)


async def on_open(update: Update, context: QuizContext, tap: callbacks.OpenQuiz) -> None:
    assert update.callback_query is not None
    _, locale = await context.services.learner(update.callback_query.from_user)
    await update.callback_query.answer()
    await _open(update, context, tap.quiz_id, locale)


async def on_review(update: Update, context: QuizContext, tap: callbacks.StartReview) -> None:
    assert update.callback_query is not None and update.effective_chat is not None
    user, locale = await context.services.learner(update.callback_query.from_user)
    await update.callback_query.answer()
    await flow.open_review(
        context.bot, context.services, update.effective_chat.id, user.user_id, locale
    )


async def forgetme(update: Update, context: QuizContext) -> None:
    """`/forgetme`: what deleting their data means, with buttons to confirm or cancel."""
    assert update.effective_user and update.effective_chat
    services = context.services
    locale = await services.locale_for(update.effective_user)  # records nothing
    message = render.forget_request(int(services.clock()), locale)
    await context.bot.send_message(
        update.effective_chat.id, message.text, reply_markup=message.markup
    )


async def on_forget(
    update: Update, context: QuizContext, tap: callbacks.ConfirmForget | callbacks.CancelForget
) -> None:
    """The learner's answer to `/forgetme`: delete everything of theirs, or nothing."""
    query = update.callback_query
    assert query is not None
    services = context.services
    locale = await services.locale_for(query.from_user)
    now = services.clock()
    if isinstance(tap, callbacks.CancelForget):
        outcome = "forget_kept"
    elif not 0 <= now - tap.asked_at <= FORGET_CONFIRM_SECONDS:
        outcome = "forget_expired"
    else:
        forgotten = await services.storage.privacy.forget_learner(query.from_user.id, now)
        log.info("a learner deleted their data (/forgetme): %s", forgotten.describe())
        outcome = "forget_done"
    await query.answer(locale.t(outcome))
    await flow.edit_quietly(query, Rendered(locale.t(outcome)))


def handlers() -> list[BaseHandler[Update, QuizContext, None]]:
    private = PRIVATE_MESSAGE
    return [
        CommandHandler("start", start, filters=private),
        CommandHandler("quizzes", quizzes, filters=private),
        CommandHandler("quiz", quiz, filters=private),
        CommandHandler("preview", preview, filters=private),
        CommandHandler("progress", progress, filters=private),
        CommandHandler("language", language, filters=private),
        CommandHandler("review", review, filters=private),
        CommandHandler("timezone", timezone, filters=private),
        CommandHandler("remind", remind, filters=private),
        CommandHandler("forgetme", forgetme, filters=private),
        TapHandler(callbacks.AnswerTap, on_answer),
        TapHandler(callbacks.ChooseLanguage, on_language),
        TapHandler(callbacks.ListQuizzes, on_list),
        TapHandler(callbacks.PreviewQuiz, on_preview),
        TapHandler(callbacks.OpenQuiz, on_open),
        TapHandler(callbacks.StartReview, on_review),
        TapHandler(callbacks.ConfirmForget, on_forget),
        TapHandler(callbacks.CancelForget, on_forget),
    ]
