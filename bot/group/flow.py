"""What a whole chat (group, supergroup or channel) is asked: ask, take answers, reveal.

Two kinds of session (storage/group_store.py): a timed quiz (/groupquiz), its questions one
after the other on a timer, scored for a leaderboard; and a posted question (/push, a daily
schedule), one question with no timer, revealed by the next push into that chat.

State lives in SQLite (`Storage.groups`); timers are JobQueue jobs re-armed from it at
start, so a restart mid-question resumes the session. Every decision is made against stored
state; callback data and poll ids only name what was tapped or voted.
"""

from __future__ import annotations

import asyncio
import html
import logging
from typing import Any, cast

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardMarkup,
    InputPollOption,
    PollAnswer,
    User,
)
from telegram.constants import PollType
from telegram.error import BadRequest, TelegramError
from telegram.ext import CallbackContext, JobQueue

from bot.core import faults
from bot.core.callbacks import GroupAnswer, PostAnswer
from bot.core.context import SERVICES_KEY, Services
from bot.core.i18n import Locale
from bot.core.render import Rendered, Reply, answer_toast, letter
from bot.group import render
from content.group_rules import points, rank, upcoming_sends
from content.model import Question, Quiz
from storage.group_store import (
    AnswerStatus,
    AskedQuestion,
    GroupAnswerOutcome,
    GroupSession,
    Tally,
)

log = logging.getLogger(__name__)

Jobs = JobQueue[Any]

BUTTONS = "buttons"
POLL = "poll"
# A question Telegram could not take now (after the bot's own quick retries) is tried again
# this much later, then the session ends and its admin is told (about 4 minutes in all).
ASK_RETRY_DELAYS = (5.0, 15.0, 30.0, 60.0, 120.0)


def _locale(services: Services, session: GroupSession) -> Locale:
    """The session's language; a post's is '': the bot's default, as it is when drawn."""
    default = services.settings.default_language
    return Locale(session.language or default, default)


def _reveal_job(session_id: int) -> str:
    return f"group-reveal:{session_id}"


def _count_job(session_id: int) -> str:
    return f"group-count:{session_id}"


def _retry_job_name(session_id: int) -> str:
    return f"group-retry:{session_id}"


def _cancel(jobs: Jobs, name: str) -> None:
    for job in jobs.get_jobs_by_name(name):
        job.schedule_removal()


def _services(context: CallbackContext[Any, Any, Any, Any]) -> Services:
    services: Services = context.application.bot_data[SERVICES_KEY]
    return services


async def send(
    bot: Bot,
    services: Services,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
) -> int:
    """Send into a chat, counted against its per-minute budget; returns the message id."""
    message = await bot.send_message(chat_id, text, reply_markup=markup)
    services.pace.record(chat_id, services.clock())
    return message.message_id


def _lock(services: Services, session_id: int) -> asyncio.Lock:
    """One session's posting, redrawing, revealing and stopping happen one at a time: a redraw
    can never land after the reveal, nor a question be posted twice."""
    return services.group_locks.setdefault(session_id, asyncio.Lock())


# starting and asking


async def start(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    *,
    chat_id: int,
    chat_type: str,
    quiz: Quiz,
    seconds: int,
    mode: str,
    language: str,
    started_by: int | None,
) -> GroupSession | None:
    """Start the chat's session and ask its first question; None if one is running there."""
    session = await services.storage.groups.start_session(
        chat_id=chat_id,
        chat_type=chat_type,
        quiz_id=quiz.id,
        question_ids=tuple(question.id for question in quiz.questions),
        seconds=seconds,
        mode=mode,
        language=language,
        started_by=started_by,
        now=services.clock(),
    )
    if session is None:
        return None
    locale = _locale(services, session)
    try:
        await send(bot, services, chat_id, render.intro(quiz, session.total, seconds, locale))
    except TelegramError as error:
        if faults.classify(error).permanent:
            await _end_unposted(bot, services, jobs, session, error)
            return session
        log.warning("group session %s: intro not posted: %s", session.id, faults.describe(error))
    await _ask_or_retry(bot, services, jobs, session, 0)
    return session


