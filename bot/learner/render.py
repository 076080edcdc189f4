"""What a learner sees in a private chat, drawn purely: data in, `Rendered` out. Nothing here
sends anything; the shared pieces are `bot.core.render`'s."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks, telegram_html
from bot.core.i18n import Locale, language_name
from bot.core.render import (
    MAX_BUTTON_LABEL,
    MAX_MESSAGE_LENGTH,
    MAX_REPLY_SHOWN,
    Rendered,
    answer_hint,
    choice_labels,
    choices,
    explanation,
    fraction_text,
    letter,
    option_button,
    picture_line,
    right_letters,
    right_reply,
    screen_order,
    shorten,
    split_blocks,
    weight_note,
)
from content.grading import Grade, Mark, NumberReply, TextReply, choices_of, right_choices
from content.model import (
    Guide,
    MultipleAnswer,
    NumericAnswer,
    Question,
    QuestionType,
    Quiz,
    TrueFalseAnswer,
    TypedAnswer,
)
from content.progress import Mastery, bar
from content.rules import Summary, score_text
from content.schema import (
    MAX_DESCRIPTION_LENGTH,
    MAX_EXPLANATION_LENGTH,
    MAX_GUIDE_TITLE_LENGTH,
    MAX_OPTION_LENGTH,
    MAX_QUESTION_LENGTH,
    MAX_TITLE_LENGTH,
)
from content.study import CardCounts, ComesBack, retention_percent
from storage import QuizRecord

MAX_MISSED_SHOWN = 10  # questions listed under "worth another look" in a summary
MAX_WEAK_SHOWN = 20  # question numbers listed as weak per quiz in /progress
# Telegram takes at most 100 buttons in a keyboard; a list row has up to two
MAX_ROWS_PER_MESSAGE = 40


@dataclass(frozen=True)
class Placed:
    """A question where the learner meets it: at `position` in its attempt, headed "Question
    `number` of `total`" (else position + 1 of the quiz's size) or as a review's, its choices
    in screen `order` (place i shows choice order[i])."""

    quiz: Quiz
    question: Question
    position: int
    total: int | None = None
    number: int | None = None
    order: Sequence[int] | None = None
    review: bool = False
    practice: bool = False  # a round of practice of what the learner missed


def _header(placed: Placed, locale: Locale) -> str:
    quiz = placed.quiz
    n = len(quiz) if placed.total is None else placed.total
    k = placed.position + 1 if placed.number is None else placed.number
    title = f"<b>{locale.text(quiz.title, MAX_TITLE_LENGTH)}</b>"
    if placed.practice:
        return f"{locale.t('practice_header', k=k, n=n)}\n{title}"
    if placed.review:
        return f"{locale.t('review_header', k=k, n=n)}\n{title}"
    return f"{title}\n{locale.t('question_header', k=k, n=n)}"


def question_message(
    placed: Placed, attempt_id: int, locale: Locale, picked: frozenset[int] = frozenset()
) -> Rendered:
    """The question with its choices and its buttons: one per option (single), True and False
    (true_false), a toggle per option and Submit (multiple: `picked` are the places picked so
    far), none for a question answered with a typed reply, which says what to reply instead."""
    question, position = placed.question, placed.position
    places = list(screen_order(question, placed.order))
    shown = choices(question, locale)
    parts = [_header(placed, locale), locale.rich(question.text, MAX_QUESTION_LENGTH)]
    if question.options:
        parts.append(
            "\n".join(f"<b>{letter(i)}.</b> {shown[choice]}" for i, choice in enumerate(places))
        )
    if (hint := answer_hint(question, locale)) is not None:
        parts.append(f"<i>{hint}</i>")
    return Rendered(
        "\n\n".join(parts), _keyboard(question, attempt_id, position, locale, places, picked)
    )


def _keyboard(
    question: Question,
    attempt_id: int,
    position: int,
    locale: Locale,
    places: Sequence[int],
    picked: frozenset[int],
) -> InlineKeyboardMarkup | None:
    labels = choice_labels(question, locale)
    match question.type:
        case QuestionType.TRUE_FALSE:
            row = [
                InlineKeyboardButton(
                    labels[choice],
                    callback_data=callbacks.AnswerTap(attempt_id, position, place).encode(),
                )
                for place, choice in enumerate(places)
            ]
            return InlineKeyboardMarkup([row])
        case QuestionType.MULTIPLE:
            rows = [
                [
                    InlineKeyboardButton(
                        f"{'☑' if place in picked else '☐'} {letter(place)}. "
                        + shorten(labels[choice], MAX_BUTTON_LABEL),
                        callback_data=callbacks.PickOption(attempt_id, position, place).encode(),
                    )
                ]
                for place, choice in enumerate(places)
            ]
            submit = callbacks.SubmitPicks(attempt_id, position).encode()
            rows.append([InlineKeyboardButton(locale.t("button_submit"), callback_data=submit)])
            return InlineKeyboardMarkup(rows)
        case QuestionType.SINGLE:
            return InlineKeyboardMarkup(
                [
                    option_button(
                        place,
                        labels[choice],
                        callbacks.AnswerTap(attempt_id, position, place),
                        locale,
                    )
                    for place, choice in enumerate(places)
                ]
            )
    return None


# How each choice is marked on a reveal: a single or true/false question shows its right
# choice whether it was chosen or not; a multiple question tells a right option it missed.
_ONE_MARKS = {
    Mark.RIGHT: "✅",
    Mark.MISSED: "✅",
    Mark.PARTIAL: "🟡",
    Mark.WRONG: "❌",
    Mark.NONE: "▫️",
}
_SEVERAL_MARKS = {**_ONE_MARKS, Mark.MISSED: "👉"}  # a right one not picked: unlike ✅ on a phone


@dataclass(frozen=True)
class Footer:
    """What a private reveal ends with: the section of the guide to read after a miss, and
    when the card just stored comes back."""

    read: Guide | None = None
    back: ComesBack | None = None


def back_text(back: ComesBack, locale: Locale) -> str:
    """When a card comes back, in words: "↻ back tomorrow", "↻ back in 4 days"."""
    return locale.t(f"back_{back.unit}", n=back.n)


def read_line(guide: Guide, locale: Locale) -> str:
    return locale.t(
        "read_section",
        url=html.escape(guide.url),
        title=locale.text(guide.title, MAX_GUIDE_TITLE_LENGTH),
    )


def reveal_message(
    placed: Placed, grade: Grade, locale: Locale, footer: Footer = Footer()
) -> Rendered:
    """The answered question: each choice marked (right, missed, wrong; with its worth when
    the question has weights) with the learner's own marked, or their reply and what was
    accepted; the verdict, the feedback for that answer, the explanation; then the section to
    read (after a miss) and, in one quiet line, when the card comes back. `grade` is the
    answer's, computed once where it was taken."""
    question = placed.question
    places = list(screen_order(question, placed.order))
    shown = choices(question, locale)
    parts = [_header(placed, locale), locale.rich(question.text, MAX_QUESTION_LENGTH)]
    if grade.marks:
        parts.append(_marked_choices(question, grade, places, shown, locale))
    response = grade.response
    if isinstance(response, NumberReply | TextReply):
        reply = f"<b>{html.escape(shorten(response.text, MAX_REPLY_SHOWN))}</b>"
        parts.append(locale.t("your_reply", reply=reply))
    parts.append(_verdict(question, grade, places, shown, locale))
    if grade.feedback is not None:
        parts.append(f"<i>{locale.rich(grade.feedback, MAX_EXPLANATION_LENGTH)}</i>")
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return Rendered(_with_footer("\n\n".join(parts), footer, locale))


