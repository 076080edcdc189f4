"""A learner in a private chat: commands and buttons. Each handler is thin: read the
arguments, call the flow, send what the renderer drew. The learner and their locale are the
context's (`QuizContext.identify`)."""

from __future__ import annotations

import logging
from datetime import time
from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import BaseHandler, MessageHandler, filters

from bot.core import arguments, callbacks, commands, quiz_menus
from bot.core.arguments import Refusal
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.faults import edit_quietly
from bot.core.handlers import PRIVATE_MESSAGE, QuizMenuHandler, TapHandler, edit_in_place
from bot.core.i18n import Locale, language_name, ui_languages
from bot.core.quiz_menus import MenuFor
from bot.core.render import Rendered, person
from bot.learner import charts, exam_end, exams, flow, render
from content.model import Quiz
from content.rules import parse_timezone

log = logging.getLogger(__name__)

FORGET_CONFIRM_SECONDS = 10 * 60  # a /forgetme confirmation left lying around expires


async def _say_all(context: QuizContext, messages: list[Rendered]) -> None:
    for message in messages:
        await context.say(message.text, message.markup)


async def _send_quiz_list(context: QuizContext) -> None:
    records = await flow.quiz_records(context.services, context.learner.user_id)
    await _say_all(
        context, render.quiz_list(list(context.services.catalog), records, context.locale)
    )


async def _open(context: QuizContext, quiz_id: str) -> None:
    """A quiz chosen by a button: still there, or gone since the button was drawn."""
    quiz = context.services.catalog.get(quiz_id)
    if quiz is None:
        await context.say(context.locale.t("unknown_quiz", quiz_id=arguments.echo(quiz_id)))
        return
    await flow.open_quiz(
        context.bot,
        context.services,
        context.chat_id,
        context.learner.user_id,
        quiz,
        context.locale,
    )


async def _send_preview(context: QuizContext, quiz_id: str) -> None:
    quiz = context.services.catalog.get(quiz_id)
    if quiz is None:
        await context.say(context.locale.t("unknown_quiz", quiz_id=arguments.echo(quiz_id)))
        return
    await _say_all(context, render.preview_messages(quiz, context.locale))


async def start(update: Update, context: QuizContext) -> None:
    """Welcome, then the quiz list; `/start quiz-<id>` opens that quiz directly."""
    deep_link = arguments.start(context.args, context.services.catalog)
    if isinstance(deep_link, Refusal):
        await context.say(deep_link.text(context.locale))
    elif deep_link is not None:
        await _open(context, deep_link.id)
    else:
        name = person(context.learner.first_name, context.locale)
        await context.say(context.locale.t("welcome", name=name))
        await _send_quiz_list(context)


async def quizzes(update: Update, context: QuizContext) -> None:
    """The quizzes with level, size and the learner's progress."""
    await _send_quiz_list(context)


async def quiz(update: Update, context: QuizContext) -> None:
    """`/quiz <id>`: start or resume that quiz; with no id, the quizzes as buttons."""
    if not context.args:
        await quiz_menus.show(context, MenuFor.QUIZ)
        return
    wanted = await context.parsed(arguments.quiz(context.args, context.services.catalog))
    if wanted is not None:
        await _open(context, wanted.id)


async def on_quiz_chosen(query: CallbackQuery, context: QuizContext, chosen: Quiz) -> None:
    """A quiz chosen in `/quiz`'s menu: the menu says which, and the quiz opens."""
    await query.answer()
    title = context.locale.text(chosen.title, 200)
    await edit_in_place(query, context.locale.t("menu_chosen", title=title))
    await _open(context, chosen.id)


async def preview(update: Update, context: QuizContext) -> None:
    """`/preview <id>`: every question and its options, without the answers."""
    wanted = await context.parsed(arguments.preview(context.args, context.services.catalog))
    if wanted is not None:
        await _send_preview(context, wanted.id)


