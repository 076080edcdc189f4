"""Posted questions: an admin's `/push`, or a daily schedule, posts a quiz's next question into
a chat, where each member answers it once; the next push into that chat reveals it.

A posted question is a one-question group session with no timer (storage/group_store.py):
it is answered, counted and revealed by the same code as a timed quiz's question
(`bot.group.answers`, `bot.group.flow.reveal`), never blocks a `/groupquiz` in that chat and
never enters its `/leaderboard`. Schedules are stored in SQLite and armed as daily JobQueue
jobs at start.
"""

from __future__ import annotations

import datetime
import html
import logging
from collections.abc import Iterable
from typing import Any

from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import Job

from bot.core import faults
from bot.core.arguments import parse_chat
from bot.core.context import Jobs, QuizContext, Services
from bot.core.render import Reply
from bot.group import flow, render
from content.loader import IN_GROUPS
from content.model import Quiz
from storage.content_store import Schedule

log = logging.getLogger(__name__)


async def push_next(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    quiz: Quiz,
    chat: int | str,
    admin_id: int | None,
    shown: str | None = None,
) -> Reply:
    """Reveal the chat's open posted questions, then post the quiz's next unposted one;
    `shown`: how the reply names the chat (HTML; its id or @name when None)."""
    shown = shown or html.escape(str(chat))
    try:
        found = await bot.get_chat(chat)
    except TelegramError as error:
        return _not_posted(error, shown)
    exam = await services.storage.homework.open_exam(found.id, quiz.id)
    if exam is not None:  # a post's reveal would show its answers before the deadline
        return Reply("push_exam_homework_open", {"quiz_id": quiz.id, "number": exam.id})
    # one push at a time per chat (a /push and a scheduled one, or two admins): else both
    # could reveal nothing and post, leaving two questions open
    async with services.locks.pushes.hold(found.id):
        for session in await services.storage.groups.open_posts(found.id):
            await flow.reveal(bot, services, jobs, session.id, 0)
        return await _post_next(bot, services, quiz, found.id, found.type, shown, admin_id)


async def _post_next(
    bot: Bot,
    services: Services,
    quiz: Quiz,
    chat_id: int,
    chat_type: str,
    shown: str,
    admin_id: int | None,
) -> Reply:
    groups = services.storage.groups
    posted = await groups.posted_question_ids(chat_id, quiz.id)
    for position, question in enumerate(quiz.questions):
        if question.id in posted or not IN_GROUPS.takes(question):
            continue
        session = await groups.start_post(
            chat_id=chat_id,
            chat_type=chat_type,
            quiz_id=quiz.id,
            question_id=question.id,
            language="",  # drawn in the bot's default language (see `flow.session_locale`)
            posted_by=admin_id,
            now=services.clock(),
        )
        if session is None or session.post_id is None:
            continue
        locale = flow.session_locale(services, session)
        message = render.post_message(quiz, question, session.post_id, 0, locale)
        # a tap as soon as it is posted waits for it to be recorded (bot/group/answers.py)
        async with flow.session_lock(services, session.id):
            try:
                message_id, photo = await flow.send_question(
                    bot, services, session, question, message, locale
                )
            except TelegramError as error:
                await groups.drop_unsent(session.id)
                return _not_posted(error, shown)
            await groups.post_sent(session.id, question.id, message_id, services.clock(), photo)
        return Reply(
            "push_done", {"k": position + 1, "n": len(quiz), "quiz_id": quiz.id, "chat": shown}
        )
    if not any(IN_GROUPS.takes(question) for question in quiz.questions):
        return Reply("push_nothing_playable", {"quiz_id": quiz.id})
    return Reply("push_all_posted", {"quiz_id": quiz.id, "chat": shown})


def _not_posted(error: TelegramError, shown: str) -> Reply:
    """A chat that refuses the bot is named as such; a fault of Telegram's (already retried by
    the bot, or perhaps carried out after all) is to be looked at, and pushed again later."""
    log.warning("push not posted: %s", faults.describe(error))
    if faults.classify(error).permanent:
        return Reply("push_no_chat", {"chat": shown})
    return Reply("push_try_later", {"chat": shown, "reason": html.escape(error.message)})


# daily schedules


def _job_name(schedule_id: int) -> str:
    return f"push-schedule-{schedule_id}"


def arm(jobs: Jobs, schedule: Schedule) -> Job[Any]:
    """A daily job for the schedule, replacing the one it had."""
    disarm(jobs, schedule)
    at = datetime.time(
        schedule.minute_of_day // 60, schedule.minute_of_day % 60, tzinfo=datetime.UTC
    )
    return jobs.run_daily(scheduled_push, time=at, name=_job_name(schedule.id), data=schedule.id)


def disarm(jobs: Jobs, schedule: Schedule) -> None:
    disarm_ids(jobs, (schedule.id,))


def disarm_ids(jobs: Jobs, schedule_ids: Iterable[int]) -> None:
    """The jobs of schedules that were removed (by number)."""
    flow.cancel(jobs, *(_job_name(schedule_id) for schedule_id in schedule_ids))


async def set_schedule(
    services: Services,
    jobs: Jobs,
    quiz_id: str,
    chat: int | str,
    minute_of_day: int | None,
    admin_id: int,
    shown: str | None = None,
) -> Reply:
    """Store and arm a daily push at `minute_of_day` (UTC), or end it when that is None;
    `shown`: how the reply names the chat (HTML; its id or @name when None)."""
    named = {"quiz_id": html.escape(quiz_id), "chat": shown or html.escape(str(chat))}
    store = services.storage.content
    if minute_of_day is None:
        removed = await store.delete_schedule(quiz_id, str(chat), admin_id, services.clock())
        if removed is None:
            return Reply("schedule_none", named)
        disarm(jobs, removed)
        return Reply("schedule_off", named)
    if services.catalog.get(quiz_id) is None:
        return Reply("unknown_quiz", {"quiz_id": named["quiz_id"]})
    saved = await store.save_schedule(quiz_id, str(chat), minute_of_day, admin_id, services.clock())
    arm(jobs, saved)
    at = f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"
    return Reply("schedule_done", {**named, "time": at})


async def arm_schedules(jobs: Jobs, services: Services) -> None:
    """At start: every stored schedule armed again."""
    for schedule in await services.storage.content.schedules():
        arm(jobs, schedule)


async def scheduled_push(context: QuizContext) -> None:
    """The job of a schedule: push the next question, as an admin's `/push` would."""
    assert context.job is not None
    services = context.services
    schedule = next(
        (s for s in await services.storage.content.schedules() if s.id == context.job.data), None
    )
    if schedule is None:
        return
    quiz = services.catalog.get(schedule.quiz_id)
    if quiz is None:
        log.warning("schedule %s: quiz %s is gone", schedule.id, schedule.quiz_id)
        return
    target = parse_chat(schedule.chat)
    if target is None:
        return
    outcome = await push_next(context.bot, services, context.jobs, quiz, target, None)
    log.info("schedule %s: %s", schedule.id, outcome.key)
