"""Pure rendering for the admin feature: import reports, question drafts, statistics. Data in,
`Rendered` (HTML text and keyboard) out; content is escaped here."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    KeyboardButtonPollType,
    Poll,
    ReplyKeyboardMarkup,
)

from bot.core import callbacks
from bot.core.display import isolate
from bot.core.i18n import Locale
from bot.core.quiz_menus import MenuFor
from bot.core.render import (
    Rendered,
    explanation,
    letter,
    option_lines,
    right_reply,
    shorten,
    split_blocks,
)
from content.editing import ImportPlan
from content.model import Question, QuestionType, Quiz
from content.schema import MAX_QUESTION_LENGTH
from storage.content_store import (
    CreditStat,
    QuestionStat,
    QuizTotals,
    RetiredQuestion,
    WrongReply,
)

MAX_IDS_SHOWN = 30
HARDEST_SHOWN = 3
WRONG_REPLIES_SHOWN = 3  # the most common wrong replies of a numeric or typed question
TYPED_QUESTIONS_SHOWN = 10  # numeric/typed questions with wrong replies listed per quiz
MULTIPLE_QUESTIONS_SHOWN = 10  # multiple questions with their average score listed per quiz
REPLY_SHOWN_LENGTH = 40
MAX_ERRORS_SHOWN = 30  # errors of a refused bank listed in messages; all of them in a file
MAX_ERROR_LENGTH = 300


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(f"<code>{html.escape(i)}</code>" for i in ids[:MAX_IDS_SHOWN])
    return shown + (f" … (+{len(ids) - MAX_IDS_SHOWN})" if len(ids) > MAX_IDS_SHOWN else "")


@dataclass(frozen=True)
class Listed:
    """A list told to an admin (a refused bank's errors, what a conversion lost): the first
    lines as messages; every line in a text file as well when there are more than they show."""

    messages: list[str]
    full_list: str | None = None  # one line an entry
    file_name: str = ""


def import_errors(file_name: str, errors: Sequence[str], locale: Locale) -> Listed:
    """The first MAX_ERRORS_SHOWN errors, numbered, with their place (each shortened); past
    that, a count in the message and every error in full in a text file."""
    head = locale.t("import_refused", file=html.escape(file_name), n=len(errors))
    listed = "\n".join(
        f"{n}. {html.escape(shorten(error, MAX_ERROR_LENGTH))}"
        for n, error in enumerate(errors[:MAX_ERRORS_SHOWN], 1)
    )
    blocks = [head, listed]
    more = len(errors) - MAX_ERRORS_SHOWN
    if more <= 0:
        return Listed(split_blocks(blocks))
    blocks.append(locale.t("import_errors_more", n=more))
    listing = "".join(f"{error}\n" for error in errors)
    return Listed(split_blocks(blocks), listing, f"{_plain_file_name(file_name)}.errors.txt")


def _plain_file_name(name: str) -> str:
    """A name as safe for a file name as it is readable: letters, digits, `.`, `-`, `_`."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")[:60] or "bank"


MAX_NOTES_SHOWN = 20


def listing(head: str, lines: Sequence[str]) -> list[str]:
    """A heading and plain-text lines (each escaped and shortened), as messages that fit."""
    listed = [f"• {html.escape(shorten(line, MAX_ERROR_LENGTH))}" for line in lines]
    return split_blocks(["\n".join([head, *listed])])


def conversion_notes(
    file_name: str, skipped: Sequence[str], warnings: Sequence[str], locale: Locale
) -> Listed:
    """The questions skipped and what was not kept: the first MAX_NOTES_SHOWN of each list
    in messages, then a count, and all of them in a text file."""
    blocks = []
    listing = []
    for key, notes in (("import_skipped", skipped), ("import_warnings", warnings)):
        if not notes:
            continue
        listed = [f"• {html.escape(shorten(note, MAX_ERROR_LENGTH))}" for note in notes]
        if len(notes) > MAX_NOTES_SHOWN:
            listed[MAX_NOTES_SHOWN:] = [
                locale.t("import_notes_more", n=len(notes) - MAX_NOTES_SHOWN)
            ]
        head = locale.t(key, file=html.escape(file_name), n=len(notes))
        blocks.append("\n".join([head, *listed]))
        plain_head = html.unescape(locale.t(key, file=file_name, n=len(notes)))
        listing.append("".join(f"{line}\n" for line in [plain_head, *notes]))
    messages = split_blocks(blocks) if blocks else []
    if len(skipped) <= MAX_NOTES_SHOWN and len(warnings) <= MAX_NOTES_SHOWN:
        return Listed(messages)
    return Listed(messages, "\n".join(listing), f"{_plain_file_name(file_name)}.skipped.txt")