async def _ask_or_retry(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    session: GroupSession,
    position: int,
    attempt: int = 0,
) -> None:
    """Ask. A post Telegram refuses for good ends the session; one it could not take now (the
    bot's quick retries spent) is tried again later, `ASK_RETRY_DELAYS` apart, then the
    session ends too.

    A post that timed out may have arrived all the same; it is posted again rather than the
    session stalling or its question going unanswerable: the copy shown first then answers
    "no longer active"."""
    try:
        await ask(bot, services, jobs, session, position)
    except TelegramError as error:
        if faults.classify(error).permanent or attempt >= len(ASK_RETRY_DELAYS):
            await _end_unposted(bot, services, jobs, session, error, tries=attempt + 1)
            return
        delay = ASK_RETRY_DELAYS[attempt]
        log.warning(
            "group question %s/%s not posted, try %d in %.0f s: %s",
            session.id, position, attempt + 2, delay, faults.describe(error),
        )  # fmt: skip
        name = _retry_job_name(session.id)
        if not jobs.get_jobs_by_name(name):
            jobs.run_once(_retry_job, when=delay, data=(session.id, attempt + 1), name=name)


async def _retry_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    assert context.job is not None and context.job_queue is not None
    services = _services(context)
    session_id, attempt = cast(tuple[int, int], context.job.data)
    session = await services.storage.groups.get_session(session_id)
    if session is not None and session.running:
        await _ask_or_retry(
            context.bot, services, context.job_queue, session, session.position, attempt
        )


async def _end_unposted(
    bot: Bot,
    services: Services,
    jobs: Jobs,
    session: GroupSession,
    error: TelegramError,
    tries: int = 1,
) -> None:
    """End a session whose post Telegram did not take, so the chat can start another; tell
    the chat if it still takes text (polls may be what it refuses), and the admin who started
    it, in private if they ever opened a chat with the bot (else one log line)."""
    async with _lock(services, session.id):
        if not await services.storage.groups.stop_session(session.id, services.clock()):
            return
        for name in (_reveal_job, _count_job, _retry_job_name):
            _cancel(jobs, name(session.id))
    fault = faults.classify(error)
    log.warning(
        "group session %s in chat %s ended, its post was not taken: %s",
        session.id, session.chat_id, faults.describe(error),
    )  # fmt: skip
    locale = _locale(services, session)
    reason = html.escape(error.message)
    if fault is faults.Fault.REJECTED:
        key = "group_ended_poll" if session.mode == POLL else "group_ended_here"
        try:
            await send(
                bot, services, session.chat_id,
                locale.t(key, reason=reason, quiz_id=html.escape(session.quiz_id)),
            )  # fmt: skip
        except TelegramError as told:
            log.info("chat %s not told: %s", session.chat_id, faults.describe(told))
    if session.started_by is None:
        return  # a channel's post: no person to tell
    quiz = services.catalog.get(session.quiz_id)
    title = html.escape(locale.plain(quiz.title) if quiz is not None else session.quiz_id)
    values = {"title": title, "chat": session.chat_id, "reason": reason}
    if fault.permanent:
        text = locale.t("group_ended_admin", **values)
    else:
        text = locale.t("group_gave_up_admin", **values, tries=tries)
    try:
        await bot.send_message(session.started_by, text)
    except TelegramError as told:
        log.info(
            "admin %s not told that group session %s ended: %s",
            session.started_by, session.id, faults.describe(told),
        )  # fmt: skip