async def exam(update: Update, context: QuizContext) -> None:
    """`/exam <id>`: take the quiz as an exam, or continue the one running."""
    wanted = await context.parsed(arguments.exam(context.args, context.services.catalog))
    if wanted is not None:
        await exams.open_exam(
            context.bot, context.services, context.jobs, context.chat_id,
            context.learner.user_id, wanted, context.locale,
        )  # fmt: skip


async def on_exam_choose(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExamChoose
) -> None:
    await exams.choose(context.bot, context.services, query, tap, context.locale)


async def on_exam_clear(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExamClear
) -> None:
    await exams.clear(context.bot, context.services, query, tap, context.locale)


async def on_exam_go(query: CallbackQuery, context: QuizContext, tap: callbacks.ExamGo) -> None:
    await exams.go(context.bot, context.services, query, tap, context.locale)


async def on_exam_finish(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExamFinish
) -> None:
    await exams.finish(context.bot, context.services, query, tap, context.locale)


async def on_exam_hand_in(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExamHandIn
) -> None:
    await exams.hand_in(context.bot, context.services, query, tap, context.locale)


async def on_exam_review(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExamReview
) -> None:
    await exam_end.review(context.bot, context.services, query, tap, context.locale)


async def progress(update: Update, context: QuizContext) -> None:
    """Per quiz: mastery bar, scores, weak spots; overall: streak and reviews due."""
    standing = await flow.standing(context.services, context.learner)
    messages = render.progress_message(
        list(context.services.catalog),
        standing.records,
        standing.mastery,
        standing.overview,
        context.locale,
    )
    await _say_all(context, messages)
    chart = await charts.progress_chart(
        context.services, context.learner, standing.mastery, context.locale
    )
    if chart is not None:
        await context.bot.send_photo(context.chat_id, chart.png, caption=chart.alt)


async def review(update: Update, context: QuizContext) -> None:
    """A session of the questions due now, across quizzes, most overdue first."""
    await _review(context, flow.DUE)


async def _review(context: QuizContext, cards: str) -> None:
    await flow.open_review(
        context.bot,
        context.services,
        context.chat_id,
        context.learner.user_id,
        context.locale,
        cards,
    )


async def timezone(update: Update, context: QuizContext) -> None:
    """`/timezone Area/City` or `/timezone +01:00`: the zone reminders and streaks use; a
    place that is no zone's name (`/timezone Lagos`) gets the zones it may mean as buttons."""
    services, learner, locale = context.services, context.learner, context.locale
    current = learner.timezone or services.settings.default_timezone
    wanted = arguments.timezone(context.args, current)
    if isinstance(wanted, Refusal):
        suggested = quiz_menus.zone_suggestions(context.args or (), callbacks.SetTimezone, locale)
        if suggested is None or wanted.problem is None:
            await context.say(wanted.text(locale))
        else:
            await context.say(suggested.text, suggested.markup)
        return
    await services.storage.learners.set_timezone(learner.user_id, wanted, services.clock())
    await context.say(locale.t("timezone_set", timezone=wanted))


async def on_timezone(
    query: CallbackQuery, context: QuizContext, tap: callbacks.SetTimezone
) -> None:
    """A suggested zone tapped: it is the learner's now."""
    services, locale = context.services, context.locale
    if parse_timezone(tap.zone) != tap.zone:
        await query.answer(locale.t("stale_button"))
        return
    await services.storage.learners.set_timezone(
        context.learner.user_id, tap.zone, services.clock()
    )
    await query.answer()
    await edit_in_place(query, locale.t("timezone_set", timezone=tap.zone))


async def remind(update: Update, context: QuizContext) -> None:
    """`/remind HH:MM` for a daily reminder when reviews are due; `/remind off` to stop."""
    services, learner, locale = context.services, context.learner, context.locale
    tz = learner.timezone or services.settings.default_timezone
    at = await context.parsed(arguments.remind(context.args, tz, learner.remind_at))
    if at is None:
        return
    wanted = at.strftime("%H:%M") if isinstance(at, time) else None  # else: off
    await services.storage.learners.set_reminder(learner.user_id, wanted, services.clock())
    if wanted is None:
        await context.say(locale.t("remind_off"))
    else:
        await context.say(locale.t("remind_set", time=wanted, timezone=tz))