def good_questions_offer(file_name: str, good: int, locale: Locale) -> Rendered:
    """After a refusal that skipping would get round: how many questions can be taken, and
    a button that imports them (from the file the message replies to)."""
    button = InlineKeyboardButton(
        locale.t("button_import_good", n=good), callback_data=callbacks.ImportGood().encode()
    )
    text = locale.t("import_good_offer", file=html.escape(file_name), n=good)
    return Rendered(text, InlineKeyboardMarkup([[button]]))


def import_report(plan: ImportPlan, overrides_disk: bool, locale: Locale) -> str:
    quiz = plan.quiz
    lines = [
        locale.t(
            "import_done", title=html.escape(locale.plain(quiz.title)), quiz_id=quiz.id, n=len(quiz)
        ),
        locale.t(
            "import_counts",
            added=len(plan.added),
            updated=len(plan.updated),
            unchanged=len(plan.unchanged),
            retired=len(plan.retired),
        ),
    ]
    if plan.replaces and plan.added:
        lines.append(locale.t("import_added", ids=_ids(plan.added)))
    if plan.updated:
        lines.append(locale.t("import_updated", ids=_ids(plan.updated)))
    if plan.retired:
        lines.append(locale.t("import_retired", ids=_ids(plan.retired)))
    if overrides_disk:
        lines.append(locale.t("import_overrides"))
    return "\n".join(lines)


def assumed(quiz: Quiz, fields: Sequence[str], locale: Locale) -> str:
    """What the bank took as the file did not say it: its id or title from the file's name,
    the level medium."""
    said = {
        "id": locale.t("import_assumed_id", quiz_id=quiz.id),
        "title": locale.t("import_assumed_title", title=html.escape(locale.plain(quiz.title))),
        "level": locale.t("import_assumed_level", level=quiz.level.value),
    }
    return locale.t("import_assumed", what="; ".join(said[f] for f in fields if f in said))


def next_steps(quiz: Quiz, locale: Locale) -> Rendered:
    """After an import: try the quiz, post it to a group, set it as homework, export it."""
    steps = [
        ("button_try_quiz", callbacks.OpenQuiz(quiz.id)),
        ("button_post_quiz", callbacks.QuizMenuChoice(MenuFor.PUSH, quiz.id)),
        ("button_assign_quiz", callbacks.QuizMenuChoice(MenuFor.ASSIGN, quiz.id)),
        ("button_export_quiz", callbacks.QuizMenuChoice(MenuFor.EXPORT, quiz.id)),
    ]
    buttons = [
        InlineKeyboardButton(locale.t(key), callback_data=tap.encode()) for key, tap in steps
    ]
    text = locale.t("import_next", title=html.escape(locale.plain(quiz.title)))
    return Rendered(text, InlineKeyboardMarkup([buttons[:2], buttons[2:]]))


def draft_preview(
    quiz: Quiz, question: Question, nonce: int, translation: str | None, locale: Locale
) -> list[Rendered]:
    """The new question as learners will see its reveal (and its translation, in a second
    message when both would not fit one), with Confirm and Cancel on the last message."""
    heading = locale.t(
        "draft_preview",
        k=len(quiz),
        title=html.escape(locale.plain(quiz.title)),
        question_id=html.escape(question.id),
    )
    blocks = [_revealed(heading, question, Locale(locale.default, locale.default))]
    if translation is not None:
        heading = locale.t("draft_translation_title", language=html.escape(translation))
        blocks.append(_revealed(heading, question, Locale(translation, locale.default)))
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    locale.t("button_confirm"), callback_data=callbacks.ConfirmDraft(nonce).encode()
                ),
                InlineKeyboardButton(
                    locale.t("button_cancel"), callback_data=callbacks.CancelDraft(nonce).encode()
                ),
            ]
        ]
    )
    messages = [Rendered(text) for text in split_blocks(blocks)]
    messages[-1] = Rendered(messages[-1].text, markup)
    return messages


def draft_types(nonce: int, chosen: QuestionType, locale: Locale) -> InlineKeyboardMarkup:
    """The type buttons under /addquestion's first prompt, the chosen one marked."""
    buttons = [
        InlineKeyboardButton(
            ("☑ " if kind is chosen else "") + locale.t(f"question_type_{kind.value}"),
            callback_data=callbacks.DraftType(nonce, index).encode(),
        )
        for index, kind in enumerate(QuestionType)
    ]
    return InlineKeyboardMarkup([buttons[i : i + 2] for i in range(0, len(buttons), 2)])


def _percent(correct: int, total: int) -> int:
    return round(100 * correct / total) if total else 0


