"""What a learner sees of an exam, drawn purely: the rules before it starts, a question with
the time left and the learner's answer so far (never whether it is right), the question to
hand in, the result, and the review page by page. Data in, `Rendered` out."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import (
    MAX_BUTTON_LABEL,
    MAX_REPLY_SHOWN,
    Rendered,
    answer_hint,
    choice_labels,
    choices,
    clock_text,
    explanation,
    letter,
    letters,
    right_reply,
    screen_order,
    shorten,
    takes_reply,
    weight_note,
)
from bot.learner.render import Placed, reveal_message
from content.exams import ExamResult, MarkedItem, Outcome, Paper
from content.grading import NumberReply, Response, TextReply, choices_of, right_choices
from content.model import LocalizedText, Question, QuestionType, Quiz
from content.schema import MAX_QUESTION_LENGTH, MAX_TITLE_LENGTH


def points_text(points: Fraction) -> str:
    """Exam points as shown: 6.5, 6.75, 0.33 (at most two decimals), a minus as a minus."""
    rounded = round(points, 2)
    text = f"{float(abs(rounded)):.2f}".rstrip("0").rstrip(".")
    return f"−{text}" if rounded < 0 else text


def percent_text(percent: Fraction) -> str:
    rounded = round(percent, 1)
    return f"{float(rounded):.1f}".removesuffix(".0")


MAX_SECTION_SHOWN = 40  # characters of a section's title in a result (fifty of them fit)


def _section_name(title: LocalizedText, locale: Locale) -> str:
    return html.escape(shorten(locale.plain(title), MAX_SECTION_SHOWN))


def _title(quiz: Quiz, locale: Locale) -> str:
    return locale.text(quiz.title, MAX_TITLE_LENGTH)


def rules_message(
    quiz: Quiz, paper: Paper, attempt: int, locale: Locale, seconds: float | None = None
) -> Rendered:
    """Before the first question: what the exam is and how it is marked; `seconds`, the time
    it has when that is less than the paper's (a homework's deadline comes first)."""
    allowed = paper.seconds if seconds is None else seconds
    lines = [
        locale.t("exam_intro_title", title=_title(quiz, locale)),
        locale.t("exam_intro_size", n=len(paper.items), minutes=clock_text(allowed)),
    ]
    if allowed < paper.seconds:
        lines.append(locale.t("exam_intro_deadline_first"))
    if paper.sectioned:
        named = [_section_name(p.title, locale) for p in paper.parts if p.title]
        lines.append(locale.t("exam_intro_sections", sections=", ".join(named)))
    if paper.penalty:
        lines.append(locale.t("exam_intro_penalty", penalty=points_text(paper.penalty)))
    if paper.pass_mark is not None:
        lines.append(locale.t("exam_intro_pass", percent=percent_text(paper.pass_mark)))
    if paper.attempts:
        lines.append(locale.t("exam_intro_attempt", k=attempt, n=paper.attempts))
    lines.append(locale.t("exam_intro_how"))
    return Rendered("\n".join(lines))


@dataclass(frozen=True)
class Shown:
    """A question of a running exam as the learner meets it: its place on the paper
    (`position`) and among the questions that count ("Question `number` of `total`"), the
    positions before and after it (None at either end), its choices' screen order, the
    learner's response so far, the time left."""

    quiz: Quiz
    paper: Paper
    question: Question
    position: int
    number: int
    total: int
    previous: int | None
    following: int | None
    order: Sequence[int]
    response: Response | None
    seconds_left: float


def _section_line(shown: Shown, locale: Locale) -> str | None:
    part = shown.paper.part_of(shown.question.id)
    if part is None or part.title is None:
        return None
    return f"<i>{locale.text(part.title, MAX_TITLE_LENGTH)}</i>"


def _answer_line(shown: Shown, locale: Locale) -> str:
    response = shown.response
    if response is None:
        return locale.t("exam_not_answered")
    if isinstance(response, NumberReply | TextReply):
        text = response.text
        shown_reply = f"<b>{html.escape(shorten(text, MAX_REPLY_SHOWN))}</b>"
        return locale.t("exam_your_answer", answer=shown_reply)
    places = [list(shown.order).index(choice) for choice in choices_of(response)]
    return locale.t("exam_your_answer", answer=f"<b>{letters(places)}</b>")


