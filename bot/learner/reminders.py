"""Daily review reminders: one sweep a minute over the learners who asked for one. A reminder
goes on a day with reviews due, or with a daily goal (`/goal`) not yet met, and says how far
today's count of answers (private and in groups) is from the goal.

State lives in SQLite (`remind_at`, `last_reminded`), so a restart loses nothing and a sweep
after downtime still sends today's reminder. A learner who blocked the bot is marked inactive
and is not asked again. A reminder Telegram could not take now (`faults.Fault.RETRY_LATER`)
ends the sweep, and the next one tries again; one that may have arrived is not sent twice.
The same sweep ends the holds on forgotten learners' answers that no close ended
(storage/held_answers.py).
"""

from __future__ import annotations

import logging
from datetime import date, datetime

from telegram.error import TelegramError

from bot.core import faults
from bot.core.context import QuizContext, Services
from bot.learner import render
from content.rules import parse_clock_time, reminder_is_due, zone
from content.study import day_start

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60
JOB_NAME = "review-reminders"


async def send_due_reminders(context: QuizContext) -> None:
    """JobQueue callback: remind every learner whose time has come and who has reviews due
    or a goal to meet."""
    services: Services = context.services
    learners = services.storage.learners
    now = services.clock()
    await services.storage.privacy.release_held(now)  # forgotten learners' answers (security.md)
    for user in await learners.users_with_reminders():
        remind_at = parse_clock_time(user.remind_at or "")
        if remind_at is None:
            continue
        tz = zone(user.timezone or services.settings.default_timezone)
        local_now = datetime.fromtimestamp(now, tz)
        last = date.fromisoformat(user.last_reminded) if user.last_reminded else None
        if not reminder_is_due(local_now, remind_at, last):
            continue
        due = await learners.count_due(user.user_id, now)
        goal = None
        if user.daily_goal is not None:
            done = await learners.count_reviews(user.user_id, day_start(now, tz))
            goal = render.Goal(user.daily_goal, done)
        if due or (goal is not None and goal.done < goal.goal):
            locale = services.locale_of(user)
            message = render.reminder_message(due, locale, goal)
            try:
                await context.bot.send_message(
                    user.user_id, message.text, reply_markup=message.markup
                )
            except TelegramError as error:
                fault = faults.classify(error)
                if fault is faults.Fault.CHAT_REFUSES:
                    log.info("user %s refuses the bot; reminders stop: %s", user.user_id, error)
                    await learners.set_active(user.user_id, False, now)
                    continue
                if fault is faults.Fault.RETRY_LATER:  # Telegram is out of reach for everyone
                    log.warning("reminders paused until the next sweep: %s", faults.describe(error))
                    return
                # it may have arrived, or Telegram will never take it: not sent again today
                log.warning("reminder to %s: %s", user.user_id, faults.describe(error))
        await learners.mark_reminded(user.user_id, local_now.date().isoformat(), now)
