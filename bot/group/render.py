"""Pure rendering of group and channel quizzes and of posted questions: data in,
`(HTML text, keyboard)` out."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import (
    Rendered,
    answer_toast,
    explanation,
    letter,
    option_button,
    option_lines,
    person,
    place_mark,
)
from content.model import Question, Quiz, clip
from content.schema import (
    MAX_EXPLANATION_LENGTH,
    MAX_OPTION_LENGTH,
    MAX_QUESTION_LENGTH,
    MAX_TITLE_LENGTH,
)
from storage.group_store import AnswerStatus, GroupAnswerOutcome, GroupSession, ScoreRow, Tally

BOARD_SIZE = 10

# Telegram's limits for quiz polls, in characters after entity parsing
MAX_POLL_QUESTION = 300
MAX_POLL_OPTION = 100
MAX_POLL_EXPLANATION = 200


def _header(quiz: Quiz, position: int, total: int, locale: Locale) -> str:
    return (
        f"<b>{locale.text(quiz.title, MAX_TITLE_LENGTH)}</b>\n"
        f"{locale.t('question_header', k=position + 1, n=total)}"
    )


def intro(quiz: Quiz, total: int, seconds: int, locale: Locale, skipped: int = 0) -> str:
    text = locale.t(
        "group_intro", title=locale.text(quiz.title, MAX_TITLE_LENGTH), n=total, seconds=seconds
    )
    if skipped:
        text += "\n\n" + locale.t("group_skipped", n=skipped)
    return text


def question_message(
    quiz: Quiz,
    question: Question,
    position: int,
    total: int,
    session_id: int,
    seconds: int,
    answered: int,
    locale: Locale,
) -> Rendered:
    """A question for the whole chat: options, the live count, a button per option, Reveal."""
    options = "\n".join(
        f"<b>{letter(i)}.</b> {locale.text(option, MAX_OPTION_LENGTH)}"
        for i, option in enumerate(question.options)
    )
    status = locale.t("group_status", seconds=seconds, count=answered)
    text = (
        f"{_header(quiz, position, total, locale)}\n\n"
        f"{locale.text(question.text, MAX_QUESTION_LENGTH)}\n\n{options}\n\n{status}"
    )
    rows = [
        option_button(i, option, callbacks.GroupAnswer(session_id, position, i), locale)
        for i, option in enumerate(question.options)
    ]
    rows.append([reveal_button(session_id, position, locale)])
    return Rendered(text, InlineKeyboardMarkup(rows))


def reveal_button(session_id: int, position: int, locale: Locale) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        locale.t("button_reveal"),
        callback_data=callbacks.GroupReveal(session_id, position).encode(),
    )


def reveal_message(
    quiz: Quiz,
    question: Question,
    position: int,
    total: int,
    counts: Mapping[int, int],
    locale: Locale,
) -> Rendered:
    """The question closed: the right option, how many chose each, the explanation."""
    lines = []
    for i, option in enumerate(question.options):
        mark = "✅" if question.is_correct(i) else "▫️"
        chose = locale.t("group_option_count", n=counts.get(i, 0))
        lines.append(
            f"{mark} <b>{letter(i)}.</b> {locale.text(option, MAX_OPTION_LENGTH)} · <i>{chose}</i>"
        )
    parts = [
        _header(quiz, position, total, locale),
        locale.text(question.text, MAX_QUESTION_LENGTH),
        "\n".join(lines),
        locale.t("group_answered", count=sum(counts.values())),
    ]
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return Rendered("\n\n".join(parts))


def tap_toast(
    session: GroupSession, question: Question, option: int, outcome: GroupAnswerOutcome,
    locale: Locale,
) -> str:  # fmt: skip
    """What a member is told of their tap, alone: in a timed quiz right or wrong and the
    points, never the right letter (the others are still answering); on a posted question the
    right letter at once, as a learner is told in private."""
    if outcome.status is AnswerStatus.ALREADY:
        if session.posted:
            return locale.t("already_answered")
        assert outcome.chosen is not None
        return locale.t("group_toast_stands", letter=letter(outcome.chosen))
    if outcome.status is AnswerStatus.CLOSED:
        return locale.t("post_closed" if session.posted else "group_toast_closed")
    if session.posted:
        return answer_toast(question, option, locale)
    if question.is_correct(option):
        return locale.t("group_toast_right", points=outcome.points)
    return locale.t("group_toast_wrong")


def closed_toast(session: GroupSession, locale: Locale) -> str:
    """A tap on a question of a session that has ended (a posted question: revealed)."""
    return locale.t("post_closed" if session.posted else "group_toast_over")


def open_question(
    session: GroupSession, quiz: Quiz, question: Question, position: int, answered: int,
    locale: Locale,
) -> Rendered:  # fmt: skip
    """A session's question while it takes answers, with its live count."""
    if session.posted:
        assert session.post_id is not None
        return post_message(quiz, question, session.post_id, answered, locale)
    return question_message(
        quiz, question, position, session.total, session.id, session.seconds, answered, locale
    )