def question_panel(shown: Shown, attempt_id: int, locale: Locale) -> Rendered:
    """The question with the time left, its choices, what to do, and the learner's answer so
    far; buttons to answer (a multiple question's options toggle), to clear the answer, to
    go to the previous or next question, and to hand in."""
    question = shown.question
    header = locale.t(
        "exam_question_header",
        title=_title(shown.quiz, locale),
        k=shown.number,
        n=shown.total,
        left=clock_text(shown.seconds_left),
    )
    parts = [header]
    if (section := _section_line(shown, locale)) is not None:
        parts[0] += f"\n{section}"
    parts.append(locale.rich(question.text, MAX_QUESTION_LENGTH))
    places = list(screen_order(question, shown.order))
    if question.options:
        texts = choices(question, locale)
        parts.append(
            "\n".join(f"<b>{letter(i)}.</b> {texts[choice]}" for i, choice in enumerate(places))
        )
    if (hint := _hint(question, locale)) is not None:
        parts.append(f"<i>{hint}</i>")
    parts.append(_answer_line(shown, locale))
    return Rendered("\n\n".join(parts), _panel_keyboard(shown, attempt_id, places, locale))


def _hint(question: Question, locale: Locale) -> str | None:
    if question.type is QuestionType.MULTIPLE:
        return locale.t("exam_hint_multiple")
    return answer_hint(question, locale)


def _panel_keyboard(
    shown: Shown, attempt_id: int, places: Sequence[int], locale: Locale
) -> InlineKeyboardMarkup:
    question, position = shown.question, shown.position
    chosen = choices_of(shown.response) if shown.response is not None else frozenset()
    labels = choice_labels(question, locale)
    several = question.type is QuestionType.MULTIPLE
    rows: list[list[InlineKeyboardButton]] = []
    for place, choice in enumerate(places):
        picked = choice in chosen
        mark = ("☑ " if picked else "☐ ") if several else ("● " if picked else "")
        label = f"{mark}{letter(place)}. {shorten(labels[choice], MAX_BUTTON_LABEL)}"
        tap = callbacks.ExamChoose(attempt_id, position, place)
        rows.append([InlineKeyboardButton(label, callback_data=tap.encode())])
    if question.type is QuestionType.TRUE_FALSE and rows:
        rows = [[row[0] for row in rows]]
    if shown.response is not None:
        clear = callbacks.ExamClear(attempt_id, position).encode()
        rows.append([InlineKeyboardButton(locale.t("exam_button_clear"), callback_data=clear)])
    moves = []
    if shown.previous is not None:
        back = callbacks.ExamGo(attempt_id, shown.previous).encode()
        moves.append(InlineKeyboardButton(locale.t("exam_button_previous"), callback_data=back))
    if shown.following is not None:
        ahead = callbacks.ExamGo(attempt_id, shown.following).encode()
        moves.append(InlineKeyboardButton(locale.t("exam_button_next"), callback_data=ahead))
    if moves:
        rows.append(moves)
    finish = callbacks.ExamFinish(attempt_id).encode()
    rows.append([InlineKeyboardButton(locale.t("exam_button_finish"), callback_data=finish)])
    return InlineKeyboardMarkup(rows)


def hand_in_question(
    quiz: Quiz, answered: int, total: int, seconds_left: float, position: int, attempt_id: int,
    locale: Locale,
) -> Rendered:  # fmt: skip
    """Hand in now? With what is left unanswered, and the way back."""
    lines = [
        locale.t("exam_hand_in_title", title=_title(quiz, locale), left=clock_text(seconds_left)),
        locale.t("exam_hand_in_answered", k=answered, n=total),
    ]
    if answered < total:
        lines.append(locale.t("exam_hand_in_unanswered", n=total - answered))
    hand_in = callbacks.ExamHandIn(attempt_id).encode()
    back = callbacks.ExamGo(attempt_id, position).encode()
    keyboard = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(locale.t("exam_button_hand_in"), callback_data=hand_in)],
            [InlineKeyboardButton(locale.t("exam_button_back"), callback_data=back)],
        ]
    )
    return Rendered("\n\n".join(lines), keyboard)


def closed_panel(quiz: Quiz | None, by_time: bool, locale: Locale) -> Rendered:
    """What the last question's message becomes once the exam has ended."""
    title = _title(quiz, locale) if quiz is not None else ""
    return Rendered(locale.t("exam_closed_time" if by_time else "exam_closed", title=title))


@dataclass(frozen=True)
class Standing:
    """An ended exam as its result shows it."""

    quiz: Quiz
    result: ExamResult
    seconds_taken: float
    seconds_allowed: int
    by_time: bool
    review: str | None  # None: the review is open; else why not yet (an interface string)
    missed: int = 0  # answered and not fully right: a practice of them, once the review is open