async def goal(update: Update, context: QuizContext) -> None:
    """`/goal <answers a day>` for a daily goal the reminder counts towards; `/goal off`."""
    services, learner, locale = context.services, context.learner, context.locale
    wanted = await context.parsed(arguments.goal(context.args, learner.daily_goal))
    if wanted is None:
        return
    chosen = wanted if isinstance(wanted, int) else None  # else: off
    await services.storage.learners.set_goal(learner.user_id, chosen, services.clock())
    await context.say(locale.t("goal_set", n=chosen) if chosen else locale.t("goal_off"))


def _language_choices(context: QuizContext) -> list[str]:
    return sorted(ui_languages() | context.services.catalog.languages)


async def language(update: Update, context: QuizContext) -> None:
    """Buttons to choose the language of questions and of the interface."""
    locale = context.locale
    message = render.language_menu(_language_choices(context), locale.language, locale)
    await context.say(message.text, message.markup)


async def on_answer(query: CallbackQuery, context: QuizContext, tap: callbacks.AnswerTap) -> None:
    """An option tapped: checked against the stored attempt, recorded, revealed."""
    await flow.take_answer(context.bot, context.services, query, tap, context.locale)


async def on_pick(query: CallbackQuery, context: QuizContext, tap: callbacks.PickOption) -> None:
    """An option of a multiple question picked or unpicked: stored, the keyboard redrawn."""
    await flow.toggle_pick(context.bot, context.services, query, tap, context.locale)


async def on_submit(query: CallbackQuery, context: QuizContext, tap: callbacks.SubmitPicks) -> None:
    """A multiple question's selection submitted: graded, recorded, revealed."""
    await flow.submit_picks(context.bot, context.services, query, tap, context.locale)


async def on_text(update: Update, context: QuizContext) -> None:
    """A text message: the answer to the numeric or typed question waiting for one, if any."""
    assert update.message is not None  # PRIVATE_MESSAGE
    await flow.take_reply(
        context.bot, context.services, update.message, context.learner.user_id, context.locale
    )


async def on_language(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ChooseLanguage
) -> None:
    """A language chosen: stored, and said in that language."""
    services = context.services
    if tap.language not in _language_choices(context):
        await query.answer(context.locale.t("stale_button"))
        return
    await services.storage.learners.set_language(
        context.learner.user_id, tap.language, services.clock()
    )
    done = Locale(tap.language, context.locale.default).t(
        "language_set", language=language_name(tap.language)
    )
    await query.answer(done)
    await edit_quietly(query, Rendered(done))


async def on_list(query: CallbackQuery, context: QuizContext, tap: callbacks.ListQuizzes) -> None:
    await query.answer()
    await _send_quiz_list(context)


async def on_preview(
    query: CallbackQuery, context: QuizContext, tap: callbacks.PreviewQuiz
) -> None:
    await query.answer()
    await _send_preview(context, tap.quiz_id)


async def on_open(query: CallbackQuery, context: QuizContext, tap: callbacks.OpenQuiz) -> None:
    await query.answer()
    await _open(context, tap.quiz_id)


async def on_review(query: CallbackQuery, context: QuizContext, tap: callbacks.StartReview) -> None:
    await query.answer()
    await review(context.current_update, context)


async def on_review_ahead(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ReviewAhead
) -> None:
    await query.answer()
    await _review(context, flow.AHEAD)


async def on_review_forgotten(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ReviewForgotten
) -> None:
    await query.answer()
    await _review(context, flow.FORGOTTEN)


async def on_practise(
    query: CallbackQuery, context: QuizContext, tap: callbacks.PractiseMissed
) -> None:
    """ "Practise the N you missed" pressed: a round of those questions, now."""
    await flow.practise(context.bot, context.services, query, tap, context.locale)


