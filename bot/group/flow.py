"""A whole chat's sessions (group, supergroup or channel): start, ask, reveal, stop, resume.

Two kinds of session (storage/group_store.py): a timed quiz (/groupquiz), its questions one
after the other on a timer, scored for a leaderboard; and a posted question (/push, a daily
schedule: `bot.group.posts`), one question with no timer, revealed by the next push into that
chat. Their answers and live counts are `bot.group.answers`.

State lives in SQLite (`Storage.groups`); timers are JobQueue jobs re-armed from it at
start, so a restart mid-question resumes the session. Every decision is made against stored
state; callback data and poll ids only name what was tapped or voted.
"""

from __future__ import annotations

import html
import logging
from contextlib import AbstractAsyncContextManager
from typing import Any, cast

from telegram import Bot, InputPollOption
from telegram.constants import PollType
from telegram.error import BadRequest, TelegramError

from bot.core import deeplinks, faults, pictures
from bot.core.context import Jobs, QuizContext, Services, send
from bot.core.i18n import Locale
from bot.core.render import Rendered, picture_line
from bot.group import render
from content import grading
from content.group_rules import rank, shown_state, time_left, time_marks, upcoming_sends
from content.loader import IN_GROUPS
from content.model import Question, Quiz
from storage.group_store import AskedQuestion, GroupSession

log = logging.getLogger(__name__)

POLL_PERIOD = (5, 600)  # the seconds a quiz poll's own timer (`open_period`) may run


BUTTONS = "buttons"
POLL = "poll"
# A question Telegram could not take now (after the bot's own quick retries) is tried again
# this much later, then the session ends and its admin is told (about 4 minutes in all).
ASK_RETRY_DELAYS = (5.0, 15.0, 30.0, 60.0, 120.0)


def playable_in_groups(quiz: Quiz) -> tuple[Question, ...]:
    """The questions of a quiz that a group or channel plays (`content.loader.IN_GROUPS`)."""
    return tuple(question for question in quiz.questions if IN_GROUPS.takes(question))


def session_locale(services: Services, session: GroupSession) -> Locale:
    """The session's language; a post's is '': the bot's default, as it is when drawn."""
    default = services.settings.default_language
    return Locale(session.language or default, default)


def session_lock(services: Services, session_id: int) -> AbstractAsyncContextManager[None]:
    """One session's posting, redrawing, revealing and stopping happen one at a time: a redraw
    can never land after the reveal, nor a question be posted twice."""
    return services.locks.sessions.hold(session_id)


def resolve(
    services: Services, session: GroupSession, question_id: str
) -> tuple[Quiz, Question] | None:
    """The session's quiz and one of its questions as the catalog has them now; None once
    either was removed."""
    quiz = services.catalog.get(session.quiz_id)
    question = quiz.question(question_id) if quiz is not None else None
    return None if quiz is None or question is None else (quiz, question)


def _reveal_job(session_id: int) -> str:
    return f"group-reveal:{session_id}"


def count_job(session_id: int) -> str:
    """The name of the job that redraws a session's live count (`bot.group.answers`)."""
    return f"group-count:{session_id}"


def _retry_job_name(session_id: int) -> str:
    return f"group-retry:{session_id}"


def cancel(jobs: Jobs, *names: str) -> None:
    """Remove the jobs of these names."""
    for name in names:
        for job in jobs.get_jobs_by_name(name):
            job.schedule_removal()


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
    thread_id: int | None = None,
) -> GroupSession | None:
    """Start the chat's session (in forum topic `thread_id`) and ask its first question; None
    if one is running there. Questions a chat cannot play (`IN_GROUPS`) are skipped, and the
    intro says how many."""
    asked = playable_in_groups(quiz)
    session = await services.storage.groups.start_session(
        chat_id=chat_id,
        chat_type=chat_type,
        quiz_id=quiz.id,
        question_ids=tuple(question.id for question in asked),
        seconds=seconds,
        mode=mode,
        language=language,
        started_by=started_by,
        now=services.clock(),
        thread_id=thread_id,
    )
    if session is None:
        return None
    locale = session_locale(services, session)
    try:
        skipped = len(quiz) - len(asked)
        intro = render.intro(quiz, session.total, seconds, locale, skipped)
        await send(bot, services, chat_id, intro, thread_id=thread_id)
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


