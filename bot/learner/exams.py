"""A learner's exam in private (its rules are content/exams.py's): started, its questions shown
one at a time with the time left, answered and changed until the learner hands it in or the
time is up; then marked, and reviewed page by page (bot/learner/exam_end.py).

State lives in SQLite (`storage.exams`): the paper drawn once, the responses, the question
shown and the message that shows it. The clock is the server's: every tap and reply checks
the time left before it changes anything, and the time limit is a JobQueue job per exam,
re-armed from SQLite at start (a limit that passed while the bot was down ends the exam at
once; a restart gives no time and loses no answer). Ending is once, whoever comes first.
Nothing says right or wrong before the end; the right answers are shown in the review only
once the learner has no attempt left.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import cast

from telegram import Bot, CallbackQuery, Message
from telegram.error import BadRequest

from bot.core import callbacks, pictures
from bot.core.context import Jobs, QuizContext, Services
from bot.core.i18n import Locale
from bot.core.render import Rendered, choice_count, letter, letters, picture_line, takes_reply
from bot.learner import exam_render as render
from bot.learner.exam_end import end_exam, order_of, send_result, strip
from content import grading
from content.exams import Paper, draw, rules_of
from content.grading import NumberReply, TextReply, Unreadable
from content.model import Exam, Question, QuestionType, Quiz, clip
from storage import AwaitedReply
from storage.exam_store import BY_LEARNER, BY_TIME, Sitting
from storage.homework_store import FIRST, Assignment

log = logging.getLogger(__name__)

MAX_STORED_REPLY = 500  # characters of a typed reply kept (as a quiz's answers keep them)


def _job_name(attempt_id: int) -> str:
    return f"exam-time:{attempt_id}"


def arm(jobs: Jobs, services: Services, sitting: Sitting) -> None:
    """The job that ends the exam when its time is up (at once if it is up already)."""
    name = _job_name(sitting.attempt.id)
    for job in jobs.get_jobs_by_name(name):
        job.schedule_removal()
    when = sitting.time_left(services.clock())
    jobs.run_once(_on_time_up, when=when, data=sitting.attempt.id, name=name)


async def resume(jobs: Jobs, services: Services) -> None:
    """At start: every running exam's time limit armed again from SQLite."""
    for sitting in await services.storage.exams.open_sittings():
        arm(jobs, services, sitting)
        log.info("exam %s re-armed: %.0f s left", sitting.attempt.id,
                 sitting.time_left(services.clock()))  # fmt: skip


async def _on_time_up(context: QuizContext) -> None:
    assert context.job is not None
    sitting = await context.services.storage.exams.get(cast(int, context.job.data))
    if sitting is not None and sitting.open:
        await end_exam(context.bot, context.services, sitting, BY_TIME)


# what a running exam is, as a tap or a reply finds it


@dataclass(frozen=True)
class _Running:
    sitting: Sitting
    quiz: Quiz
    paper: Paper

    @property
    def attempt_id(self) -> int:
        return self.sitting.attempt.id

    def live(self) -> tuple[str, ...]:
        """The paper's questions still in the bank (a question retired meanwhile counts
        nowhere), in the paper's order."""
        return tuple(item for item in self.paper.items if self.quiz.question(item) is not None)


async def _running(services: Services, attempt_id: int, user_id: int) -> _Running | str:
    """The learner's running exam, or the interface string that says why not."""
    sitting = await services.storage.exams.get(attempt_id)
    if sitting is None:
        return "stale_button"
    if sitting.attempt.user_id != user_id:
        return "exam_not_yours"
    if not sitting.open:
        return "exam_ended"
    quiz = services.catalog.get(sitting.quiz_id)
    if quiz is None:
        return "quiz_gone"
    return _Running(sitting, quiz, Paper.from_json(sitting.paper))


# starting


async def open_exam(
    bot: Bot, services: Services, jobs: Jobs, chat_id: int, user_id: int, quiz: Quiz,
    locale: Locale,
) -> None:  # fmt: skip
    """`/exam <quiz>`: the running exam where it was (the same paper), else a new one while the
    learner has attempts left, else their last result."""
    exams = services.storage.exams
    sitting = await exams.running(user_id, quiz.id)
    if sitting is not None:
        await _resume(bot, services, chat_id, sitting, locale)
        return
    taken = await exams.taken(user_id, quiz.id)
    rules = rules_of(quiz)
    if rules.attempts and len(taken) >= rules.attempts:
        await bot.send_message(chat_id, locale.t("exam_no_attempts_left", n=rules.attempts))
        await send_result(bot, services, chat_id, taken[-1], locale)
        return
    await _begin(bot, services, jobs, chat_id, user_id, quiz, rules, len(taken) + 1, locale)


