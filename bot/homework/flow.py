"""Homework: set, posted, opened in private, counted, reminded, closed.

State lives in SQLite (`Storage.homework`); the deadline and the reminder are JobQueue jobs
re-armed from it at start (a deadline or a reminder that came while the bot was down fires at
once). Closing is one conditional update, so the results are posted at most once whoever
closes first (the timer, `/unassign`, a restart). The live count is redrawn by one sweep over
the open assignments, paced with the group quiz's counts (`SendPace`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.core import deeplinks, faults
from bot.core.context import AttemptOpener, ExamOpener, Jobs, QuizContext, Services
from bot.core.i18n import Locale
from bot.core.render import Rendered
from bot.core.tables import to_csv
from bot.homework import render
from content.exams import ExamResult, Paper, mark_responses
from content.model import Quiz
from content.rules import attempt_order
from storage.homework_store import CANCELLED, FINISHED, FIRST, Assignment, Taker

log = logging.getLogger(__name__)

SWEEP_JOB = "homework-counts"
# an exam homework's results wait for its exams still running at the deadline to end (by their
# own job, due then): checked this often, for this long at most
EXAM_END_POLL_SECONDS = 0.5
EXAM_END_WAIT_SECONDS = 30.0


def locale_of(services: Services, assignment: Assignment) -> Locale:
    default = services.settings.default_language
    return Locale(assignment.language or default, default)


def _deadline_job(assignment_id: int) -> str:
    return f"homework-deadline:{assignment_id}"


def _reminder_job(assignment_id: int) -> str:
    return f"homework-reminder:{assignment_id}"


def link(bot: Bot, services: Services, assignment: Assignment) -> str:
    """The deep link that opens the homework in private."""
    payload = services.links.encode(deeplinks.Homework(assignment.id), services.clock())
    return deeplinks.url(bot.username, payload)


async def _send(bot: Bot, services: Services, assignment: Assignment, message: Rendered) -> int:
    """Into the assignment's group (its topic, in a forum), counted against its budget."""
    sent = await bot.send_message(
        assignment.chat_id,
        message.text,
        reply_markup=message.markup,
        message_thread_id=assignment.thread_id,
    )
    services.pace.record(assignment.chat_id, services.clock())
    return sent.message_id


# setting and arming


async def assign(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    *,
    chat_id: int,
    thread_id: int | None,
    quiz: Quiz,
    deadline: float,
    language: str,
    timezone: str,
    created_by: int | None,
    counts: str = FIRST,
    shuffled: bool = False,
    exam: bool = False,
    exam_minutes: int | None = None,
) -> Assignment:
    """Store the homework (taken as an exam, with `exam`), post it, arm its deadline and
    reminder."""
    homework = services.storage.homework
    assignment = await homework.create(
        chat_id=chat_id, thread_id=thread_id, quiz_id=quiz.id, deadline=deadline,
        language=language, timezone=timezone, created_by=created_by, now=services.clock(),
        counts=counts, shuffled=shuffled, exam=exam, exam_minutes=exam_minutes,
    )  # fmt: skip
    locale = locale_of(services, assignment)
    message_id = await _send(
        bot,
        services,
        assignment,
        render.post(quiz, assignment, 0, link(bot, services, assignment), locale),
    )
    await homework.posted(assignment.id, message_id)
    log.info("homework %s set in chat %s: %s", assignment.id, chat_id, quiz.id)
    arm(services, jobs, assignment)
    return assignment


def arm(services: Services, jobs: Jobs, assignment: Assignment) -> None:
    """The deadline's job, and the reminder's when one is due: when the homework runs longer
    than the reminder's lead and it was not sent yet."""
    now = services.clock()
    lead = services.settings.homework_remind_before
    _replace(
        jobs,
        _deadline_job(assignment.id),
        max(assignment.deadline - now, 0.0),
        assignment.id,
        _on_deadline,
    )
    if assignment.reminded_at is None and assignment.deadline - assignment.created_at > lead:
        when = max(assignment.deadline - lead - now, 0.0)
        _replace(jobs, _reminder_job(assignment.id), when, assignment.id, _on_reminder)


def _replace(jobs: Jobs, name: str, when: float, assignment_id: int, callback: Any) -> None:
    for job in jobs.get_jobs_by_name(name):
        job.schedule_removal()
    jobs.run_once(callback, when=when, data=assignment_id, name=name)