async def ask(
    bot: Bot, services: Services, jobs: Jobs, session: GroupSession, position: int
) -> None:
    """Post the question at `position`, record it (with its deadline), arm its timer; nothing
    if the session has ended or that question was posted already."""
    groups = services.storage.groups
    async with _lock(services, session.id):
        current = await groups.get_session(session.id)
        if current is None or not current.running or current.position != position:
            return
        if await groups.asked(session.id, position) is not None:
            return
        quiz = services.catalog.get(session.quiz_id)
        question = quiz.question(session.question_ids[position]) if quiz is not None else None
        locale = _locale(services, session)
        poll_id: str | None = None
        if quiz is None or question is None:
            # the quiz or this question was removed since the start: pass over it
            now = services.clock()
            await groups.question_asked(
                session.id, position, session.question_ids[position], 0, None, now, now
            )
            gone = True
        else:
            gone = False
            if session.mode == POLL:
                message_id, poll_id = await _send_poll(
                    bot, services, session, quiz, question, position
                )
            else:
                rendered = render.question_message(
                    quiz, question, position, session.total, session.id, session.seconds, 0,
                    locale,
                )  # fmt: skip
                message_id = await send(
                    bot, services, session.chat_id, rendered.text, rendered.markup
                )
            now = services.clock()
            await groups.question_asked(
                session.id, position, question.id, message_id, poll_id, now, now + session.seconds
            )
            services.pace.shown_counts[(session.id, position)] = 0
            arm_timer(jobs, session.id, position, session.seconds)
    if gone:
        await reveal(bot, services, jobs, session.id, position)


async def _send_poll(
    bot: Bot, services: Services, session: GroupSession, quiz: Quiz, question: Question,
    position: int,
) -> tuple[int, str]:  # fmt: skip
    locale = _locale(services, session)
    spec = render.poll_spec(quiz, question, position, session.total, locale)
    message = await bot.send_poll(
        session.chat_id,
        spec.question,
        [InputPollOption(option, text_parse_mode=None) for option in spec.options],
        is_anonymous=False,
        type=PollType.QUIZ,
        correct_option_ids=[cast(Any, spec.correct)],
        explanation=spec.explanation,
        explanation_parse_mode=None,
        question_parse_mode=None,
        reply_markup=InlineKeyboardMarkup([[render.reveal_button(session.id, position, locale)]]),
    )
    services.pace.record(session.chat_id, services.clock())
    assert message.poll is not None
    services.poll_chats[message.poll.id] = session.chat_id
    return message.message_id, message.poll.id


def arm_timer(jobs: Jobs, session_id: int, position: int, delay: float) -> None:
    _cancel(jobs, _reveal_job(session_id))
    jobs.run_once(
        _on_timer, when=max(delay, 0.0), data=(session_id, position), name=_reveal_job(session_id)
    )


async def _on_timer(context: CallbackContext[Any, Any, Any, Any]) -> None:
    assert context.job is not None and context.job_queue is not None
    session_id, position = cast(tuple[int, int], context.job.data)
    await reveal(context.bot, _services(context), context.job_queue, session_id, position)


# answers


async def _record(
    services: Services,
    session: GroupSession,
    asked: AskedQuestion,
    question: Question,
    who: User,
    chosen: int,
) -> GroupAnswerOutcome:
    """Store a member's answer with its time and points (a tap or a poll vote alike)."""
    now = services.clock()
    correct = question.is_correct(chosen)
    elapsed = max(now - asked.asked_at, 0.0)
    score = 0 if session.posted else points(correct, elapsed, session.seconds)
    return await services.storage.groups.record_answer(
        session_id=session.id,
        position=asked.position,
        question_id=question.id,
        user_id=who.id,
        name=who.full_name,
        chosen=chosen,
        correct=correct,
        elapsed=elapsed,
        points=score,
        now=now,
    )