async def open_homework_exam(
    bot: Bot, services: Services, jobs: Jobs, chat_id: int, user_id: int, quiz: Quiz,
    assignment: Assignment, locale: Locale,
) -> None:  # fmt: skip
    """A homework's exam from its link: the member's running one where it was, else a new
    attempt of the homework with its minutes (never past its deadline) while they have one
    left (the first counts: one; the best: the bank's `attempts`, 0 for any), else their
    last result."""
    exams = services.storage.exams
    sitting = await exams.running(user_id, quiz.id, assignment.id)
    if sitting is not None:
        await _resume(bot, services, chat_id, sitting, locale)
        return
    taken = await exams.taken(user_id, quiz.id, assignment.id)
    allowed = 1 if assignment.counts == FIRST else rules_of(quiz).attempts
    rules = rules_of(quiz, assignment.exam_minutes, allowed)
    if allowed and len(taken) >= allowed:
        await bot.send_message(chat_id, locale.t("exam_no_attempts_left", n=allowed))
        await send_result(bot, services, chat_id, taken[-1], locale)
        return
    await _begin(
        bot, services, jobs, chat_id, user_id, quiz, rules, len(taken) + 1, locale, assignment
    )


async def _resume(
    bot: Bot, services: Services, chat_id: int, sitting: Sitting, locale: Locale
) -> None:
    """A running exam opened again: its question where it was, with the time left (ended now
    if its time is up)."""
    running = await _running(services, sitting.attempt.id, sitting.attempt.user_id)
    if isinstance(running, str):
        await bot.send_message(chat_id, locale.t(running))
    elif sitting.time_left(services.clock()) <= 0:
        await end_exam(bot, services, sitting, BY_TIME)
    else:
        left = render.clock_text(sitting.time_left(services.clock()))
        await bot.send_message(chat_id, locale.t("exam_resuming", left=left))
        await _show(bot, services, chat_id, running, sitting.position, locale)


async def _begin(
    bot: Bot, services: Services, jobs: Jobs, chat_id: int, user_id: int, quiz: Quiz,
    rules: Exam, attempt: int, locale: Locale, assignment: Assignment | None = None,
) -> Sitting | None:  # fmt: skip
    """A new exam: the paper drawn once from a new seed and stored, its time limit armed (a
    homework's never past its deadline), the rules said, the first question shown."""
    seed = secrets.randbits(62)
    paper = draw(quiz, rules, seed)
    if not paper.items:
        await bot.send_message(chat_id, locale.t("exam_nothing_to_draw"))
        return None
    now = services.clock()
    seconds = float(paper.seconds)
    if assignment is not None:
        seconds = max(0.0, min(seconds, assignment.deadline - now))
    sitting = await services.storage.exams.start(
        user_id, quiz.id, paper.items, seed=seed, paper=paper.to_json(), now=now,
        seconds=seconds, assignment_id=None if assignment is None else assignment.id,
    )  # fmt: skip
    arm(jobs, services, sitting)
    log.info("exam %s of %s started: %d questions, %.0f s", sitting.attempt.id, quiz.id,
             len(paper.items), seconds)  # fmt: skip
    intro = render.rules_message(quiz, paper, attempt, locale, seconds)
    await bot.send_message(chat_id, intro.text)
    running = _Running(sitting, quiz, Paper.from_json(sitting.paper))
    await _show(bot, services, chat_id, running, sitting.position, locale)
    return sitting


# a question shown


async def _show(
    bot: Bot, services: Services, chat_id: int, running: _Running, position: int,
    locale: Locale, query: CallbackQuery | None = None, picture: bool = True,
) -> None:  # fmt: skip
    """Show the question at `position`: in place of the tapped panel when neither has a
    picture, else as a new message (the old one loses its buttons; its picture comes with it
    unless `picture` is False: it is just above). The message shown is the one whose buttons
    act from now on; a question answered with a typed reply waits for it."""
    sitting, quiz = running.sitting, running.quiz
    live = running.live()
    item = running.paper.items[position]
    question = quiz.question(item)
    if question is None or item not in live:
        position = running.paper.items.index(live[0]) if live else position
        item = running.paper.items[position]
        question = quiz.question(item)
        if question is None:
            await bot.send_message(chat_id, locale.t("quiz_gone"))
            return
    message = await _panel(services, running, position, question, live, locale)
    tapped = query.message if query is not None else None
    shown_in: int | None = None
    photo_id: int | None = None
    if (
        query is not None
        and isinstance(tapped, Message)
        and not pictures.has_photo(tapped)
        and question.image is None
    ):
        try:
            await query.edit_message_text(message.text, reply_markup=message.markup)
        except BadRequest as error:
            if "not modified" not in str(error).lower():
                raise
        shown_in = tapped.message_id
    else:
        await strip(bot, chat_id, sitting.message_id)
        if question.image is not None and picture:
            alt = picture_line(question, locale)
            sent = await pictures.send_with_picture(
                bot, services, chat_id, question.image, alt, message
            )
            shown_in = sent.message.message_id
            photo_id = sent.photo.message_id if sent.photo is not None else None
        else:
            shown_in = (
                await bot.send_message(chat_id, message.text, reply_markup=message.markup)
            ).message_id
    await services.storage.exams.show(running.attempt_id, position, shown_in)
    learners = services.storage.learners
    if takes_reply(question):
        await learners.await_reply(
            sitting.attempt.user_id, running.attempt_id, position, shown_in, services.clock(),
            photo_message_id=photo_id,
        )  # fmt: skip
    else:
        await learners.stop_awaiting(sitting.attempt.user_id)