def _with_footer(text: str, footer: Footer, locale: Locale) -> str:
    """The reveal and its footer, as much of it as a message holds (a question at every
    limit of a bank fills one): when the card comes back first, then the section to read
    above it."""
    back = f"<i>{back_text(footer.back, locale)}</i>" if footer.back is not None else None
    read = read_line(footer.read, locale) if footer.read is not None else None
    for lines in ([read, back], [back], [read]):
        shown = [line for line in lines if line is not None]
        whole = "\n\n".join([text, *shown])
        if shown and telegram_html.visible_length(whole) <= MAX_MESSAGE_LENGTH:
            return whole
    return text


def _marked_choices(
    question: Question, grade: Grade, places: Sequence[int], shown: Sequence[str], locale: Locale
) -> str:
    several = question.type is QuestionType.MULTIPLE
    symbols = _SEVERAL_MARKS if several else _ONE_MARKS
    mine = f" ← <i>{locale.t('your_answer')}</i>"
    missed = f" ← <i>{locale.t('mark_missed')}</i>"
    chosen = choices_of(grade.response)
    lines = []
    for place, choice in enumerate(places):
        mark = grade.marks[choice]
        note = missed if several and mark is Mark.MISSED else mine if choice in chosen else ""
        worth = weight_note(question, choice)
        lines.append(f"{symbols[mark]} <b>{letter(place)}.</b> {shown[choice]}{worth}{note}")
    return "\n".join(lines)