async def resume(context: QuizContext) -> None:
    """After a start: every open homework re-armed (a deadline passed while down fires now)."""
    for assignment in await context.services.storage.homework.open_assignments():
        arm(context.services, context.jobs, assignment)
        log.info("homework %s in chat %s re-armed", assignment.id, assignment.chat_id)


# the live count


async def sweep_counts(context: QuizContext) -> None:
    """Redraw each open homework's count of members done, when it changed and the group's
    budget of sends allows (else at a later sweep)."""
    services = context.services
    for assignment in await services.storage.homework.open_assignments():
        done = await services.storage.homework.done_count(assignment.id, assignment.deadline)
        if done == assignment.shown_done or assignment.message_id is None:
            continue
        now = services.clock()
        if services.pace.count_edit_wait(assignment.chat_id, now) > 0:
            continue
        quiz = services.catalog.get(assignment.quiz_id)
        if quiz is None:
            continue
        message = render.post(
            quiz,
            assignment,
            done,
            link(context.bot, services, assignment),
            locale_of(services, assignment),
        )
        try:
            await context.bot.edit_message_text(
                message.text, assignment.chat_id, assignment.message_id, reply_markup=message.markup
            )
        except TelegramError as error:
            log.info("homework %s: count not redrawn: %s", assignment.id, faults.describe(error))
            continue
        services.pace.record(assignment.chat_id, now, count_edit=True)
        await services.storage.homework.set_shown_done(assignment.id, done)


# closing


async def _on_deadline(context: QuizContext) -> None:
    assert context.job is not None
    assignment_id = cast(int, context.job.data)
    if await _exams_ending(context.services, assignment_id):
        when = EXAM_END_POLL_SECONDS
        _replace(context.jobs, _deadline_job(assignment_id), when, assignment_id, _on_deadline)
        return
    await close(context.bot, context.services, context.jobs, assignment_id)


async def _exams_ending(services: Services, assignment_id: int) -> bool:
    """Whether the results of an exam homework wait for its exams still running: each ends by
    the deadline at the latest, by its own job (the learner feature's, which marks it and
    tells its learner), and counts once ended; a little while at most."""
    assignment = await services.storage.homework.get(assignment_id)
    if assignment is None or not assignment.exam or not assignment.open:
        return False
    if services.clock() > assignment.deadline + EXAM_END_WAIT_SECONDS:
        return False
    return bool(await services.storage.exams.running_for(assignment_id))


async def close(bot: Bot, services: Services, jobs: Jobs, assignment_id: int) -> bool:
    """At the deadline (an exam homework's once its running exams have ended): closed once,
    its post redrawn, the results posted in the group and the report sent to the admin who
    set it."""
    homework = services.storage.homework
    if not await homework.close(assignment_id, FINISHED, services.clock()):
        return False
    _cancel_jobs(jobs, assignment_id)
    assignment = await homework.get(assignment_id)
    assert assignment is not None
    quiz = services.catalog.get(assignment.quiz_id)
    locale = locale_of(services, assignment)
    takers = await homework.takers(assignment.id)
    done = sum(t.done_by(assignment.deadline) for t in takers)
    log.info("homework %s closed: %d opened it, %d done", assignment.id, len(takers), done)
    await _redraw_closed(bot, services, assignment, quiz, done, cancelled=False)
    try:
        await _send(
            bot, services, assignment, Rendered(render.results(quiz, assignment, takers, locale))
        )
    except TelegramError as error:
        log.warning("homework %s: results not posted: %s", assignment.id, faults.describe(error))
    await _send_report_to_teacher(bot, services, assignment)
    await _offer_practice(bot, services, assignment, quiz, takers)
    return True


async def _offer_practice(
    bot: Bot, services: Services, assignment: Assignment, quiz: Quiz | None, takers: list[Taker]
) -> None:
    """Closed: each member who handed it in with mistakes may practise them now, in private
    (not before: the practice would show the answers while others still work). A member who
    finishes later is offered it at the end of their attempt."""
    for taker in takers:
        stored = await services.storage.learners.get_user(taker.user_id)
        if stored is None or not stored.active:
            continue
        offer = await _practice(services, assignment, quiz, taker, services.locale_of(stored))
        if offer is None:
            continue
        try:
            await bot.send_message(taker.user_id, offer.text, reply_markup=offer.markup)
        except TelegramError as error:
            log.info(
                "homework %s: practice not offered to %s: %s",
                assignment.id, taker.user_id, faults.describe(error),
            )  # fmt: skip


