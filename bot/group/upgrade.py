"""A group that became a supergroup, followed: Telegram gives the chat a new id and refuses
the old one. The news comes as a service message in each chat (`migrate_to_chat_id` in the
old group, `migrate_from_chat_id` in the supergroup; either order, or only one), or as a call
refused with `ChatMigrated` (bot/core/transport.py calls `follow` before it makes the call
again in the new chat). Whichever comes first moves the chat; the others find nothing left.

The move (storage/chat_moves.py) takes every row of the chat, in one transaction. The jobs
follow by themselves: a homework's deadline and reminder, a schedule's daily post and a
quiz's timers are armed by the number of their row and read the chat from it when they run.
What is left: a schedule dropped for the supergroup's own of the same quiz is disarmed, and a
quiz that was running in the old group ends (its questions' messages stay there, out of the
bot's reach): the supergroup is told, with the results so far."""

from __future__ import annotations

import logging
from typing import cast

from telegram import Bot, Update

from bot.core.context import Jobs, QuizContext, Services
from bot.group import flow, posts

log = logging.getLogger(__name__)


async def follow(bot: Bot, services: Services, jobs: Jobs, old: int, new: int) -> None:
    """Move chat `old` to `new`, once; the quizzes it ended are wound up by a job of their own
    (this may run inside a call to Telegram that holds a quiz's lock)."""
    move = await services.storage.move_chat(old, new, services.clock())
    services.forget_chat(old, new)
    if not move.moved:
        return
    log.info("chat %s became supergroup %s: %d row(s) moved", old, new, move.rows)
    posts.disarm_ids(jobs, move.dropped_schedules)
    if move.ended_sessions:
        jobs.run_once(_wind_up, when=0, data=move.ended_sessions, name=f"chat-moved:{new}")


async def _wind_up(context: QuizContext) -> None:
    assert context.job is not None
    for session_id in cast(tuple[int, ...], context.job.data):
        await flow.ended_by_move(context.bot, context.services, context.jobs, session_id)


async def on_upgrade(update: Update, context: QuizContext) -> None:
    """A service message: the group became a supergroup (in either chat)."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id is not None:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await follow(context.bot, context.services, context.jobs, old, new)