def _verdict(
    question: Question, grade: Grade, places: Sequence[int], shown: Sequence[str], locale: Locale
) -> str:
    if grade.fully_right:
        return locale.t("reveal_correct")
    score = fraction_text(grade.credit)
    match question.type:
        case QuestionType.MULTIPLE:
            right = right_letters(question, places)
            if grade.partly_right:
                return locale.t("reveal_partial", score=score, letters=right)
            return locale.t("reveal_wrong_options", letters=right)
        case QuestionType.TRUE_FALSE:
            (right_choice,) = right_choices(question)
            return locale.t("reveal_wrong_value", answer=shown[right_choice])
        case QuestionType.SINGLE:
            right = right_letters(question, places)
            if grade.partly_right:
                return locale.t("reveal_partial_one", score=score, letter=right)
            if grade.credit < 0:
                return locale.t("reveal_marked_down", score=score, letter=right)
            return locale.t("reveal_wrong", letter=right)
        case QuestionType.NUMERIC:
            answer = right_reply(question, locale)
            if grade.partly_right:
                return locale.t("reveal_partial_number", score=score, answer=answer)
            return locale.t("reveal_wrong_number", answer=answer)
    return locale.t("reveal_wrong_typed", accepted=right_reply(question, locale))


def _score_line(summary: Summary, locale: Locale) -> str:
    score = score_text(summary.score)
    return locale.t("summary_score", score=score, total=summary.total, percent=summary.percent)


def summary_message(
    quiz: Quiz,
    summary: Summary,
    best: tuple[float, int] | None,
    locale: Locale,
    practice: Practice | None = None,
) -> Rendered:
    """The end of a quiz: the score, the questions worth another look (each linked to the
    section of the guide that teaches it), and the offer to practise them now."""
    parts = [
        locale.t("summary_title", title=locale.text(quiz.title, MAX_TITLE_LENGTH)),
        _score_line(summary, locale),
    ]
    if best is not None:
        parts[-1] += "\n" + locale.t("summary_best", score=score_text(best[0]), total=best[1])
    if not summary.missed:
        parts.append(locale.t("summary_perfect"))
    else:
        missed = []
        for question_id in summary.missed[:MAX_MISSED_SHOWN]:
            question = quiz.question(question_id)
            position = quiz.position(question_id)
            if question is not None and position is not None:
                missed.append(_missed_line(quiz, question, position, locale))
        if len(summary.missed) > MAX_MISSED_SHOWN:
            missed.append(locale.t("and_more", n=len(summary.missed) - MAX_MISSED_SHOWN))
        parts.append(locale.t("summary_review") + "\n" + "\n".join(missed))
    if practice is not None and practice.waits:
        parts.append(locale.t("practice_after_deadline"))
    if quiz.guide is not None:
        parts.append(_guide_line(quiz, locale))
    rows = _practice_rows(practice, "button_practise", locale)
    rows.append(
        [
            InlineKeyboardButton(
                locale.t("button_retake"), callback_data=callbacks.OpenQuiz(quiz.id).encode()
            ),
            InlineKeyboardButton(
                locale.t("button_all_quizzes"), callback_data=callbacks.ListQuizzes().encode()
            ),
        ]
    )
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(rows))