def result_message(standing: Standing, attempt_id: int, locale: Locale) -> Rendered:
    """The score with the penalty applied, per section, what was right, wrong and left out,
    the time taken; and the button to the review (open, or saying why not yet), and once it is
    open, "Practise the N you missed"."""
    result = standing.result
    score = locale.t(
        "exam_score",
        points=points_text(result.points),
        out_of=result.out_of,
        percent=percent_text(result.percent),
    )
    if result.passed is not None:
        score += locale.t("exam_passed" if result.passed else "exam_not_passed")
    key = "exam_result_title_time" if standing.by_time else "exam_result_title"
    lines = [locale.t(key, title=_title(standing.quiz, locale)), score]
    named = [part for part in result.parts if part.title is not None]
    if named:
        lines.append(
            "\n".join(
                locale.t(
                    "exam_section_line",
                    section=_section_name(part.title, locale),
                    points=points_text(part.points),
                    out_of=part.out_of,
                )
                for part in named
                if part.title is not None
            )
        )
    counts = [
        locale.t("exam_count_right", n=result.count(Outcome.RIGHT)),
        locale.t("exam_count_partly", n=result.count(Outcome.PARTLY)),
        locale.t("exam_count_wrong", n=result.count(Outcome.WRONG)),
        locale.t("exam_count_unanswered", n=result.count(Outcome.UNANSWERED)),
    ]
    if not result.count(Outcome.PARTLY):
        del counts[1]
    line = " · ".join(counts)
    if result.penalties:
        line += " " + locale.t("exam_penalties", points=points_text(-result.penalties))
    lines.append(line)
    taken = min(standing.seconds_taken, standing.seconds_allowed)
    lines.append(
        locale.t(
            "exam_time_taken",
            taken=clock_text(taken),
            allowed=clock_text(standing.seconds_allowed),
        )
    )
    if standing.review is not None:
        lines.append(f"<i>{standing.review}</i>")
    button = InlineKeyboardButton(
        locale.t("exam_button_review"),
        callback_data=callbacks.ExamReview(attempt_id, 0).encode(),
    )
    rows = [[button]]
    if standing.review is None and standing.missed:
        practise = callbacks.PractiseMissed(attempt_id).encode()
        rows.append(
            [
                InlineKeyboardButton(
                    locale.t("button_practise", n=standing.missed), callback_data=practise
                )
            ]
        )
    return Rendered("\n\n".join(lines), InlineKeyboardMarkup(rows))


def review_page(
    quiz: Quiz,
    marked: MarkedItem,
    number: int,
    total: int,
    order: Sequence[int],
    attempt_id: int,
    locale: Locale,
) -> Rendered:
    """One question of the review: the points it counted for, the learner's answer marked, the
    right answer, the explanation; buttons to the previous and the next page. (Its section is
    the result's to say: with the longest question a reveal holds, there is no room for it.)"""
    question = quiz.question(marked.item)
    assert question is not None
    placed = Placed(quiz, question, number - 1, total=total, number=number, order=order)
    if marked.grade is not None:
        body = reveal_message(placed, marked.grade, locale).text
    else:
        body = _unanswered(placed, locale)
    points = locale.t("exam_review_points", points=points_text(marked.points))
    lines = [f"{locale.t('exam_review_title')} · {points}", body]
    moves = []
    if number > 1:
        back = callbacks.ExamReview(attempt_id, number - 1).encode()
        moves.append(InlineKeyboardButton(locale.t("exam_button_previous"), callback_data=back))
    if number < total:
        ahead = callbacks.ExamReview(attempt_id, number + 1).encode()
        moves.append(InlineKeyboardButton(locale.t("exam_button_next"), callback_data=ahead))
    return Rendered("\n\n".join(lines), InlineKeyboardMarkup([moves]) if moves else None)


def _unanswered(placed: Placed, locale: Locale) -> str:
    """A question left unanswered, with its right answer and explanation."""
    question = placed.question
    header = f"<b>{_title(placed.quiz, locale)}</b>\n" + locale.t(
        "question_header", k=placed.number, n=placed.total
    )
    parts = [header, locale.rich(question.text, MAX_QUESTION_LENGTH)]
    if takes_reply(question):
        parts.append(locale.t("exam_review_unanswered"))
        parts.append(locale.t("exam_review_right_reply", answer=right_reply(question, locale)))
    else:
        order = screen_order(question, placed.order)
        parts.append(_option_lines_in(question, order, locale))
        parts.append(locale.t("exam_review_unanswered"))
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return "\n\n".join(parts)


def _option_lines_in(question: Question, order: Sequence[int], locale: Locale) -> str:
    """The choices in screen order, the right ones marked."""
    right = right_choices(question)
    texts = choices(question, locale)
    return "\n".join(
        f"{'✅' if choice in right else '▫️'} <b>{letter(place)}.</b> {texts[choice]}"
        f"{weight_note(question, choice)}"
        for place, choice in enumerate(order)
    )