async def take_answer(
    bot: Bot, services: Services, jobs: Jobs, query: CallbackQuery, tap: GroupAnswer,
    locale: Locale,
) -> None:  # fmt: skip
    """Record a member's first answer (committed first); tell them alone and pace the count.

    A chat's taps are handled one after another, so a tap's turn holds only what must be in
    order, the stored answer: the toast and the redrawn count follow outside it (a toast or an
    edit that Telegram answers with 502 is tried again for seconds, and the members who tapped
    after would wait for it, past the deadline)."""
    groups = services.storage.groups
    session = await groups.get_session(tap.session_id)
    message = query.message
    if (
        session is None
        or session.posted  # a post's buttons are PostAnswer: this one is forged
        or message is None
        or session.chat_id != message.chat.id
    ):
        _toast(jobs, query, locale.t("stale_button"))
        return
    if not session.running:
        _toast(jobs, query, locale.t("group_toast_over"))
        return
    asked = await groups.asked(session.id, tap.position)
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(asked.question_id) if asked is not None and quiz else None
    if asked is None or question is None or asked.message_id != message.message_id:
        _toast(jobs, query, locale.t("stale_button"))
        return
    if tap.option >= len(question.options):
        _toast(jobs, query, locale.t("stale_button"))
        return
    outcome = await _record(services, session, asked, question, query.from_user, tap.option)
    if outcome.status is AnswerStatus.ALREADY:
        assert outcome.chosen is not None
        _toast(jobs, query, locale.t("group_toast_stands", letter=letter(outcome.chosen)))
        return
    if outcome.status is AnswerStatus.CLOSED:
        _toast(jobs, query, locale.t("group_toast_closed"))
        return
    _toast(jobs, query, render.answer_toast(question, tap.option, outcome.points, locale))
    schedule_count(jobs, session.id, tap.position)


def _toast(jobs: Jobs, query: CallbackQuery, text: str) -> None:
    """Answer a tap outside its chat's turn; a toast that fails costs one line (an answer it
    acknowledges is stored already)."""

    async def answer() -> None:
        try:
            await query.answer(text)
        except TelegramError as error:
            log.warning("a group tap's toast failed: %s", faults.describe(error))

    jobs.application.create_task(answer(), name="group-toast")


async def take_poll_answer(bot: Bot, services: Services, answer: PollAnswer) -> None:
    """A vote in a quiz poll: stored like a tap (no toast exists for polls)."""
    groups = services.storage.groups
    asked = await groups.asked_by_poll(answer.poll_id)
    chat_id = services.poll_chats.get(answer.poll_id)
    if asked is None and chat_id is not None:
        # posted by a timer a moment ago and not yet recorded: the post holds its session's
        # lock until it is, so wait for every session of that chat
        session = await groups.running_session(chat_id)
        if session is not None:
            async with _lock(services, session.id):
                asked = await groups.asked_by_poll(answer.poll_id)
    if asked is None or not answer.option_ids or answer.user is None:
        return
    session = await groups.get_session(asked.session_id)
    quiz = services.catalog.get(session.quiz_id) if session is not None else None
    question = quiz.question(asked.question_id) if quiz is not None else None
    if session is None or question is None:
        return
    chosen = answer.option_ids[0]
    if chosen >= len(question.options):
        return
    outcome = await _record(services, session, asked, question, answer.user, chosen)
    log.debug("poll answer %s: %s", answer.poll_id, outcome.status.value)


async def refresh_count(
    bot: Bot, services: Services, jobs: Jobs, session_id: int, position: int
) -> None:
    """Redraw the live answer count now if the chat's budget allows, else schedule it."""
    groups = services.storage.groups
    session = await groups.get_session(session_id)
    if session is None or not session.running or session.position != position:
        return
    if session.mode != BUTTONS:
        return  # a poll shows its own count
    asked = await groups.asked(session_id, position)
    if asked is None or asked.revealed_at is not None:
        return
    now = services.clock()
    upcoming = upcoming_sends(asked.deadline, session.seconds, now)
    wait = services.pace.count_edit_wait(session.chat_id, now, upcoming)
    if wait > 0:
        schedule_count(jobs, session_id, position, wait)
        return
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(asked.question_id) if quiz is not None else None
    if quiz is None or question is None:
        return
    async with _lock(services, session_id):
        fresh = await groups.asked(session_id, position)
        if fresh is None or fresh.revealed_at is not None:
            return  # revealed meanwhile: a redraw now would bring the buttons back
        count = sum((await groups.answer_counts(session_id, position)).values())
        key = (session_id, position)
        if services.pace.shown_counts.get(key) == count:
            return
        rendered = render.question_message(
            quiz, question, position, session.total, session.id, session.seconds, count,
            _locale(services, session),
        )  # fmt: skip
        try:
            await bot.edit_message_text(
                rendered.text, session.chat_id, asked.message_id, reply_markup=rendered.markup
            )
        except BadRequest as error:
            log.debug("live count not redrawn: %s", error)
            return
        services.pace.record(session.chat_id, services.clock(), count_edit=True)
        services.pace.shown_counts[key] = count