@dataclass(frozen=True)
class Practice:
    """The offer to practise what an attempt missed: `missed` questions, now, or once
    `waits` is over (a homework before its deadline)."""

    attempt_id: int
    missed: int
    waits: bool = False


def _practice_rows(
    practice: Practice | None, key: str, locale: Locale
) -> list[list[InlineKeyboardButton]]:
    if practice is None or practice.waits or not practice.missed:
        return []
    tap = callbacks.PractiseMissed(practice.attempt_id)
    return [[InlineKeyboardButton(locale.t(key, n=practice.missed), callback_data=tap.encode())]]


def practice_button(attempt_id: int, missed: int, locale: Locale) -> InlineKeyboardMarkup:
    """The offer alone (a homework that has closed)."""
    return InlineKeyboardMarkup(
        _practice_rows(Practice(attempt_id, missed), "button_practise", locale)
    )


def _missed_line(quiz: Quiz, question: Question, position: int, locale: Locale) -> str:
    """A question worth another look: its number and text, linked to the section that
    teaches it when there is one."""
    text = html.escape(shorten(locale.label(question.text), 120))
    guide = quiz.guide_of(question)
    if guide is not None and guide is not quiz.guide:
        text = f'<a href="{html.escape(guide.url)}">{text}</a>'
    return f"• {position + 1}. {text}"


def _guide_line(quiz: Quiz, locale: Locale) -> str:
    assert quiz.guide is not None
    return locale.t(
        "guide",
        url=html.escape(quiz.guide.url),
        title=locale.text(quiz.guide.title, MAX_GUIDE_TITLE_LENGTH),
    )


def _record_line(record: QuizRecord | None, locale: Locale) -> str:
    if record is None:
        return locale.t("progress_new")
    parts = []
    if record.running_answered is not None:
        parts.append(
            locale.t(
                "progress_running", answered=record.running_answered, total=record.running_total
            )
        )
    if record.best_score is not None:
        parts.append(
            locale.t("progress_best", score=score_text(record.best_score), total=record.best_total)
        )
    return " · ".join(parts) or locale.t("progress_new")


def _quiz_button(quiz: Quiz, record: QuizRecord | None, locale: Locale) -> InlineKeyboardButton:
    title = shorten(locale.plain(quiz.title), 40)
    if record is not None and record.running_answered is not None:
        label = locale.t(
            "button_continue",
            title=title,
            answered=record.running_answered,
            total=record.running_total,
        )
    else:
        label = locale.t("button_start", title=title)
    return InlineKeyboardButton(label, callback_data=callbacks.OpenQuiz(quiz.id).encode())


def quiz_list(
    quizzes: Sequence[Quiz], records: Mapping[str, QuizRecord], locale: Locale
) -> list[Rendered]:
    """Every quiz with its level, size, description and the learner's standing, and its
    buttons; over several messages when they do not fit one."""
    if not quizzes:
        return [Rendered(locale.t("no_quizzes"))]
    entries: list[tuple[str, list[InlineKeyboardButton] | None]] = [
        (locale.t("quizzes_title"), None)
    ]
    for quiz in quizzes:
        record = records.get(quiz.id)
        block = (
            f"<b>{locale.text(quiz.title, MAX_TITLE_LENGTH)}</b> · {locale.t('level_' + quiz.level.value)}"
            f" · {locale.t('n_questions', n=len(quiz))}\n"
        )
        if quiz.description is not None:
            block += f"<i>{locale.text(quiz.description, MAX_DESCRIPTION_LENGTH)}</i>\n"
        block += f"<code>/quiz {quiz.id}</code> · {_record_line(record, locale)}"
        row = [
            _quiz_button(quiz, record, locale),
            InlineKeyboardButton(
                locale.t("button_preview"), callback_data=callbacks.PreviewQuiz(quiz.id).encode()
            ),
        ]
        entries.append((block, row))
    return paged(entries)