async def forgetme(update: Update, context: QuizContext) -> None:
    """`/forgetme`: what deleting their data means, with buttons to confirm or cancel."""
    message = render.forget_request(int(context.services.clock()), context.locale)
    await context.say(message.text, message.markup)


async def on_forget(
    query: CallbackQuery,
    context: QuizContext,
    tap: callbacks.ConfirmForget | callbacks.CancelForget,
) -> None:
    """The learner's answer to `/forgetme`: delete everything of theirs, or nothing."""
    services = context.services
    now = services.clock()
    if isinstance(tap, callbacks.CancelForget):
        outcome = "forget_kept"
    elif not 0 <= now - tap.asked_at <= FORGET_CONFIRM_SECONDS:
        outcome = "forget_expired"
    else:
        forgotten = await services.storage.privacy.forget_learner(query.from_user.id, now)
        log.info("a learner deleted their data (/forgetme): %s", forgotten.describe())
        outcome = "forget_done"
    await query.answer(context.locale.t(outcome))
    await edit_quietly(query, Rendered(context.locale.t(outcome)))


LEARNER, PRIVATE = Role.LEARNER, Where.PRIVATE
COMMANDS = (
    Command("start", start, LEARNER, PRIVATE, Task.STUDY),
    Command("quizzes", quizzes, LEARNER, PRIVATE, Task.STUDY),
    Command("quiz", quiz, LEARNER, PRIVATE, Task.STUDY, "<quiz id>", QUIZ),
    Command("exam", exam, LEARNER, PRIVATE, Task.STUDY, "<quiz id>", QUIZ),
    Command("review", review, LEARNER, PRIVATE, Task.STUDY),
    Command("progress", progress, LEARNER, PRIVATE, Task.STUDY),
    Command("preview", preview, LEARNER, PRIVATE, Task.STUDY, "<quiz id>", QUIZ),
    Command("remind", remind, LEARNER, PRIVATE, Task.SETTINGS, "<HH:MM> or off", "19:00"),
    Command("goal", goal, LEARNER, PRIVATE, Task.SETTINGS, "<answers a day> or off", "20"),
    Command("timezone", timezone, LEARNER, PRIVATE, Task.SETTINGS, "<Area/City>", "Africa/Lagos"),
    Command("language", language, LEARNER, PRIVATE, Task.SETTINGS),
    Command("forgetme", forgetme, LEARNER, PRIVATE, Task.SETTINGS),
)


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    return [
        *commands.handlers(COMMANDS),
        MessageHandler(filters.TEXT & ~filters.COMMAND & PRIVATE_MESSAGE, on_text),
        TapHandler(callbacks.AnswerTap, on_answer),
        TapHandler(callbacks.PickOption, on_pick),
        TapHandler(callbacks.SubmitPicks, on_submit),
        TapHandler(callbacks.ExamChoose, on_exam_choose),
        TapHandler(callbacks.ExamClear, on_exam_clear),
        TapHandler(callbacks.ExamGo, on_exam_go),
        TapHandler(callbacks.ExamFinish, on_exam_finish),
        TapHandler(callbacks.ExamHandIn, on_exam_hand_in),
        TapHandler(callbacks.ExamReview, on_exam_review),
        TapHandler(callbacks.ChooseLanguage, on_language),
        TapHandler(callbacks.ListQuizzes, on_list),
        TapHandler(callbacks.PreviewQuiz, on_preview),
        TapHandler(callbacks.OpenQuiz, on_open),
        QuizMenuHandler(MenuFor.QUIZ, on_quiz_chosen),
        TapHandler(callbacks.SetTimezone, on_timezone),
        TapHandler(callbacks.StartReview, on_review),
        TapHandler(callbacks.ReviewAhead, on_review_ahead),
        TapHandler(callbacks.ReviewForgotten, on_review_forgotten),
        TapHandler(callbacks.PractiseMissed, on_practise),
        TapHandler(callbacks.ConfirmForget, on_forget),
        TapHandler(callbacks.CancelForget, on_forget),
    ]