def stats_messages(
    quizzes: Sequence[Quiz],
    learners: int,
    totals: Mapping[str, QuizTotals],
    questions: Sequence[QuestionStat],
    retired: Sequence[RetiredQuestion],
    locale: Locale,
    wrong: Sequence[WrongReply] = (),
    credits: Sequence[CreditStat] = (),
) -> list[str]:
    """Learners and answers overall and per quiz, the hardest questions (lowest share of right
    answers), retired ones marked; per question type what it can say (`per_type_lines`)."""
    answers = sum(total.answers for total in totals.values())
    blocks = [locale.t("stats_title", learners=learners, answers=answers)]
    # each list by quiz, once: 300 quizzes must not read every question's figures 300 times
    questions_of, retired_of = _by_quiz(questions), _by_quiz(retired)
    wrong_of, credits_of = _by_quiz(wrong), _by_quiz(credits)
    for quiz in quizzes:
        title = html.escape(locale.plain(quiz.title))
        total = totals.get(quiz.id)
        gone = {r.question_id: r for r in retired_of.get(quiz.id, [])}
        if total is None:
            lines = [locale.t("stats_quiz_none", title=title, quiz_id=quiz.id)]
        else:
            lines = [
                locale.t(
                    "stats_quiz",
                    title=title,
                    quiz_id=quiz.id,
                    learners=locale.t("n_learners", n=total.learners),
                    answers=locale.t("n_answers", n=total.answers),
                    percent=_percent(total.correct, total.answers),
                )
            ]
            mine = [s for s in questions_of.get(quiz.id, []) if s.answers]
            hardest = sorted(mine, key=lambda s: (s.correct / s.answers, -s.answers, s.question_id))
            if hardest:
                lines.append(locale.t("stats_hardest"))
            for stat in hardest[:HARDEST_SHOWN]:
                question = quiz.question(stat.question_id)
                if question is not None:
                    text = html.escape(shorten(locale.plain(question.text), 80))
                else:
                    old = gone.get(stat.question_id)
                    text = locale.t("stats_retired_mark") + (
                        " " + html.escape(shorten(old.text, 80)) if old else ""
                    )
                lines.append(
                    locale.t(
                        "stats_question",
                        question_id=html.escape(stat.question_id),
                        percent=_percent(stat.correct, stat.answers),
                        n=stat.answers,
                        text=text,
                    )
                )
            lines += per_type_lines(
                quiz, mine, wrong_of.get(quiz.id, []), credits_of.get(quiz.id, []), locale
            )
        if gone:
            lines.append(locale.t("stats_retired", ids=_ids(list(gone))))
        blocks.append("\n".join(lines))
    return split_blocks(blocks)


class _OfQuiz(Protocol):
    @property
    def quiz_id(self) -> str: ...


Q = TypeVar("Q", bound=_OfQuiz)


def _by_quiz(items: Iterable[Q]) -> dict[str, list[Q]]:
    found: dict[str, list[Q]] = {}
    for item in items:
        found.setdefault(item.quiz_id, []).append(item)
    return found


def per_type_lines(
    quiz: Quiz,
    questions: Sequence[QuestionStat],
    wrong: Sequence[WrongReply],
    credits: Sequence[CreditStat],
    locale: Locale,
) -> list[str]:
    """For a quiz of several types: answers and score per type; each multiple question's
    average score; the most common wrong replies of each numeric and typed question (the
    learners' words, never who wrote them). Nothing for a quiz of single questions only."""
    types = {question.type for question in quiz.questions}
    if types <= {QuestionType.SINGLE}:
        return []
    credit = {c.question_id: c for c in credits if c.quiz_id == quiz.id}
    answers: dict[QuestionType, int] = {}
    score: dict[QuestionType, float] = {}
    in_parts: set[QuestionType] = set()  # a kind whose answers count their credit
    for stat in questions:
        question = quiz.question(stat.question_id)
        if question is None:
            continue
        kind = question.type
        answers[kind] = answers.get(kind, 0) + stat.answers
        partial = credit.get(stat.question_id)
        score[kind] = score.get(kind, 0.0) + (partial.credit if partial else stat.correct)
        if partial is not None:
            in_parts.add(kind)
    parts = [
        locale.t(
            "stats_type_part_average" if kind in in_parts else "stats_type_part",
            type=locale.t(f"question_type_{kind.value}"),
            n=answers[kind],
            percent=round(100 * score[kind] / answers[kind]),
        )
        for kind in QuestionType
        if answers.get(kind)
    ]
    lines = [locale.t("stats_by_type", parts=" · ".join(parts))] if parts else []
    lines += _multiple_lines(quiz, list(credit.values()), locale)
    lines += _wrong_reply_lines(quiz, [w for w in wrong if w.quiz_id == quiz.id], locale)
    return lines


def _question_text(question: Question, locale: Locale) -> str:
    return html.escape(shorten(locale.plain(question.text), 60))