def paged(entries: Sequence[tuple[str, list[InlineKeyboardButton] | None]]) -> list[Rendered]:
    """Blocks, each with its row of buttons (or none), packed into as few messages as fit:
    each message carries the rows of its own blocks. No block is over the limit alone."""
    messages: list[Rendered] = []
    blocks: list[str] = []
    rows: list[list[InlineKeyboardButton]] = []

    def flush() -> None:
        markup = InlineKeyboardMarkup(rows) if rows else None
        messages.append(Rendered("\n\n".join(blocks), markup))

    used = 0
    for block, row in entries:
        length = telegram_html.visible_length(block)
        needed = used + 2 + length if blocks else length  # 2: the blank line between blocks
        if blocks and (
            needed > MAX_MESSAGE_LENGTH or (row is not None and len(rows) >= MAX_ROWS_PER_MESSAGE)
        ):
            flush()
            blocks, rows, needed = [], [], length
        blocks.append(block)
        used = needed
        if row is not None:
            rows.append(row)
    flush()
    return messages


def preview_messages(quiz: Quiz, locale: Locale) -> list[Rendered]:
    intro = [
        locale.t("preview_title", title=locale.text(quiz.title, MAX_TITLE_LENGTH), n=len(quiz))
    ]
    if quiz.description is not None:
        intro.append(f"<i>{locale.text(quiz.description, MAX_DESCRIPTION_LENGTH)}</i>")
    if quiz.guide is not None:
        intro.append(_guide_line(quiz, locale))
    blocks = ["\n".join(intro)]
    for number, question in enumerate(quiz.questions, start=1):
        blocks.append(preview_block(number, question, locale))
    messages = [Rendered(text) for text in split_blocks(blocks)]
    start = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    locale.t(
                        "button_start",
                        title=shorten(locale.plain(quiz.title), 40),
                    ),
                    callback_data=callbacks.OpenQuiz(quiz.id).encode(),
                )
            ]
        ]
    )
    messages[-1] = Rendered(messages[-1].text, start)
    return messages


def preview_block(number: int, question: Question, locale: Locale) -> str:
    """One question as the preview shows it, without its answer: its text, its options or
    what kind of answer it takes, and its picture in words (its alt text)."""
    lines = [f"<b>{number}.</b> {locale.rich(question.text, MAX_QUESTION_LENGTH)}"]
    if (picture := picture_line(question, locale)) is not None:
        lines.append(picture)
    match question.key:
        case MultipleAnswer():
            lines.append(f"<i>{locale.t('preview_multiple')}</i>")
        case TrueFalseAnswer():
            lines.append(f"   {locale.t('preview_true_false')}")
        case NumericAnswer(unit=unit) if unit is not None:
            lines.append(f"   <i>{locale.t('preview_number_unit', unit=locale.text(unit, 30))}</i>")
        case NumericAnswer():
            lines.append(f"   <i>{locale.t('preview_number')}</i>")
        case TypedAnswer():
            lines.append(f"   <i>{locale.t('preview_typed')}</i>")
    lines.extend(
        f"   {letter(i)}. {locale.rich(option, MAX_OPTION_LENGTH)}"
        for i, option in enumerate(question.options)
    )
    return "\n".join(lines)


NO_CARDS = CardCounts(0, 0, 0, 0)


@dataclass(frozen=True)
class Overview:
    """The learner's whole standing: days in a row, reviews due now and by tonight, their
    cards by kind, their true retention (right, of reviews of cards seen before, over 30
    days) and their daily goal."""

    streak: int
    due_now: int
    due_today: int
    cards: CardCounts = NO_CARDS
    retention: tuple[int, int] = (0, 0)
    goal: Goal | None = None


