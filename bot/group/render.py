"""Pure rendering of group and channel quizzes and of posted questions: data in,
`(HTML text, keyboard)` out."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import (
    Rendered,
    answer_toast,
    choice_count,
    choice_labels,
    choices,
    chosen_letters,
    explanation,
    fraction_text,
    letter,
    option_button,
    option_lines,
    partial_text,
    person,
    place_mark,
    weight_note,
)
from content.grading import Grade, Response, Selection, choices_of, right_choices
from content.model import Question, QuestionType, Quiz, clip
from content.schema import (
    MAX_EXPLANATION_LENGTH,
    MAX_QUESTION_LENGTH,
    MAX_TITLE_LENGTH,
)
from storage.group_store import GroupSession, ScoreRow, Tally

BOARD_SIZE = 10

# Telegram's limits for quiz polls, in characters after entity parsing
MAX_POLL_QUESTION = 300
MAX_POLL_OPTION = 100
MAX_POLL_EXPLANATION = 200


def is_multiple(question: Question) -> bool:
    return question.type is QuestionType.MULTIPLE


def as_poll(question: Question) -> bool:
    """Whether a quiz poll can carry the question: not one with weights (a poll knows right
    and wrong options only), which a poll quiz posts with buttons instead."""
    return question.weights is None


def option_counts(question: Question, counts: Mapping[Response, int]) -> list[int]:
    """How many chose each choice, from how many gave each answer."""
    chose = [0] * choice_count(question)
    for response, n in counts.items():
        for choice in choices_of(response):
            if 0 <= choice < len(chose):
                chose[choice] += n
    return chose


def _choice_lines(question: Question, locale: Locale) -> str:
    return "\n".join(
        f"<b>{letter(i)}.</b> {choice}" for i, choice in enumerate(choices(question, locale))
    )


def _keyboard_rows(
    question: Question, locale: Locale, answer: Callable[[int], callbacks.Tap],
    pick: Callable[[int], callbacks.Tap], submit: callbacks.Tap,
) -> list[list[InlineKeyboardButton]]:  # fmt: skip
    """A button per choice; a multiple question's pick (toggle) an option each and share one
    Submit, and never show anyone's selection."""
    tap = pick if is_multiple(question) else answer
    rows = [
        option_button(i, label, tap(i), locale)
        for i, label in enumerate(choice_labels(question, locale))
    ]
    if is_multiple(question):
        rows.append(
            [InlineKeyboardButton(locale.t("button_submit_mine"), callback_data=submit.encode())]
        )
    return rows


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
    """A question for the whole chat: its choices, the live count, a button per choice (a
    multiple question's toggle, and Submit)."""
    parts = [
        _header(quiz, position, total, locale),
        locale.rich(question.text, MAX_QUESTION_LENGTH),
        _choice_lines(question, locale),
    ]
    if is_multiple(question):
        parts.append(locale.t("group_hint_multiple"))
    parts.append(locale.t("group_status", seconds=seconds, count=answered))
    rows = _keyboard_rows(
        question,
        locale,
        lambda i: callbacks.GroupAnswer(session_id, position, i),
        lambda i: callbacks.GroupPick(session_id, position, i),
        callbacks.GroupSubmit(session_id, position),
    )
    # the chat's keyboard is for answering only: an admin reveals with /skip (a Reveal button
    # shown to everyone refused most of those who pressed it)
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(rows))


def reveal_message(
    quiz: Quiz,
    question: Question,
    position: int,
    total: int,
    counts: Mapping[Response, int],
    right: int,
    locale: Locale,
) -> Rendered:
    """The question closed: the right choices, how many chose each, how many answered (and
    fully right, of a question that scores in parts), the explanation."""
    parts = [
        _header(quiz, position, total, locale),
        locale.rich(question.text, MAX_QUESTION_LENGTH),
        counted_lines(question, counts, locale),
        answered_line(question, sum(counts.values()), right, locale),
    ]
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return Rendered("\n\n".join(parts))


def counted_lines(question: Question, counts: Mapping[Response, int], locale: Locale) -> str:
    """Each choice marked right (✅) or not (▫️; ❌ on a multiple question, where picking it
    cost), with what it is worth when the question has weights and how many chose it."""
    right = right_choices(question)
    wrong = "❌" if is_multiple(question) else "▫️"
    lines = []
    for i, (choice, n) in enumerate(
        zip(choices(question, locale), option_counts(question, counts), strict=True)
    ):
        chose = locale.t("group_option_count", n=n)
        mark = "✅" if i in right else wrong
        lines.append(
            f"{mark} <b>{letter(i)}.</b> {choice}{weight_note(question, i)} · <i>{chose}</i>"
        )
    return "\n".join(lines)


def answered_line(question: Question, count: int, right: int, locale: Locale) -> str:
    """How many answered; for a question that can be partly right, how many of them fully
    right."""
    if is_multiple(question) or question.weights is not None:
        return locale.t("group_answered_right", count=count, right=right)
    return locale.t("group_answered", count=count)


def standing_toast(
    session: GroupSession, question: Question, standing: Response | None, locale: Locale
) -> str:
    """A member who answered already is told their answer stands (in a timed quiz, which)."""
    if session.posted or standing is None:
        return locale.t("already_answered")
    return locale.t("group_toast_stands", letter=chosen_letters(standing))


