"""A chat's answers: taps on a question's buttons (a timed quiz's and a posted question's
alike) and votes in quiz polls; each redraws the question's live count (bot/group/flow.py:
`schedule_count`), within the chat's budget of 20 sends a minute.

Every member answers once: the store keeps the first answer and says what became of a later
one. A tap is checked against stored state (the session, the message it was made on, the
question still in the quiz); callback data only names what was tapped.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, PollAnswer, User
from telegram.error import TelegramError

from bot.core import faults
from bot.core.callbacks import (
    GroupAnswer,
    GroupPick,
    GroupSubmit,
    PostAnswer,
    PostPick,
    PostSubmit,
)
from bot.core.context import Jobs, Services
from bot.core.i18n import Locale
from bot.core.render import choice_count
from bot.group import flow, render
from content import grading
from content.grading import Choice, Grade, Response, Selection
from content.group_rules import answer_points
from content.model import Question
from storage.group_store import (
    AnswerStatus,
    AskedQuestion,
    GroupAnswerOutcome,
    GroupSession,
    TapTarget,
)

log = logging.getLogger(__name__)


async def _record(
    services: Services,
    session: GroupSession,
    asked: AskedQuestion,
    question: Question,
    who: User,
    response: Response,
    now: float,
) -> tuple[GroupAnswerOutcome, Grade]:
    """Grade a member's answer once and store it with its time and points (a tap, a
    multiple question's selection or a poll vote alike, given `now`: when it arrived, not
    when its turn came); a posted question is worth no points. `correct` is fully right; a
    timed quiz's points are those of a right answer at that speed times the credit
    (`content.group_rules.answer_points`: a weight below 0 takes points away)."""
    elapsed = max(now - asked.asked_at, 0.0)
    grade = grading.grade(question, response)
    score = 0 if session.posted else answer_points(grade.credit, elapsed, session.seconds)
    outcome = await services.storage.groups.record_answer(
        session_id=session.id,
        position=asked.position,
        question_id=question.id,
        user_id=who.id,
        name=who.full_name,
        chosen=grading.chosen_column(response),
        correct=grade.fully_right,
        elapsed=elapsed,
        points=score,
        now=now,
        credit=float(grade.credit) if grading.scored_in_parts(question) else None,
    )
    return outcome, grade


MemberTap = GroupAnswer | PostAnswer | GroupPick | PostPick | GroupSubmit | PostSubmit


async def _open_target(
    services: Services, query: CallbackQuery, tap: MemberTap, locale: Locale
) -> tuple[GroupSession, AskedQuestion, Question] | str:
    """The running session, asked question and question a member's tap names, checked
    against stored state (its chat, its message, the question still in the quiz); else the
    toast that refuses it."""
    message = query.message
    if message is None:
        return locale.t("stale_button")
    target = await _tap_target(services, tap)
    running = target.session
    if running is not None and running.running and _not_its_message(target, message.message_id):
        # tapped as soon as it was posted, before it was recorded: the post holds the
        # session's lock until it is
        async with flow.session_lock(services, running.id):
            target = await _tap_target(services, tap)
    session, asked = target.session, target.asked
    if session is None or session.chat_id != message.chat.id:
        return locale.t("stale_button")
    if asked is None or asked.message_id != message.message_id:
        return locale.t("stale_button")
    if not session.running:
        return render.closed_toast(session, locale)
    found = flow.resolve(services, session, asked.question_id)
    if found is None:
        return locale.t("stale_button")
    question = found[1]
    option = 0 if isinstance(tap, GroupSubmit | PostSubmit) else tap.option
    picks = not isinstance(tap, GroupAnswer | PostAnswer)
    if picks != render.is_multiple(question) or option >= choice_count(question):
        return locale.t("stale_button")  # forged: not a button of this question
    return session, asked, question


async def _tap_target(services: Services, tap: MemberTap) -> TapTarget:
    """The session and the asked question a tap names, as stored (read once per question)."""
    groups = services.storage.groups
    if isinstance(tap, PostAnswer | PostPick | PostSubmit):
        return await groups.tap_target(post_id=tap.post_id)
    target = await groups.tap_target(session_id=tap.session_id, position=tap.position)
    if target.session is not None and target.session.posted:
        return TapTarget(None, None)  # a post's buttons are Post*: this one is forged
    return target


def _not_its_message(target: TapTarget, message_id: int) -> bool:
    """The tap's message is not the question's as stored (not recorded yet, or another)."""
    return target.asked is None or target.asked.message_id != message_id


async def take_tap(
    services: Services,
    jobs: Jobs,
    query: CallbackQuery,
    tap: GroupAnswer | PostAnswer,
    locale: Locale,
    arrived_at: float,
) -> None:
    """Record a member's first answer, at the time it arrived (committed first, in a batch
    with the other members' answers); tell them alone and pace the count.

    What the tap names is read once per question (`GroupStore.tap_target`); whether the
    question still takes answers is decided when the answer is written. The toast is sent as
    soon as the answer is committed, and, with the redrawn count, outside the member's turn
    (a toast or an edit that Telegram answers with 502 is tried again for seconds, and a
    Reveal after it would wait for it)."""
    found = await _open_target(services, query, tap, locale)
    if isinstance(found, str):
        _toast(services, jobs, query, found)
        return
    await _answer(services, jobs, query, found, Choice(tap.option), locale, arrived_at)


async def _answer(
    services: Services,
    jobs: Jobs,
    query: CallbackQuery,
    found: tuple[GroupSession, AskedQuestion, Question],
    response: Response,
    locale: Locale,
    arrived_at: float,
) -> None:
    session, asked, question = found
    outcome, grade = await _record(
        services, session, asked, question, query.from_user, response, arrived_at
    )
    _toast(services, jobs, query, _told(session, question, outcome, grade, locale))
    if outcome.status is AnswerStatus.RECORDED:
        flow.schedule_count(jobs, session, asked.position)


def _told(
    session: GroupSession,
    question: Question,
    outcome: GroupAnswerOutcome,
    grade: Grade | None,
    locale: Locale,
) -> str:
    """The toast of an answer: how it was graded, or that an earlier one stands (its stored
    `chosen` read back here, at the boundary), or that it came too late."""
    if outcome.status is AnswerStatus.ALREADY:
        standing = (
            None if outcome.chosen is None else grading.stored_response(question, outcome.chosen)
        )
        return render.standing_toast(session, question, standing, locale)
    if outcome.status is AnswerStatus.CLOSED or grade is None:
        return render.refused_toast(session, locale)
    return render.tap_toast(session, question, grade, outcome.points, locale)


async def take_pick(
    services: Services,
    jobs: Jobs,
    query: CallbackQuery,
    tap: GroupPick | PostPick,
    locale: Locale,
    arrived_at: float,
) -> None:
    """A member picks or unpicks an option of a multiple question: their selection, kept in
    SQLite, changes and is shown in their toast alone; the shared keyboard is never edited."""
    found = await _open_target(services, query, tap, locale)
    if isinstance(found, str):
        _toast(services, jobs, query, found)
        return
    session, asked, question = found
    outcome = await services.storage.groups.toggle_pick(
        session_id=session.id,
        position=asked.position,
        question_id=question.id,
        user_id=query.from_user.id,
        option=tap.option,
        now=arrived_at,
    )
    if outcome.status is AnswerStatus.RECORDED:
        selection = grading.stored_response(question, outcome.options)
        assert isinstance(selection, Selection)
        _toast(services, jobs, query, render.pick_toast(selection, locale))
    elif outcome.status is AnswerStatus.ALREADY:
        _toast(services, jobs, query, locale.t("already_answered"))
    else:
        _toast(
            services,
            jobs,
            query,
            locale.t("post_closed" if session.posted else "group_toast_closed"),
        )


async def take_submit(
    services: Services,
    jobs: Jobs,
    query: CallbackQuery,
    tap: GroupSubmit | PostSubmit,
    locale: Locale,
    arrived_at: float,
) -> None:
    """A member submits their selection on a multiple question: their one answer, stored as
    any other (one per member: a second Submit is refused); an empty selection is refused."""
    found = await _open_target(services, query, tap, locale)
    if isinstance(found, str):
        _toast(services, jobs, query, found)
        return
    session, asked, question = found
    groups, member = services.storage.groups, query.from_user.id
    options = await groups.picks(session.id, asked.position, member)
    if not options:  # none picked, or none kept: /forgetme deletes a selection, not an answer
        standing = await groups.standing_answer(session.id, asked.position, member)
        if standing is not None and standing.chosen is not None:
            toast = _told(session, question, standing, None, locale)
        elif _takes_answers(session, asked, arrived_at):
            toast = locale.t("pick_first")
        else:  # as the answer would have been refused
            toast = locale.t("post_closed" if session.posted else "group_toast_closed")
        _toast(services, jobs, query, toast)
        return
    selection = grading.stored_response(question, options)
    await _answer(services, jobs, query, found, selection, locale, arrived_at)


def _takes_answers(session: GroupSession, asked: AskedQuestion, at: float) -> bool:
    """Whether the question took answers at `at`, as stored when the tap was read (the store
    decides it again when an answer is written: storage/group_batch.py's OPEN_QUESTION)."""
    return (
        session.running
        and session.position == asked.position
        and asked.revealed_at is None
        and at <= asked.deadline
    )


def _toast(services: Services, jobs: Jobs, query: CallbackQuery, text: str) -> None:
    """Answer a tap outside its chat's turn: handed to the toast process when it runs, else
    sent from here; a toast that fails costs one line (an answer it acknowledges is stored
    already)."""
    if services.toaster is not None and services.toaster.send(query.id, text):
        return

    async def answer() -> None:
        try:
            await query.answer(text)
        except TelegramError as error:
            log.warning("a group tap's toast failed: %s", faults.describe(error))

    jobs.application.create_task(answer(), name="group-toast")


async def take_vote(services: Services, answer: PollAnswer, arrived_at: float) -> None:
    """A vote in a quiz poll, at the time it arrived: stored like a tap (no toast exists for
    polls)."""
    groups = services.storage.groups
    asked = await groups.asked_by_poll(answer.poll_id)
    chat_id = services.poll_chats.get(answer.poll_id)
    if asked is None and chat_id is not None:
        # posted by a timer a moment ago and not yet recorded: the post holds its session's
        # lock until it is, so wait for every running session of that chat in turn (a forum
        # runs one in each topic)
        for running in await groups.running_sessions():
            if asked is not None:
                break
            if running.chat_id == chat_id:
                async with flow.session_lock(services, running.id):
                    asked = await groups.asked_by_poll(answer.poll_id)
    if asked is None or not answer.option_ids or answer.user is None:
        return
    session = await groups.get_session(asked.session_id)
    found = flow.resolve(services, session, asked.question_id) if session is not None else None
    if session is None or found is None:
        return
    question = found[1]
    options = set(answer.option_ids)
    if max(options) >= choice_count(question) or (
        len(options) > 1 and not render.is_multiple(question)
    ):
        return
    response = (
        Selection(frozenset(options)) if render.is_multiple(question) else Choice(min(options))
    )
    outcome, _ = await _record(
        services, session, asked, question, answer.user, response, arrived_at
    )
    log.debug("poll answer %s: %s", answer.poll_id, outcome.status.value)