def progress_message(
    quizzes: Sequence[Quiz],
    records: Mapping[str, QuizRecord],
    mastery: Mapping[str, Mastery],
    overview: Overview,
    locale: Locale,
) -> list[Rendered]:
    touched = [quiz for quiz in quizzes if quiz.id in records or quiz.id in mastery]
    if not touched:
        return [Rendered(locale.t("progress_none"))]
    right, reviewed = overview.retention
    percent = retention_percent(right, reviewed)
    lines = [
        locale.t("progress_title"),
        locale.t(
            "progress_overview",
            streak=overview.streak,
            due_now=overview.due_now,
            due_today=overview.due_today,
        ),
        locale.t(
            "progress_cards",
            new=overview.cards.new,
            learning=overview.cards.learning,
            young=overview.cards.young,
            mature=overview.cards.mature,
        ),
        locale.t("progress_retention", percent=percent, n=reviewed)
        if percent is not None
        else locale.t("progress_retention_none"),
    ]
    if overview.goal is not None:
        lines.append(locale.t("progress_goal", done=overview.goal.done, goal=overview.goal.goal))
    head = "\n".join(lines)
    review = (
        [
            InlineKeyboardButton(
                locale.t("button_review", n=overview.due_now),
                callback_data=callbacks.StartReview().encode(),
            )
        ]
        if overview.due_now
        else None
    )
    entries: list[tuple[str, list[InlineKeyboardButton] | None]] = [(head, review)]
    for quiz in touched:
        record = records.get(quiz.id)
        parts = [_record_line(record, locale)]
        if record is not None and record.last_score is not None:
            parts.append(
                locale.t(
                    "progress_last", score=score_text(record.last_score), total=record.last_total
                )
            )
        if record is not None and record.attempts_finished:
            parts.append(locale.t("progress_attempts", n=record.attempts_finished))
        lines = [f"<b>{locale.text(quiz.title, MAX_TITLE_LENGTH)}</b>"]
        standing = mastery.get(quiz.id)
        if standing is not None:
            lines.append(
                locale.t(
                    "progress_mastery",
                    bar=bar(standing.mastered / standing.total if standing.total else 0),
                    percent=standing.percent,
                    mastered=standing.mastered,
                    total=standing.total,
                )
            )
            if standing.weak_positions:
                weak = ", ".join(f"#{n}" for n in standing.weak_positions[:MAX_WEAK_SHOWN])
                if len(standing.weak_positions) > MAX_WEAK_SHOWN:
                    weak += f" … (+{len(standing.weak_positions) - MAX_WEAK_SHOWN})"
                parts.append(locale.t("progress_weak", questions=weak))
        lines.append(" · ".join(parts))
        entries.append(("\n".join(lines), [_quiz_button(quiz, record, locale)]))
    return paged(entries)


def wait_text(seconds: float, locale: Locale) -> str:
    """A wait in words: minutes under two hours, hours under two days, then days."""
    minutes = max(1, round(seconds / 60))
    if minutes < 120:
        return locale.t("in_minutes", n=minutes)
    hours = round(minutes / 60)
    if hours < 48:
        return locale.t("in_hours", n=hours)
    return locale.t("in_days", n=round(hours / 24))


@dataclass(frozen=True)
class Ahead:
    """With nothing due now: the cards due within a few days, and those forgotten lately."""

    due_soon: int
    forgotten: int


def nothing_due(next_due: float | None, now: float, ahead: Ahead, locale: Locale) -> Rendered:
    """Nothing due now: when the next review is, and the offers to review ahead or what was
    forgotten lately."""
    if next_due is None and not ahead.forgotten:
        return Rendered(locale.t("review_none_yet"))
    text = (
        locale.t("review_nothing_due", wait=wait_text(next_due - now, locale))
        if next_due is not None
        else locale.t("review_ahead_none")
    )
    rows = []
    if ahead.due_soon:
        rows.append(
            [
                InlineKeyboardButton(
                    locale.t("review_ahead_button", n=ahead.due_soon),
                    callback_data=callbacks.ReviewAhead().encode(),
                )
            ]
        )
    if ahead.forgotten:
        rows.append(
            [
                InlineKeyboardButton(
                    locale.t("review_forgotten_button", n=ahead.forgotten),
                    callback_data=callbacks.ReviewForgotten().encode(),
                )
            ]
        )
    return Rendered(text, InlineKeyboardMarkup(rows) if rows else None)


def review_summary(
    summary: Summary,
    next_due: float | None,
    now: float,
    locale: Locale,
    practice: Practice | None = None,
) -> Rendered:
    parts = [
        locale.t("review_done"),
        _score_line(summary, locale),
    ]
    if next_due is not None:
        parts.append(locale.t("review_next", wait=wait_text(max(0.0, next_due - now), locale)))
    rows = _practice_rows(practice, "button_practise", locale)
    rows.append(
        [
            InlineKeyboardButton(
                locale.t("button_all_quizzes"), callback_data=callbacks.ListQuizzes().encode()
            )
        ]
    )
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(rows))