def refused_toast(session: GroupSession, locale: Locale) -> str:
    """An answer that came when the question no longer took answers."""
    return locale.t("post_closed" if session.posted else "group_toast_closed")


def tap_toast(
    session: GroupSession, question: Question, grade: Grade, points: int, locale: Locale
) -> str:
    """What a member is told of the answer they just gave (a tap, or a multiple question's
    Submit), alone: in a timed quiz right, partly right or wrong and the points, never the
    right letters (the others are still answering); on a posted question the right letters
    at once, as a learner is told in private. `grade` is the answer's, computed once."""
    if session.posted:
        return answer_toast(question, grade, locale)
    if grade.fully_right:
        return locale.t("group_toast_right", n=points)
    if grade.partly_right:
        return locale.t("group_toast_partly", score=partial_text(question, grade, locale), n=points)
    if grade.credit < 0:
        return locale.t("group_toast_marked_down", score=fraction_text(grade.credit), n=points)
    if is_multiple(question):
        return locale.t("group_toast_wrong_options")
    return locale.t("group_toast_wrong")


def pick_toast(selection: Selection, locale: Locale) -> str:
    """A member's selection on a multiple question, after their tap: theirs alone."""
    if not selection.options:
        return locale.t("group_picked_none")
    return locale.t("group_picked_toast", letters=chosen_letters(selection))


def closed_toast(session: GroupSession, locale: Locale) -> str:
    """A tap on a question of a session that has ended (a posted question: revealed)."""
    return locale.t("post_closed" if session.posted else "group_toast_over")


def open_question(
    session: GroupSession, quiz: Quiz, question: Question, position: int, answered: int,
    locale: Locale, seconds_left: int | None = None,
) -> Rendered:  # fmt: skip
    """A session's question while it takes answers, with its live count (and, on a timer,
    the seconds left: all of them when None)."""
    if session.posted:
        assert session.post_id is not None
        return post_message(quiz, question, session.post_id, answered, locale)
    left = session.seconds if seconds_left is None else seconds_left
    return question_message(
        quiz, question, position, session.total, session.id, left, answered, locale
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
    parts = [
        _post_header(quiz, question, locale),
        locale.rich(question.text, MAX_QUESTION_LENGTH),
        option_lines(question, locale, reveal=False),
    ]
    if is_multiple(question):
        parts.append(locale.t("group_hint_multiple"))
    parts.append(locale.t("post_count", n=answered))
    buttons = _keyboard_rows(
        question,
        locale,
        lambda i: callbacks.PostAnswer(post_id, i),
        lambda i: callbacks.PostPick(post_id, i),
        callbacks.PostSubmit(post_id),
    )
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(buttons))


def post_reveal(
    quiz: Quiz, question: Question, tally: Tally, counts: Mapping[Response, int], locale: Locale
) -> Rendered:
    """The posted question closed: the right choices, how many answered and how many right
    (fully right; a multiple question's choices with how many picked each)."""
    choices_shown = (
        counted_lines(question, counts, locale)
        if is_multiple(question) or question.weights is not None
        else option_lines(question, locale, reveal=True)
    )
    parts = [
        _post_header(quiz, question, locale),
        locale.rich(question.text, MAX_QUESTION_LENGTH),
        choices_shown,
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
                n=row.points,
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
    """A quiz poll's fields, plain text inside Telegram's limits: a multiple question's
    poll takes several answers and has several right ones."""

    question: str
    options: tuple[str, ...]
    correct: tuple[int, ...]
    multiple: bool
    explanation: str | None
    followup: str | None  # HTML: the whole explanation, when the poll's 200 cannot hold it


def poll_spec(
    quiz: Quiz, question: Question, position: int, total: int, locale: Locale
) -> PollSpec:
    prefix = f"[{position + 1}/{total}] "
    text = prefix + clip(locale.plain(question.text), MAX_POLL_QUESTION - len(prefix))
    options = tuple(clip(label, MAX_POLL_OPTION) for label in choice_labels(question, locale))
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
    correct = tuple(sorted(right_choices(question)))
    return PollSpec(text, options, correct, is_multiple(question), explanation, followup)


def start_menu(quiz: Quiz, seconds: Sequence[int], polls: bool, locale: Locale) -> Rendered:
    """`/groupquiz`'s menu once a quiz is chosen: a button per common time a question, and a
    row of the same as quiz polls (not in a channel, where polls cannot say who voted)."""
    rows = [
        [
            InlineKeyboardButton(
                locale.t("menu_seconds_button", seconds=s),
                callback_data=callbacks.GroupQuizStart(quiz.id, s, 0).encode(),
            )
            for s in seconds
        ]
    ]
    if polls:
        rows.append(
            [
                InlineKeyboardButton(
                    locale.t("menu_poll_button", seconds=s),
                    callback_data=callbacks.GroupQuizStart(quiz.id, s, 1).encode(),
                )
                for s in seconds
            ]
        )
    text = locale.t("menu_how_long", title=locale.text(quiz.title, 200), n=len(quiz))
    return Rendered(text, InlineKeyboardMarkup(rows))