async def _retry_job(context: QuizContext) -> None:
    assert context.job is not None and context.job_queue is not None
    services = context.services
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
    async with session_lock(services, session.id):
        if not await services.storage.groups.stop_session(session.id, services.clock()):
            return
        cancel(jobs, _reveal_job(session.id), count_job(session.id), _retry_job_name(session.id))
    fault = faults.classify(error)
    log.warning(
        "group session %s in chat %s ended, its post was not taken: %s",
        session.id, session.chat_id, faults.describe(error),
    )  # fmt: skip
    locale = session_locale(services, session)
    reason = html.escape(error.message)
    if fault is faults.Fault.REJECTED:
        key = "group_ended_poll" if session.mode == POLL else "group_ended_here"
        try:
            await send(
                bot, services, session.chat_id,
                locale.t(key, reason=reason, quiz_id=html.escape(session.quiz_id)),
                thread_id=session.thread_id,
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
        text = locale.t("group_gave_up_admin", **values, n=tries)
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
    async with session_lock(services, session.id):
        current = await groups.get_session(session.id)
        if current is None or not current.running or current.position != position:
            return
        if await groups.asked(session.id, position) is not None:
            return
        found = resolve(services, session, session.question_ids[position])
        locale = session_locale(services, session)
        poll_id: str | None = None
        photo = False
        if found is None:
            # the quiz or this question was removed since the start: pass over it
            now = services.clock()
            await groups.question_asked(
                session.id, position, session.question_ids[position], 0, None, now, now
            )
            gone = True
        else:
            gone = False
            quiz, question = found
            if session.mode == POLL and render.as_poll(question):
                message_id, poll_id = await _send_poll(
                    bot, services, session, quiz, question, position
                )
            else:
                rendered = render.question_message(
                    quiz, question, position, session.total, session.id, session.seconds, 0,
                    locale,
                )  # fmt: skip
                message_id, photo = await send_question(
                    bot, services, session, question, rendered, locale
                )
            now = services.clock()
            await groups.question_asked(
                session.id, position, question.id, message_id, poll_id, now,
                now + session.seconds, photo,
            )  # fmt: skip
            services.shown_counts.posted((session.id, position), shown_state(0, session.seconds))
            arm_timer(jobs, session.id, position, session.seconds)
            if poll_id is None:
                arm_ticks(jobs, session, position)
    if gone:
        await reveal(bot, services, jobs, session.id, position)


async def send_question(
    bot: Bot,
    services: Services,
    session: GroupSession,
    question: Question,
    rendered: Rendered,
    locale: Locale,
) -> tuple[int, bool]:
    """Post a question's message into the session's chat (its topic), counted against the
    chat's budget: text, or with its picture a photo captioned with it (or the photo, then
    the text: `bot.core.pictures`). The id of the message with the buttons, and whether it is
    a photo."""
    if question.image is None:
        message_id = await send(
            bot, services, session.chat_id, rendered.text, rendered.markup, session.thread_id
        )
        return message_id, False
    sent = await pictures.send_with_picture(
        bot, services, session.chat_id, question.image, picture_line(question, locale),
        rendered, thread_id=session.thread_id,
    )  # fmt: skip
    for _ in range(2 if sent.photo is not None else 1):
        services.pace.record(session.chat_id, services.clock())
    return sent.message.message_id, pictures.has_photo(sent.message)


async def _send_poll(
    bot: Bot, services: Services, session: GroupSession, quiz: Quiz, question: Question,
    position: int,
) -> tuple[int, str]:  # fmt: skip
    locale = session_locale(services, session)
    spec = render.poll_spec(quiz, question, position, session.total, locale)
    if question.image is not None:  # a poll has no picture: the picture goes first
        caption = picture_line(question, locale)
        if await pictures.send_picture(
            bot, services, session.chat_id, question.image, caption=caption,
            thread_id=session.thread_id,
        ):  # fmt: skip
            services.pace.record(session.chat_id, services.clock())
    message = await bot.send_poll(
        session.chat_id,
        spec.question,
        [InputPollOption(option, text_parse_mode=None) for option in spec.options],
        is_anonymous=False,
        type=PollType.QUIZ,
        allows_multiple_answers=spec.multiple,
        correct_option_ids=cast(Any, spec.correct),
        explanation=spec.explanation,
        explanation_parse_mode=None,
        question_parse_mode=None,
        # Telegram's own timer: the poll counts down on every phone and closes itself
        open_period=session.seconds
        if POLL_PERIOD[0] <= session.seconds <= POLL_PERIOD[1]
        else None,
        message_thread_id=session.thread_id,
    )
    services.pace.record(session.chat_id, services.clock())
    assert message.poll is not None
    services.poll_chats[message.poll.id] = session.chat_id
    return message.message_id, message.poll.id


def _tick_job(session_id: int) -> str:
    return f"group-tick:{session_id}"


def arm_ticks(jobs: Jobs, session: GroupSession, position: int, elapsed: float = 0.0) -> None:
    """The redraws of a question's time left (`time_marks`), each a redraw of its live state
    that the chat's budget of sends lets through (`refresh_count`)."""
    cancel(jobs, _tick_job(session.id))
    for mark in time_marks(session.seconds):
        when = session.seconds - mark - elapsed
        if when > 0:
            jobs.run_once(
                _on_tick, when=when, data=(session.id, position), name=_tick_job(session.id)
            )


async def _on_tick(context: QuizContext) -> None:
    assert context.job is not None
    session_id, position = cast(tuple[int, int], context.job.data)
    await refresh_count(context.bot, context.services, context.jobs, session_id, position)


def arm_timer(jobs: Jobs, session_id: int, position: int, delay: float) -> None:
    cancel(jobs, _reveal_job(session_id))
    jobs.run_once(
        _on_timer, when=max(delay, 0.0), data=(session_id, position), name=_reveal_job(session_id)
    )


async def _on_timer(context: QuizContext) -> None:
    assert context.job is not None
    session_id, position = cast(tuple[int, int], context.job.data)
    await reveal(context.bot, context.services, context.jobs, session_id, position)


# revealing, finishing, stopping


async def reveal(bot: Bot, services: Services, jobs: Jobs, session_id: int, position: int) -> bool:
    """Close the question (once, whoever asks first: the timer, an admin, the next push), show
    it, move on. A post whose message was never sent closes all the same, showing nothing."""
    groups = services.storage.groups
    session = await groups.get_session(session_id)
    asked = await groups.asked(session_id, position)
    if session is None or (asked is None and not session.posted):
        return False
    async with session_lock(services, session_id):
        step = await groups.reveal(session_id, position, services.clock())
        if not step.revealed:
            return False
        cancel(jobs, _reveal_job(session_id), count_job(session_id), _tick_job(session_id))
        _closed(services, session_id, position, asked)
        try:
            if asked is not None and asked.message_id:
                await _show_reveal(bot, services, session, asked)
        except TelegramError as error:
            log.warning(
                "question %s/%s closed, but its reveal failed: %s", session_id, position, error
            )
    if session.posted:
        return True
    if step.next_position is None:
        await _post_final(bot, services, session)
    else:
        await _ask_or_retry(bot, services, jobs, session, step.next_position)
    return True


def _closed(
    services: Services, session_id: int, position: int, asked: AskedQuestion | None
) -> None:
    """Forget what a question that closed no longer needs: its shown count, its poll's chat."""
    services.shown_counts.closed((session_id, position))
    if asked is not None and asked.poll_id is not None:
        services.poll_chats.pop(asked.poll_id, None)


async def _show_reveal(
    bot: Bot, services: Services, session: GroupSession, asked: AskedQuestion
) -> None:
    """The closed question as the chat sees it: the right answer, the counts, the explanation
    (a quiz poll is stopped, and Telegram shows its result)."""
    locale = session_locale(services, session)
    found = resolve(services, session, asked.question_id)
    if found is None:
        if session.posted:  # its message still asks: say why it closes unanswered
            await bot.edit_message_text(locale.t("post_retired"), session.chat_id, asked.message_id)
        return
    quiz, question = found
    groups = services.storage.groups
    if asked.poll_id is not None:
        await _stop_poll(bot, services, session, asked)
        spec = render.poll_spec(quiz, question, asked.position, session.total, locale)
        if spec.followup is not None:
            await send(bot, services, session.chat_id, spec.followup, None, session.thread_id)
        await _send_explanation_picture(bot, services, session, asked, question)
        return
    counts = {
        grading.stored_response(question, chosen): n
        for chosen, n in (await groups.answer_counts(session.id, asked.position)).items()
    }
    tally = await groups.tally(session.id, asked.position)
    if session.posted:
        rendered = render.post_reveal(quiz, question, tally, counts, locale)
    else:
        rendered = render.reveal_message(
            quiz, question, asked.position, session.total, counts, tally.correct, locale
        )
    await show_on_question(bot, services, session, asked, question, rendered, locale)
    await _send_explanation_picture(bot, services, session, asked, question)


async def _stop_poll(
    bot: Bot, services: Services, session: GroupSession, asked: AskedQuestion
) -> None:
    """Close a question's quiz poll; one its own timer (`open_period`) closed is closed."""
    try:
        await bot.stop_poll(session.chat_id, asked.message_id)
    except BadRequest as error:
        if "already been closed" not in str(error).lower():
            raise
        return
    services.pace.record(session.chat_id, services.clock())


async def _send_explanation_picture(
    bot: Bot, services: Services, session: GroupSession, asked: AskedQuestion, question: Question
) -> None:
    """An explanation's picture, after the reveal, as a reply to the question."""
    if question.explanation_image is not None and await pictures.send_picture(
        bot, services, session.chat_id, question.explanation_image,
        reply_to=asked.message_id, thread_id=session.thread_id,
    ):  # fmt: skip
        services.pace.record(session.chat_id, services.clock())


async def show_on_question(
    bot: Bot,
    services: Services,
    session: GroupSession,
    asked: AskedQuestion,
    question: Question,
    rendered: Rendered,
    locale: Locale,
    count_edit: bool = False,
) -> bool:
    """Show `rendered` (a redrawn count, a reveal) on the question's message, counted against
    the chat's budget: its text edited, or its caption when it is a photo and the text fits a
    caption (with the picture's alt text when that fits too). A reveal too long for a caption
    takes the buttons off the photo and replies to it; a redrawn count too long for one is
    not shown (False)."""
    chat_id, message_id = session.chat_id, asked.message_id
    if not asked.photo:
        await bot.edit_message_text(
            rendered.text, chat_id, message_id, reply_markup=rendered.markup
        )
    else:
        alt = picture_line(question, locale)
        captioned = f"{rendered.text}\n\n{alt}" if alt else rendered.text
        caption = captioned if pictures.fits_caption(captioned) else rendered.text
        if pictures.fits_caption(caption):
            await bot.edit_message_caption(
                chat_id, message_id, caption=caption, reply_markup=rendered.markup
            )
        elif rendered.markup is not None:
            return False  # a live count: the caption keeps the last one that fitted
        else:
            await bot.edit_message_reply_markup(chat_id, message_id)
            services.pace.record(chat_id, services.clock())
            await bot.send_message(
                chat_id, rendered.text, reply_to_message_id=message_id,
                message_thread_id=session.thread_id,
            )  # fmt: skip
    services.pace.record(chat_id, services.clock(), count_edit=count_edit)
    return True


async def _post_final(bot: Bot, services: Services, session: GroupSession) -> None:
    quiz = services.catalog.get(session.quiz_id)
    if quiz is None:
        return
    rows = rank(await services.storage.groups.session_scores(session.id))
    locale = session_locale(services, session)
    keyboard = None
    if rows:  # nobody answered: nothing to review
        payload = services.links.encode(deeplinks.MissedReview(session.id), services.clock())
        keyboard = render.missed_keyboard(deeplinks.url(bot.username, payload), locale)
    try:
        await send(
            bot, services, session.chat_id, render.final_board(quiz, rows, locale), keyboard,
            session.thread_id,
        )  # fmt: skip
    except TelegramError as error:  # the session has ended all the same
        log.warning("group session %s: results not posted: %s", session.id, faults.describe(error))


async def stop(bot: Bot, services: Services, jobs: Jobs, session: GroupSession) -> bool:
    """End the chat's running session now; its current question's buttons stop working."""
    async with session_lock(services, session.id):
        if not await services.storage.groups.stop_session(session.id, services.clock()):
            return False
        asked = await _forget(services, jobs, session)
        try:
            if asked is not None and asked.revealed_at is None and asked.message_id:
                # the open question is closed in place, as a reveal: never left asking
                await _show_reveal(bot, services, session, asked)
        except TelegramError as error:
            log.warning(
                "session %s stopped, its last question kept its buttons: %s", session.id, error
            )
    stopped = session_locale(services, session).t("group_stopped")
    await send(bot, services, session.chat_id, stopped, None, session.thread_id)
    await _post_final(bot, services, session)
    return True


async def _forget(services: Services, jobs: Jobs, session: GroupSession) -> AskedQuestion | None:
    """What an ended session no longer needs: its timers, its count, its poll's chat; the
    question it was at."""
    cancel(jobs, _reveal_job(session.id), count_job(session.id), _tick_job(session.id))
    current = await services.storage.groups.get_session(session.id)
    position = current.position if current is not None else session.position
    asked = await services.storage.groups.asked(session.id, position)
    _closed(services, session.id, position, asked)
    return asked


async def ended_by_move(bot: Bot, services: Services, jobs: Jobs, session_id: int) -> None:
    """A quiz ended because its group became a supergroup (storage/chat_moves.py): its
    timers stop, and the new chat is told, with the results so far."""
    session = await services.storage.groups.get_session(session_id)
    if session is None:
        return
    async with session_lock(services, session.id):
        await _forget(services, jobs, session)
    moved = session_locale(services, session).t("group_moved")
    try:
        await send(bot, services, session.chat_id, moved, None, session.thread_id)
    except TelegramError as error:
        log.warning("group session %s: end not told: %s", session.id, faults.describe(error))
    await _post_final(bot, services, session)


async def resume(bot: Bot, services: Services, jobs: Jobs) -> None:
    """After a start: re-arm every running session's timer, or ask what was never asked."""
    for session in await services.storage.groups.running_sessions():
        asked = await services.storage.groups.asked(session.id, session.position)
        try:
            if asked is None:
                await _ask_or_retry(bot, services, jobs, session, session.position)
            elif asked.revealed_at is None:
                services.shown_counts.unknown((session.id, session.position))
                arm_timer(jobs, session.id, session.position, asked.deadline - services.clock())
                if asked.poll_id is None:
                    elapsed = services.clock() - asked.asked_at
                    arm_ticks(jobs, session, session.position, elapsed)
            log.info("group session %s in chat %s resumed", session.id, session.chat_id)
        except TelegramError:
            log.exception("could not resume group session %s", session.id)


async def resume_job(context: QuizContext) -> None:
    """The job that resumes the running sessions, once, right after the start."""
    await resume(context.bot, context.services, context.jobs)


# the live count and the time left


# A posted question's count is first redrawn this long after its first answer, so that the
# answers of a burst (a channel's members reading the post at once) are shown by one edit.
POST_COUNT_DELAY = 3.0


def schedule_count(jobs: Jobs, session: GroupSession, position: int, wait: float = 0.0) -> None:
    """Redraw the live count `wait` seconds from now (a post's first redraw waits for its
    burst: `POST_COUNT_DELAY`), in a job of its own, one at a time."""
    name = count_job(session.id)
    if not jobs.get_jobs_by_name(name):
        first = POST_COUNT_DELAY if session.posted else 0.0
        jobs.run_once(_on_count, when=max(wait, first), data=(session.id, position), name=name)


async def _on_count(context: QuizContext) -> None:
    assert context.job is not None
    session_id, position = cast(tuple[int, int], context.job.data)
    await refresh_count(context.bot, context.services, context.jobs, session_id, position)


async def refresh_count(
    bot: Bot, services: Services, jobs: Jobs, session_id: int, position: int
) -> None:
    """Redraw the live answer count now if the chat's budget allows, else schedule it."""
    groups = services.storage.groups
    session = await groups.get_session(session_id)
    if session is None or not session.running or session.position != position:
        return
    asked = await groups.asked(session_id, position)
    if asked is None or asked.revealed_at is not None or asked.poll_id is not None:
        return  # revealed, or a poll, which shows its own count
    now = services.clock()
    upcoming = upcoming_sends(asked.deadline, session.seconds, now)
    wait = services.pace.count_edit_wait(session.chat_id, now, upcoming)
    if wait > 0:
        schedule_count(jobs, session, position, wait)
        return
    found = resolve(services, session, asked.question_id)
    if found is None:
        return
    quiz, question = found
    async with session_lock(services, session_id):
        fresh = await groups.asked(session_id, position)
        if fresh is None or fresh.revealed_at is not None:
            return  # revealed meanwhile: a redraw now would bring the buttons back
        count = sum((await groups.answer_counts(session_id, position)).values())
        left = time_left(fresh.deadline, services.clock())
        key, shown = (session_id, position), shown_state(count, left)
        if services.shown_counts.shows(key, shown):
            return
        locale = session_locale(services, session)
        rendered = render.open_question(session, quiz, question, position, count, locale, left)
        try:
            if not await show_on_question(
                bot, services, session, fresh, question, rendered, locale, count_edit=True
            ):
                return
        except BadRequest as error:
            log.debug("live count not redrawn: %s", error)
            return
        services.shown_counts.drawn(key, shown)