def schedule_count(jobs: Jobs, session_id: int, position: int, wait: float = 0.0) -> None:
    """Redraw the live count `wait` seconds from now, in a job of its own (one at a time)."""
    if not jobs.get_jobs_by_name(_count_job(session_id)):
        jobs.run_once(
            _on_count, when=wait, data=(session_id, position), name=_count_job(session_id)
        )


async def _on_count(context: CallbackContext[Any, Any, Any, Any]) -> None:
    assert context.job is not None and context.job_queue is not None
    session_id, position = cast(tuple[int, int], context.job.data)
    await refresh_count(context.bot, _services(context), context.job_queue, session_id, position)


# revealing, finishing, stopping


async def reveal(bot: Bot, services: Services, jobs: Jobs, session_id: int, position: int) -> bool:
    """Close the question (once, whoever asks first: timer or admin), show it, move on."""
    groups = services.storage.groups
    session = await groups.get_session(session_id)
    asked = await groups.asked(session_id, position)
    if session is None or session.posted or asked is None:
        return False
    async with _lock(services, session_id):
        step = await groups.reveal(session_id, position, services.clock())
        if not step.revealed:
            return False
        _cancel(jobs, _reveal_job(session_id))
        _cancel(jobs, _count_job(session_id))
        services.pace.shown_counts.pop((session_id, position), None)
        try:
            await _show_reveal(bot, services, session, position, asked.message_id)
        except TelegramError as error:
            log.warning(
                "question %s/%s closed, but its reveal failed: %s", session_id, position, error
            )
    if step.next_position is None:
        await _post_final(bot, services, session)
    else:
        await _ask_or_retry(bot, services, jobs, session, step.next_position)
    return True


async def _show_reveal(
    bot: Bot, services: Services, session: GroupSession, position: int, message_id: int
) -> None:
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(session.question_ids[position]) if quiz is not None else None
    if quiz is None or question is None or not message_id:
        return
    locale = _locale(services, session)
    if session.mode == POLL:
        await bot.stop_poll(session.chat_id, message_id)
        services.pace.record(session.chat_id, services.clock())
        spec = render.poll_spec(quiz, question, position, session.total, locale)
        if spec.followup is not None:
            await send(bot, services, session.chat_id, spec.followup)
        return
    counts = await services.storage.groups.answer_counts(session.id, position)
    rendered = render.reveal_message(quiz, question, position, session.total, counts, locale)
    await bot.edit_message_text(rendered.text, session.chat_id, message_id)
    services.pace.record(session.chat_id, services.clock())


async def _post_final(bot: Bot, services: Services, session: GroupSession) -> None:
    quiz = services.catalog.get(session.quiz_id)
    if quiz is None:
        return
    rows = rank(await services.storage.groups.session_scores(session.id))
    try:
        await send(
            bot,
            services,
            session.chat_id,
            render.final_board(quiz, rows, _locale(services, session)),
        )
    except TelegramError as error:  # the session has ended all the same
        log.warning("group session %s: results not posted: %s", session.id, faults.describe(error))


async def stop(bot: Bot, services: Services, jobs: Jobs, session: GroupSession) -> bool:
    """End the chat's running session now; its current question's buttons stop working."""
    async with _lock(services, session.id):
        if not await services.storage.groups.stop_session(session.id, services.clock()):
            return False
        _cancel(jobs, _reveal_job(session.id))
        _cancel(jobs, _count_job(session.id))
        current = await services.storage.groups.get_session(session.id)
        position = current.position if current is not None else session.position
        asked = await services.storage.groups.asked(session.id, position)
        try:
            if asked is not None and asked.revealed_at is None and asked.message_id:
                if session.mode == POLL:
                    await bot.stop_poll(session.chat_id, asked.message_id)
                else:
                    await bot.edit_message_reply_markup(session.chat_id, asked.message_id)
                services.pace.record(session.chat_id, services.clock())
        except TelegramError as error:
            log.warning(
                "session %s stopped, its last question kept its buttons: %s", session.id, error
            )
    await send(bot, services, session.chat_id, _locale(services, session).t("group_stopped"))
    await _post_final(bot, services, session)
    return True