# posted questions (/push): one question, answered once by each member, revealed by the next


def _post_header(quiz: Quiz, question: Question, locale: Locale) -> str:
    position = quiz.position(question.id)
    return locale.t(
        "post_header",
        title=html.escape(locale.plain(quiz.title)),
        k=(position or 0) + 1,
        n=len(quiz),
    )


def post_message(
    quiz: Quiz, question: Question, post_id: int, answered: int, locale: Locale
) -> Rendered:
    """A question posted into a chat: anyone answers once with the buttons, which carry the
    post's number."""
    text = "\n\n".join(
        [
            _post_header(quiz, question, locale),
            locale.text(question.text, MAX_QUESTION_LENGTH),
            option_lines(question, locale, reveal=False),
            locale.t("post_count", n=answered),
        ]
    )
    buttons = [
        option_button(i, option, callbacks.PostAnswer(post_id, i), locale)
        for i, option in enumerate(question.options)
    ]
    return Rendered(text, InlineKeyboardMarkup(buttons))


def post_reveal(quiz: Quiz, question: Question, tally: Tally, locale: Locale) -> Rendered:
    """The posted question closed: the right option, how many answered and how many right."""
    parts = [
        _post_header(quiz, question, locale),
        locale.text(question.text, MAX_QUESTION_LENGTH),
        option_lines(question, locale, reveal=True),
        locale.t("post_revealed", n=tally.answers, right=tally.correct),
    ]
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return Rendered("\n\n".join(parts))


def board_lines(rows: Sequence[ScoreRow], locale: Locale, limit: int = BOARD_SIZE) -> str:
    """Ranked rows (best first) as lines; names are people's own text (see `render.person`)."""
    if not rows:
        return locale.t("board_empty")
    lines = []
    for place, row in enumerate(rows[:limit], start=1):
        lines.append(
            locale.t(
                "board_line",
                place=place_mark(place),
                name=locale.t("deleted_learner") if row.forgotten else person(row.name, locale),
                points=row.points,
                correct=row.correct,
                answered=row.answered,
                seconds=f"{row.total_time:.1f}",
            )
        )
    return "\n".join(lines)


def final_board(quiz: Quiz, rows: Sequence[ScoreRow], locale: Locale) -> str:
    title = locale.text(quiz.title, MAX_TITLE_LENGTH)
    return f"{locale.t('board_final', title=title)}\n\n{board_lines(rows, locale)}"


def missed_keyboard(link: str, locale: Locale) -> InlineKeyboardMarkup:
    """Under the final results: each member's review of what they missed, a deep link."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(locale.t("button_missed"), url=link)]])


def leaderboard(
    title: str,
    running: bool,
    session_rows: Sequence[ScoreRow],
    chat_rows: Sequence[ScoreRow],
    locale: Locale,
) -> str:
    """`/leaderboard`: the current (or last) quiz, then all-time for the chat. `title` plain."""
    key = "board_current" if running else "board_last"
    return (
        f"{locale.t(key, title=html.escape(title))}\n{board_lines(session_rows, locale)}\n\n"
        f"{locale.t('board_all_time')}\n{board_lines(chat_rows, locale)}"
    )


@dataclass(frozen=True)
class PollSpec:
    """A quiz poll's fields, plain text inside Telegram's limits."""

    question: str
    options: tuple[str, ...]
    correct: int
    explanation: str | None
    followup: str | None  # HTML: the whole explanation, when the poll's 200 cannot hold it


def poll_spec(
    quiz: Quiz, question: Question, position: int, total: int, locale: Locale
) -> PollSpec:
    prefix = f"[{position + 1}/{total}] "
    text = prefix + clip(locale.plain(question.text), MAX_POLL_QUESTION - len(prefix))
    options = tuple(clip(locale.plain(option), MAX_POLL_OPTION) for option in question.options)
    explanation = followup = None
    if question.explanation is not None:
        full = locale.plain(question.explanation)
        explanation = clip(full, MAX_POLL_EXPLANATION)
        if explanation != full:
            followup = locale.t(
                "group_explanation_more",
                k=position + 1,
                text=locale.text(question.explanation, MAX_EXPLANATION_LENGTH),
            )
    return PollSpec(text, options, question.answer, explanation, followup)