async def _practice(
    services: Services, assignment: Assignment, quiz: Quiz | None, taker: Taker, locale: Locale
) -> Rendered | None:
    """The offer to practise what a handed-in attempt missed; None with nothing missed."""
    if taker.finished_at is None:
        return None
    answers = await services.storage.learners.answers(taker.attempt_id)
    missed = sum(1 for answer in answers.values() if not answer.correct)
    return render.practice_offer(quiz, assignment, taker, missed, locale) if missed else None


async def cancel(bot: Bot, services: Services, jobs: Jobs, assignment: Assignment) -> bool:
    """`/unassign`: closed without results."""
    if not await services.storage.homework.close(assignment.id, CANCELLED, services.clock()):
        return False
    _cancel_jobs(jobs, assignment.id)
    quiz = services.catalog.get(assignment.quiz_id)
    done = await services.storage.homework.done_count(assignment.id, assignment.deadline)
    await _redraw_closed(bot, services, assignment, quiz, done, cancelled=True)
    log.info("homework %s cancelled", assignment.id)
    return True


def _cancel_jobs(jobs: Jobs, assignment_id: int) -> None:
    for name in (_deadline_job(assignment_id), _reminder_job(assignment_id)):
        for job in jobs.get_jobs_by_name(name):
            job.schedule_removal()


async def _redraw_closed(
    bot: Bot, services: Services, assignment: Assignment, quiz: Quiz | None, done: int,
    cancelled: bool,
) -> None:  # fmt: skip
    if assignment.message_id is None:
        return
    message = render.closed_post(quiz, assignment, done, cancelled, locale_of(services, assignment))
    try:
        await bot.edit_message_text(message.text, assignment.chat_id, assignment.message_id)
        services.pace.record(assignment.chat_id, services.clock())
    except TelegramError as error:
        log.info("homework %s: post not redrawn: %s", assignment.id, faults.describe(error))


async def report(
    services: Services, assignment: Assignment, locale: Locale
) -> tuple[str, bytes, str]:
    """The homework's report: caption, CSV, file name. An exam homework's, before its
    deadline, says only who opened it and who is done: its scores, grid and answers would be
    a key to the exam."""
    quiz = services.catalog.get(assignment.quiz_id)
    takers = await services.storage.homework.takers(assignment.id)
    title = locale.text(quiz.title, 200) if quiz is not None else assignment.quiz_id
    caption = locale.t("homework_report_caption", number=assignment.id, title=title, n=len(takers))
    if assignment.exam and services.clock() < assignment.deadline:
        table = render.done_table(assignment, takers)
        caption += "\n" + locale.t("homework_report_exam_open")
        return caption, to_csv(table), f"homework-{assignment.id}-{assignment.quiz_id}.csv"
    attempts = await services.storage.reports.attempts([t.attempt_id for t in takers])
    sections = await _exam_results(services, quiz, takers) if assignment.exam else None
    data = await asyncio.to_thread(  # a large group's file: off the event loop
        lambda: to_csv(render.table(quiz, assignment, takers, attempts, locale, sections))
    )
    return caption, data, f"homework-{assignment.id}-{assignment.quiz_id}.csv"


async def _exam_results(
    services: Services, quiz: Quiz | None, takers: list[Taker]
) -> dict[int, ExamResult]:
    """Each taker's exam marked from its stored responses (its sections' points), by attempt."""
    exams = services.storage.exams
    results = {}
    for taker in takers:
        sitting = await exams.get(taker.attempt_id)
        if sitting is None or sitting.open:
            continue
        responses = await exams.responses(sitting.attempt.id)
        results[taker.attempt_id] = mark_responses(
            quiz,
            Paper.from_json(sitting.paper),
            {item: (r.chosen, r.reply) for item, r in responses.items()},
        )
    return results


async def send_report(
    bot: Bot, services: Services, chat_id: int, assignment: Assignment, locale: Locale
) -> None:
    caption, data, name = await report(services, assignment, locale)
    await bot.send_document(chat_id, data, filename=name, caption=caption)