async def resume(bot: Bot, services: Services, jobs: Jobs) -> None:
    """After a start: re-arm every running session's timer, or ask what was never asked."""
    for session in await services.storage.groups.running_sessions():
        asked = await services.storage.groups.asked(session.id, session.position)
        try:
            if asked is None:
                await _ask_or_retry(bot, services, jobs, session, session.position)
            elif asked.revealed_at is None:
                services.pace.shown_counts[(session.id, session.position)] = -1
                arm_timer(jobs, session.id, session.position, asked.deadline - services.clock())
            log.info("group session %s in chat %s resumed", session.id, session.chat_id)
        except TelegramError:
            log.exception("could not resume group session %s", session.id)


async def resume_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    assert context.job_queue is not None
    await resume(context.bot, _services(context), context.job_queue)


# posted questions: one question, no timer, each member answers once, the next push reveals it


POST_COUNT_DELAY = 3.0  # seconds: at most 20 edits a minute, Telegram's limit in a group


def _post_count_job(session_id: int) -> str:
    return f"post-count:{session_id}"


async def push_next(
    bot: Bot,
    services: Services,
    jobs: Jobs | None,
    quiz: Quiz,
    chat: int | str,
    admin_id: int | None,
) -> Reply:
    """Reveal the chat's open posted questions, then post the quiz's next unposted one."""
    shown = html.escape(str(chat))
    try:
        found = await bot.get_chat(chat)
    except TelegramError as error:
        return _not_posted(error, shown)
    # one push at a time per chat (a /push and a scheduled one, or two admins): else both
    # could reveal nothing and post, leaving two questions open
    async with services.push_locks.setdefault(found.id, asyncio.Lock()):
        return await _push_into(bot, services, jobs, quiz, found.id, found.type, shown, admin_id)


async def _push_into(
    bot: Bot,
    services: Services,
    jobs: Jobs | None,
    quiz: Quiz,
    chat_id: int,
    chat_type: str,
    shown: str,
    admin_id: int | None,
) -> Reply:
    await reveal_open_posts(bot, services, jobs, chat_id)
    groups = services.storage.groups
    posted = await groups.posted_question_ids(chat_id, quiz.id)
    for position, question in enumerate(quiz.questions):
        if question.id in posted:
            continue
        session = await groups.start_post(
            chat_id=chat_id,
            chat_type=chat_type,
            quiz_id=quiz.id,
            question_id=question.id,
            language="",  # drawn in the bot's default language (see `_locale`)
            posted_by=admin_id,
            now=services.clock(),
        )
        if session is None or session.post_id is None:
            continue
        message = render.post_message(
            quiz, question, session.post_id, Tally(0, 0), _locale(services, session)
        )
        try:
            sent = await bot.send_message(chat_id, message.text, reply_markup=message.markup)
        except TelegramError as error:
            await groups.drop_unsent(session.id)
            return _not_posted(error, shown)
        await groups.post_sent(session.id, question.id, sent.message_id, services.clock())
        return Reply(
            "push_done", {"k": position + 1, "n": len(quiz), "quiz_id": quiz.id, "chat": shown}
        )
    return Reply("push_all_posted", {"quiz_id": quiz.id, "chat": shown})


def _not_posted(error: TelegramError, shown: str) -> Reply:
    """A chat that refuses the bot is named as such; a fault of Telegram's (already retried by
    the bot, or perhaps carried out after all) is to be looked at, and pushed again later."""
    log.warning("push not posted: %s", faults.describe(error))
    if faults.classify(error).permanent:
        return Reply("push_no_chat", {"chat": shown})
    return Reply("push_try_later", {"chat": shown, "reason": html.escape(error.message)})