def _multiple_lines(quiz: Quiz, credits: Sequence[CreditStat], locale: Locale) -> list[str]:
    found = []
    for stat in credits:
        question = quiz.question(stat.question_id)
        if question is not None and question.type is QuestionType.MULTIPLE and stat.answers:
            found.append((stat.credit / stat.answers, stat, question))
    found.sort(key=lambda item: (item[0], item[1].question_id))
    if not found:
        return []
    lines = [locale.t("stats_multiple_head")]
    for average, stat, question in found[:MULTIPLE_QUESTIONS_SHOWN]:
        lines.append(
            locale.t(
                "stats_multiple_question",
                question_id=html.escape(stat.question_id),
                percent=round(100 * average),
                n=stat.answers,
                text=_question_text(question, locale),
            )
        )
    if len(found) > MULTIPLE_QUESTIONS_SHOWN:
        lines.append(locale.t("stats_more", n=len(found) - MULTIPLE_QUESTIONS_SHOWN))
    return lines


def same_reply(reply: str) -> str:
    """Replies that differ only in case and spacing count as one."""
    return " ".join(reply.casefold().split())


@dataclass
class _Counted:
    text: str  # the spelling seen most often
    count: int


def _wrong_reply_lines(quiz: Quiz, wrong: Sequence[WrongReply], locale: Locale) -> list[str]:
    counted: dict[str, dict[str, _Counted]] = {}  # question id -> same_reply -> count
    for item in wrong:  # most frequent first
        question = quiz.question(item.question_id)
        if question is None or question.type not in (QuestionType.NUMERIC, QuestionType.TYPED):
            continue
        replies = counted.setdefault(item.question_id, {})
        replies.setdefault(same_reply(item.reply), _Counted(item.reply, 0)).count += item.count
    if not counted:
        return []
    totals = {qid: sum(c.count for c in replies.values()) for qid, replies in counted.items()}
    order = sorted(counted, key=lambda qid: (-totals[qid], qid))
    lines = [locale.t("stats_wrong_head")]
    for question_id in order[:TYPED_QUESTIONS_SHOWN]:
        question = quiz.question(question_id)
        assert question is not None
        top = sorted(counted[question_id].values(), key=lambda c: (-c.count, c.text))
        shown = ", ".join(
            locale.t(
                "stats_wrong_reply",
                reply=html.escape(isolate(c.text, REPLY_SHOWN_LENGTH)),
                n=c.count,
            )
            for c in top[:WRONG_REPLIES_SHOWN]
        )
        lines.append(
            locale.t(
                "stats_wrong_question",
                question_id=html.escape(question_id),
                replies=shown,
                text=_question_text(question, locale),
            )
        )
    if len(order) > TYPED_QUESTIONS_SHOWN:
        lines.append(locale.t("stats_more", n=len(order) - TYPED_QUESTIONS_SHOWN))
    return lines


# /collect


def poll_keyboard(locale: Locale) -> ReplyKeyboardMarkup:
    """The reply keyboard whose button opens Telegram's quiz poll editor in this chat."""
    button = KeyboardButton(
        locale.t("button_create_quiz_poll"), request_poll=KeyboardButtonPollType(Poll.QUIZ)
    )
    return ReplyKeyboardMarkup([[button]], resize_keyboard=True)


def collected_line(k: int, poll: Poll, locale: Locale) -> str:
    """One line for a question collected: its number, its text shortened, its right option(s)."""
    right = ", ".join(letter(i) for i in sorted(set(poll.correct_option_ids or ())))
    text = html.escape(shorten(poll.question, 80))
    return locale.t("collect_added", k=k, text=text, right=right)


def collection_saved(quiz: Quiz, added: Sequence[Question], locale: Locale) -> list[str]:
    """The summary of a stored collection, then each question as learners see its reveal."""
    own = Locale(locale.default, locale.default)
    blocks = [
        locale.t(
            "collect_saved",
            n=len(added),
            title=html.escape(locale.plain(quiz.title)),
            quiz_id=quiz.id,
            total=len(quiz),
            ids=_ids([q.id for q in added]),
        )
    ]
    for question in added:
        heading = f"<code>{html.escape(question.id)}</code>"
        blocks.append(_revealed(heading, question, own, between="\n"))
    return split_blocks(blocks)


def _revealed(heading: str, question: Question, locale: Locale, between: str = "\n\n") -> str:
    """A heading, then the question as learners see its reveal, in `locale`'s language."""
    parts = [heading, locale.text(question.text, MAX_QUESTION_LENGTH)]
    if question.type in (QuestionType.NUMERIC, QuestionType.TYPED):
        parts.append(f"✅ {right_reply(question, locale)}")
    else:
        parts.append(option_lines(question, locale, reveal=True))
    if (why := explanation(question, locale)) is not None:
        parts.append(why)
    return between.join(parts)