async def _send_report_to_teacher(bot: Bot, services: Services, assignment: Assignment) -> None:
    """To the admin who set it, in private; else (anonymous, or never started the bot) a
    deep link in the group that a chat admin presses."""
    teacher = assignment.created_by
    if teacher is not None:
        stored = await services.storage.learners.get_user(teacher)
        locale = (
            services.locale_of(stored) if stored is not None else locale_of(services, assignment)
        )
        try:
            await send_report(bot, services, teacher, assignment, locale)
            return
        except TelegramError as error:
            if faults.classify(error) is not faults.Fault.CHAT_REFUSES:
                log.warning(
                    "homework %s: report not sent: %s", assignment.id, faults.describe(error)
                )
                return
    locale = locale_of(services, assignment)
    payload = services.links.encode(deeplinks.AssignmentReport(assignment.id), services.clock())
    button = InlineKeyboardButton(
        locale.t("button_report_private"), url=deeplinks.url(bot.username, payload)
    )
    offer = Rendered(locale.t("homework_report_offer"), InlineKeyboardMarkup([[button]]))
    try:
        await _send(bot, services, assignment, offer)
    except TelegramError as error:
        log.warning(
            "homework %s: report link not posted: %s", assignment.id, faults.describe(error)
        )


# the reminder


async def _on_reminder(context: QuizContext) -> None:
    assert context.job is not None
    await remind(context.bot, context.services, cast(int, context.job.data))


async def remind(bot: Bot, services: Services, assignment_id: int) -> int:
    """The one nudge, in private, to the members who opened the homework and have not
    finished it; how many were told."""
    homework = services.storage.homework
    if not await homework.mark_reminded(assignment_id, services.clock()):
        return 0
    assignment = await homework.get(assignment_id)
    assert assignment is not None
    quiz = services.catalog.get(assignment.quiz_id)
    told = 0
    for taker in await homework.takers(assignment_id):
        if taker.finished_at is not None:
            continue
        stored = await services.storage.learners.get_user(taker.user_id)
        if stored is None or not stored.active:
            continue
        message = render.reminder(
            quiz, assignment, link(bot, services, assignment), services.locale_of(stored)
        )
        try:
            await bot.send_message(taker.user_id, message.text, reply_markup=message.markup)
            told += 1
        except TelegramError as error:
            log.info(
                "homework %s: %s not reminded: %s",
                assignment_id,
                taker.user_id,
                faults.describe(error),
            )
    log.info("homework %s: %d reminded", assignment_id, told)
    return told


# a member opens it


async def open_homework(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    chat_id: int,
    user_id: int,
    assignment: Assignment,
    locale: Locale,
    open_attempt: AttemptOpener,
    open_exam: ExamOpener,
) -> None:
    """Continue the member's running attempt at the homework, or start one afresh from its
    first question (never an attempt at the quiz begun outside it); an exam homework's
    attempt is an exam (`open_exam`, the learner's). A member whose first attempt counts and is finished is
    told their score; where the best counts, a finished attempt is followed by another."""
    quiz = services.catalog.get(assignment.quiz_id)
    if quiz is None:
        await bot.send_message(chat_id, locale.t("quiz_gone"))
        return
    learners = services.storage.learners
    attempt = await learners.running_attempt(user_id, quiz.id, assignment.id)
    if attempt is None:
        taker = await services.storage.homework.taker(assignment.id, user_id)
        if taker is not None and taker.finished_at is not None and assignment.counts == FIRST:
            await bot.send_message(chat_id, render.handed_in(quiz, assignment, taker, locale))
            return
        if assignment.exam:
            await open_exam(bot, services, jobs, chat_id, user_id, quiz, assignment, locale)
            return
        tries = taker.tries if taker is not None else 0
        shuffle_by = f"{assignment.id}:{user_id}:{tries}" if assignment.shuffled else None
        attempt = await learners.start_attempt(
            user_id,
            quiz.id,
            attempt_order(quiz, shuffle_by),
            services.clock(),
            assignment_id=assignment.id,
        )
        await bot.send_message(chat_id, render.intro(quiz, assignment, taker, locale))
    await open_attempt(bot, services, chat_id, attempt, locale)