async def _panel(
    services: Services, running: _Running, position: int, question: Question,
    live: tuple[str, ...], locale: Locale,
) -> Rendered:  # fmt: skip
    """The question at `position` as its panel draws it now: the response so far, the time
    left, the questions before and after it that still count."""
    paper, item = running.paper, running.paper.items[position]
    stored = (await services.storage.exams.responses(running.attempt_id)).get(item)
    response = (
        None if stored is None else grading.stored_response(question, stored.chosen, stored.reply)
    )
    index = live.index(item)
    shown = render.Shown(
        quiz=running.quiz,
        paper=paper,
        question=question,
        position=position,
        number=index + 1,
        total=len(live),
        previous=paper.items.index(live[index - 1]) if index > 0 else None,
        following=paper.items.index(live[index + 1]) if index + 1 < len(live) else None,
        order=order_of(running.attempt_id, running.quiz, question),
        response=response,
        seconds_left=running.sitting.time_left(services.clock()),
    )
    return render.question_panel(shown, running.attempt_id, locale)


async def _redraw(
    bot: Bot, services: Services, query: CallbackQuery, running: _Running, position: int,
    locale: Locale,
) -> None:  # fmt: skip
    """The tapped panel drawn again with the answer as it now stands."""
    question = running.quiz.question(running.paper.items[position])
    assert question is not None
    message = await _panel(services, running, position, question, running.live(), locale)
    await _show_on(bot, services, query, running, message)


async def _show_on(
    bot: Bot, services: Services, query: CallbackQuery, running: _Running, message: Rendered
) -> None:
    """`message` in place of the tapped panel; if it had to go into a new message (a caption
    too long), that message is the panel from now on."""
    shown_in = await pictures.show_on(bot, query, message)
    if shown_in is not None and shown_in != running.sitting.message_id:
        await services.storage.exams.show(running.attempt_id, running.sitting.position, shown_in)


# taps on the panel


async def _tapped(
    bot: Bot, services: Services, query: CallbackQuery, attempt_id: int, locale: Locale,
    position: int | None = None,
) -> _Running | None:  # fmt: skip
    """The running exam a tap acts on, or None once the presser was told why not: not
    theirs, ended, its time up (it ends now), or a button of another message than the one
    that shows its question now (forwarded, replayed, left behind)."""
    running = await _running(services, attempt_id, query.from_user.id)
    if isinstance(running, str):
        await query.answer(locale.t(running))
        return None
    sitting = running.sitting
    if sitting.time_left(services.clock()) <= 0:
        await query.answer(locale.t("exam_time_up"))
        await end_exam(bot, services, sitting, BY_TIME)
        return None
    tapped = query.message.message_id if query.message is not None else None
    if tapped != sitting.message_id or (position is not None and position != sitting.position):
        await query.answer(locale.t("stale_button"))
        return None
    return running


async def _time_up(bot: Bot, services: Services, query: CallbackQuery, running: _Running,
                   locale: Locale) -> None:  # fmt: skip
    """A change refused in its own write because the time ran out meanwhile."""
    await query.answer(locale.t("exam_time_up"))
    await end_exam(bot, services, running.sitting, BY_TIME)


