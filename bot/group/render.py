"""Pure rendering of group and channel quizzes and of posted questions: data in,
`(HTML text, keyboard)` out."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import (
    Rendered,
    answer_toast,
    choice_count,
    choice_labels,
    choices,
    explanation,
    letter,
    letters,
    option_button,
    option_lines,
    person,
    place_mark,
    right_choices,
)
from content.answers import multiple_score
from content.group_rules import points
from content.model import Question, QuestionType, Quiz, clip
from content.schema import (
    MAX_EXPLANATION_LENGTH,
    MAX_QUESTION_LENGTH,
    MAX_TITLE_LENGTH,
)
from storage.group_store import AnswerStatus, GroupAnswerOutcome, GroupSession, ScoreRow, Tally

BOARD_SIZE = 10

# Telegram's limits for quiz polls, in characters after entity parsing
MAX_POLL_QUESTION = 300
MAX_POLL_OPTION = 100
MAX_POLL_EXPLANATION = 200


# A member's answer (`group_answers.chosen`): the choice tapped, or for a multiple question
# the options submitted, a bit per option (`1 << option`, the bank's order), as in private.


def picked(options: int) -> tuple[int, ...]:
    """The options a selection (a bit per option) holds, in order."""
    return tuple(i for i in range(options.bit_length()) if options >> i & 1)


def is_multiple(question: Question) -> bool:
    return question.type is QuestionType.MULTIPLE


def credit(question: Question, chosen: int) -> Fraction:
    """How right an answer is, 0 to 1: a multiple question's partial credit
    (`content.answers.multiple_score`), else 1 for a right choice and 0 for a wrong one."""
    if is_multiple(question):
        return multiple_score(picked(chosen), right_choices(question))
    return Fraction(int(chosen in right_choices(question)))


def answer_points(question: Question, chosen: int, elapsed: float, seconds: float) -> int:
    """A timed quiz's points for an answer: the points of a right answer at that speed
    (`content.group_rules.points`), times its credit."""
    return round(points(True, elapsed, seconds) * credit(question, chosen))


def chosen_letters(question: Question, chosen: int) -> str:
    """An answer as letters: "B", or "A, C" for a multiple question's."""
    return letters(picked(chosen)) if is_multiple(question) else letter(chosen)


def option_counts(question: Question, counts: Mapping[int, int]) -> list[int]:
    """How many chose each choice, from how many gave each answer (`chosen` to count)."""
    if is_multiple(question):
        return [
            sum(n for chosen, n in counts.items() if chosen >> i & 1)
            for i in range(choice_count(question))
        ]
    return [counts.get(i, 0) for i in range(choice_count(question))]


def _right_answer(question: Question) -> int:
    """The answer that is fully right, as `chosen` holds it (a multiple question's: every
    right option's bit; another's: its right choice)."""
    right = right_choices(question)
    if is_multiple(question):
        return sum(1 << option for option in right)
    (only,) = right
    return only


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
    multiple question's toggle, and Submit), Reveal."""
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
    rows.append([reveal_button(session_id, position, locale)])
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(rows))


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
    """The question closed: the right choices, how many chose each, the explanation."""
    parts = [
        _header(quiz, position, total, locale),
        locale.rich(question.text, MAX_QUESTION_LENGTH),
        counted_lines(question, counts, locale),
        answered_line(question, counts, locale),
    ]
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return Rendered("\n\n".join(parts))


def counted_lines(question: Question, counts: Mapping[int, int], locale: Locale) -> str:
    """Each choice marked right (✅) or not (▫️; ❌ on a multiple question, where picking it
    cost), with how many chose it."""
    right = right_choices(question)
    wrong = "❌" if is_multiple(question) else "▫️"
    lines = []
    for i, (choice, n) in enumerate(
        zip(choices(question, locale), option_counts(question, counts), strict=True)
    ):
        chose = locale.t("group_option_count", n=n)
        lines.append(
            f"{'✅' if i in right else wrong} <b>{letter(i)}.</b> {choice} · <i>{chose}</i>"
        )
    return "\n".join(lines)


def answered_line(question: Question, counts: Mapping[int, int], locale: Locale) -> str:
    """How many answered; for a multiple question, how many of them fully right."""
    count = sum(counts.values())
    if is_multiple(question):
        right = counts.get(_right_answer(question), 0)
        return locale.t("group_answered_right", count=count, right=right)
    return locale.t("group_answered", count=count)


def tap_toast(
    session: GroupSession, question: Question, chosen: int, outcome: GroupAnswerOutcome,
    locale: Locale,
) -> str:  # fmt: skip
    """What a member is told of their answer (a tap, or a multiple question's Submit), alone:
    in a timed quiz right, partly right or wrong and the points, never the right letters (the
    others are still answering); on a posted question the right letters at once, as a learner
    is told in private."""
    if outcome.status is AnswerStatus.ALREADY:
        if session.posted or outcome.chosen is None:
            return locale.t("already_answered")
        return locale.t("group_toast_stands", letter=chosen_letters(question, outcome.chosen))
    if outcome.status is AnswerStatus.CLOSED:
        return locale.t("post_closed" if session.posted else "group_toast_closed")
    score = credit(question, chosen)
    right = locale.t("group_toast_right", n=outcome.points)
    if is_multiple(question):
        shown = f"{score.numerator}/{score.denominator}"
        if session.posted:
            if score == 1:
                return locale.t("correct_toast")
            if score:
                return locale.t("partial_toast", score=shown)
            return locale.t("wrong_options_toast", letters=letters(right_choices(question)))
        if score == 1:
            return right
        if score:
            return locale.t("group_toast_partly", score=shown, n=outcome.points)
        return locale.t("group_toast_wrong_options")
    if session.posted:
        return answer_toast(question, chosen, locale)
    return right if score == 1 else locale.t("group_toast_wrong")


def pick_toast(options: int, locale: Locale) -> str:
    """A member's selection on a multiple question, after their tap: theirs alone."""
    if not options:
        return locale.t("group_picked_none")
    return locale.t("group_picked_toast", letters=letters(picked(options)))


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
    quiz: Quiz, question: Question, tally: Tally, counts: Mapping[int, int], locale: Locale
) -> Rendered:
    """The posted question closed: the right choices, how many answered and how many right
    (fully right; a multiple question's choices with how many picked each)."""
    choices_shown = (
        counted_lines(question, counts, locale)
        if is_multiple(question)
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