async def reveal_open_posts(bot: Bot, services: Services, jobs: Jobs | None, chat_id: int) -> None:
    """Close every open posted question of the chat and show its answer and tally."""
    groups = services.storage.groups
    for session in await groups.open_posts(chat_id):
        async with _lock(services, session.id):
            asked = await groups.asked(session.id, 0)
            step = await groups.reveal(session.id, 0, services.clock())
            if jobs is not None:
                _cancel(jobs, _post_count_job(session.id))
            if not step.revealed or asked is None:
                continue  # revealed by another push, or its message was never sent
            locale = _locale(services, session)
            quiz = services.catalog.get(session.quiz_id)
            question = quiz.question(asked.question_id) if quiz is not None else None
            if quiz is None or question is None:
                rendered = Rendered(locale.t("post_retired"))
            else:
                tally = await groups.tally(session.id, 0)
                rendered = render.post_reveal(quiz, question, tally, locale)
            try:
                await bot.edit_message_text(
                    rendered.text, chat_id=chat_id, message_id=asked.message_id, reply_markup=None
                )
            except TelegramError as error:
                log.warning("reveal of post %s failed: %s", session.post_id, error)


async def take_post_answer(
    services: Services, jobs: Jobs | None, query: CallbackQuery, tap: PostAnswer, locale: Locale
) -> None:
    """A member's one answer to a posted question: stored, then a toast; the count on the
    message follows within `POST_COUNT_DELAY` (one edit for all answers in that time, which
    keeps a busy channel under Telegram's edit limits and never holds up other updates)."""
    groups = services.storage.groups
    session = await groups.post(tap.post_id)
    asked = await groups.asked(session.id, 0) if session is not None else None
    message = query.message
    if (
        session is None
        or asked is None
        or message is None
        or message.chat.id != session.chat_id
        or message.message_id != asked.message_id
    ):
        await query.answer(locale.t("stale_button"))
        return
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(asked.question_id) if quiz is not None else None
    if quiz is None or question is None or tap.option >= len(question.options):
        await query.answer(locale.t("stale_button"))
        return
    if not session.running:
        await query.answer(locale.t("post_closed"))
        return
    outcome = await _record(services, session, asked, question, query.from_user, tap.option)
    if outcome.status is AnswerStatus.ALREADY:
        await query.answer(locale.t("already_answered"))
        return
    if outcome.status is AnswerStatus.CLOSED:  # revealed meanwhile
        await query.answer(locale.t("post_closed"))
        return
    try:
        await query.answer(answer_toast(question, tap.option, locale))
    except TelegramError as error:  # stored already: the answer counts without the toast
        log.warning("post %s: answer stored, toast failed: %s", session.post_id, error)
    if jobs is not None and not jobs.get_jobs_by_name(_post_count_job(session.id)):
        jobs.run_once(
            _refresh_post_count,
            POST_COUNT_DELAY,
            name=_post_count_job(session.id),
            data=session.id,
        )


async def _refresh_post_count(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Show the current number of answers on a posted question that is still open."""
    assert context.job is not None
    services = _services(context)
    session_id = cast(int, context.job.data)
    groups = services.storage.groups
    session = await groups.get_session(session_id)
    asked = await groups.asked(session_id, 0)
    if session is None or session.post_id is None or asked is None:
        return
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(asked.question_id) if quiz is not None else None
    if quiz is None or question is None:
        return
    async with _lock(services, session_id):  # a redraw never lands after the reveal
        current = await groups.get_session(session_id)
        if current is None or not current.running:
            return
        tally = await groups.tally(session_id, 0)
        rendered = render.post_message(
            quiz, question, session.post_id, tally, _locale(services, session)
        )
        try:
            await context.bot.edit_message_text(
                rendered.text,
                chat_id=session.chat_id,
                message_id=asked.message_id,
                reply_markup=rendered.markup,
            )
        except TelegramError as error:
            log.info("post %s: count not updated: %s", session.post_id, error)