async def choose(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamChoose,
    locale: Locale,
) -> None:  # fmt: skip
    """An option chosen (a multiple question's toggled): the answer so far, stored, told in
    the toast as a letter, never as right or wrong."""
    running = await _tapped(bot, services, query, tap.attempt_id, locale, tap.position)
    if running is None:
        return
    item = running.paper.items[tap.position]
    question = running.quiz.question(item)
    if question is None or tap.place >= choice_count(question):
        await query.answer(locale.t("stale_button"))
        return
    choice = order_of(running.attempt_id, running.quiz, question)[tap.place]
    exams, now = services.storage.exams, services.clock()
    if question.type is QuestionType.MULTIPLE:
        picks = await exams.toggle(running.attempt_id, item, choice, now)
        if picks is None:
            await _time_up(bot, services, query, running, locale)
            return
        order = order_of(running.attempt_id, running.quiz, question)
        places = [
            order.index(option) for option in range(picks.bit_length()) if picks >> option & 1
        ]
        toast = (
            locale.t("exam_saved_toast", answer=letters(places))
            if places
            else locale.t("exam_cleared_toast")
        )
    else:
        column = grading.chosen_column(grading.Choice(choice))
        if not await exams.respond(running.attempt_id, item, column, None, now):
            await _time_up(bot, services, query, running, locale)
            return
        toast = locale.t("exam_saved_toast", answer=letter(tap.place))
    await query.answer(toast)
    await _redraw(bot, services, query, running, tap.position, locale)


async def clear(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamClear,
    locale: Locale,
) -> None:  # fmt: skip
    """The answer taken back: the question is unanswered again (it costs nothing)."""
    running = await _tapped(bot, services, query, tap.attempt_id, locale, tap.position)
    if running is None:
        return
    item = running.paper.items[tap.position]
    if not await services.storage.exams.clear(running.attempt_id, item, services.clock()):
        await _time_up(bot, services, query, running, locale)
        return
    await query.answer(locale.t("exam_cleared_toast"))
    await _redraw(bot, services, query, running, tap.position, locale)


async def go(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamGo, locale: Locale
) -> None:
    """Another question of the paper shown (previous, next, or back from handing in)."""
    running = await _tapped(bot, services, query, tap.attempt_id, locale)
    if running is None:
        return
    items = running.paper.items
    if tap.position >= len(items) or items[tap.position] not in running.live():
        await query.answer(locale.t("stale_button"))
        return
    await query.answer()
    chat_id = query.message.chat.id if query.message is not None else query.from_user.id
    await _show(bot, services, chat_id, running, tap.position, locale, query)


async def finish(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamFinish,
    locale: Locale,
) -> None:  # fmt: skip
    """Hand in? Asked in place of the question, with what is left unanswered."""
    running = await _tapped(bot, services, query, tap.attempt_id, locale)
    if running is None:
        return
    live = running.live()
    responses = await services.storage.exams.responses(running.attempt_id)
    answered = sum(item in responses for item in live)
    message = render.hand_in_question(
        running.quiz, answered, len(live), running.sitting.time_left(services.clock()),
        running.sitting.position, running.attempt_id, locale,
    )  # fmt: skip
    await query.answer()
    await _show_on(bot, services, query, running, message)


async def hand_in(
    bot: Bot, services: Services, query: CallbackQuery, tap: callbacks.ExamHandIn,
    locale: Locale,
) -> None:  # fmt: skip
    """Handed in: marked now."""
    running = await _tapped(bot, services, query, tap.attempt_id, locale)
    if running is None:
        return
    await query.answer(locale.t("exam_handed_in_toast"))
    await end_exam(bot, services, running.sitting, BY_LEARNER)


# a typed reply


async def take_reply(
    bot: Bot, services: Services, message: Message, awaited: AwaitedReply, locale: Locale
) -> Unreadable | None:
    """A text message answering the exam's numeric or typed question on screen: stored as
    the answer so far (a new panel shows it, below), or why it is no answer (returned: the
    caller says it, as a quiz's reply is told)."""
    assert message.from_user is not None
    user_id = message.from_user.id
    learners = services.storage.learners
    running = await _running(services, awaited.attempt_id, user_id)
    if isinstance(running, str):
        await learners.stop_awaiting(user_id)
        await message.reply_text(locale.t(running))
        return None
    sitting = running.sitting
    if sitting.time_left(services.clock()) <= 0:
        await message.reply_text(locale.t("exam_time_up"))
        await end_exam(bot, services, sitting, BY_TIME)
        return None
    item = running.paper.items[sitting.position]
    question = running.quiz.question(item)
    if awaited.position != sitting.position or question is None or not takes_reply(question):
        await learners.stop_awaiting(user_id)
        await message.reply_text(locale.t("plain_text"))
        return None
    reading = grading.read_reply(question, message.text or "")
    if not isinstance(reading, NumberReply | TextReply):
        return reading
    reply = clip(reading.text, MAX_STORED_REPLY)
    stored = await services.storage.exams.respond(
        running.attempt_id, item, grading.NO_CHOICE, reply, services.clock()
    )
    if not stored:
        await message.reply_text(locale.t("exam_time_up"))
        await end_exam(bot, services, sitting, BY_TIME)
        return None
    await message.reply_text(locale.t("exam_saved_reply"), do_quote=True)
    await _show(bot, services, message.chat.id, running, sitting.position, locale, picture=False)
    return None