def practice_intro(n: int, locale: Locale) -> str:
    return locale.t("practice_intro", n=n)


def practice_summary(
    summary: Summary,
    next_due: float | None,
    now: float,
    sections: Sequence[Guide],
    practice: Practice,
    locale: Locale,
) -> Rendered:
    """The end of a practice round: the score, that its answers were reviews (and when the
    next review is), the sections to read, and another round of what is still missed."""
    parts = [locale.t("practice_done"), _score_line(summary, locale)]
    if not practice.missed:
        parts.append(locale.t("practice_all_right"))
    reviews = locale.t("practice_reviews")
    if next_due is not None:
        reviews += " " + locale.t("review_next", wait=wait_text(max(0.0, next_due - now), locale))
    parts.append(reviews)
    if sections:
        listed = [
            f'• <a href="{html.escape(guide.url)}">'
            f"{locale.text(guide.title, MAX_GUIDE_TITLE_LENGTH)}</a>"
            for guide in sections[:MAX_MISSED_SHOWN]
        ]
        if len(sections) > MAX_MISSED_SHOWN:
            listed.append(locale.t("and_more", n=len(sections) - MAX_MISSED_SHOWN))
        parts.append(locale.t("practice_to_read") + "\n" + "\n".join(listed))
    rows = _practice_rows(practice, "button_practise_again", locale)
    rows.append(
        [
            InlineKeyboardButton(
                locale.t("button_all_quizzes"), callback_data=callbacks.ListQuizzes().encode()
            )
        ]
    )
    return Rendered("\n\n".join(parts), InlineKeyboardMarkup(rows))


def leech_message(lapses: int, read: Guide | None, locale: Locale) -> Rendered:
    """Told once, gently, when a card has lapsed too often (a leech)."""
    link = (
        locale.t(
            "leech_read",
            url=html.escape(read.url),
            title=locale.text(read.title, MAX_GUIDE_TITLE_LENGTH),
        )
        if read is not None
        else ""
    )
    return Rendered(locale.t("leech_told", n=lapses, read=link))


@dataclass(frozen=True)
class Goal:
    """A daily goal and today's count of answers towards it."""

    goal: int
    done: int


def goal_line(goal: Goal, locale: Locale) -> str:
    if goal.done >= goal.goal:
        return locale.t("goal_reminder_met", done=goal.done, goal=goal.goal)
    return locale.t("goal_reminder", done=goal.done, goal=goal.goal, left=goal.goal - goal.done)


def reminder_message(due: int, locale: Locale, goal: Goal | None = None) -> Rendered:
    """The daily reminder: the reviews due, and how far today's count is from the goal."""
    text = locale.t("reminder", n=due) if due else locale.t("goal_reminder_nothing_due")
    if goal is not None:
        text += "\n" + goal_line(goal, locale)
    button = (
        InlineKeyboardButton(
            locale.t("button_review", n=due), callback_data=callbacks.StartReview().encode()
        )
        if due
        else InlineKeyboardButton(
            locale.t("button_quizzes"), callback_data=callbacks.ListQuizzes().encode()
        )
    )
    return Rendered(text, InlineKeyboardMarkup([[button]]))


def language_menu(languages: Sequence[str], current: str, locale: Locale) -> Rendered:
    buttons = [
        [
            InlineKeyboardButton(
                ("• " if code == current else "") + language_name(code),
                callback_data=callbacks.ChooseLanguage(code).encode(),
            )
        ]
        for code in languages
    ]
    return Rendered(locale.t("language_choose"), InlineKeyboardMarkup(buttons))


def forget_request(asked_at: int, locale: Locale) -> Rendered:
    """What `/forgetme` deletes, with a button to confirm (for a while) and one to cancel."""
    buttons = [
        InlineKeyboardButton(
            locale.t("forget_confirm"), callback_data=callbacks.ConfirmForget(asked_at).encode()
        ),
        InlineKeyboardButton(
            locale.t("forget_cancel"), callback_data=callbacks.CancelForget().encode()
        ),
    ]
    return Rendered(locale.t("forget_ask"), InlineKeyboardMarkup([buttons]))
