"""Command arguments, parsed in one place.

Each command's parser takes the words after the command (PTB's `context.args`) and returns
the values its handler needs, typed, or a `Refusal`: what was wrong, then how the command is
used, put into the sender's language when it is sent. No input makes a parser raise.

- Numbers and clock times are ASCII digits only. Python's `str.isdigit()` and `int()` take
  "²", "٣" or "５" too; the reply says "digits 0-9".
- A quiz id is a bank's slug (`[a-z0-9-]`, ASCII, case folded), a question id one of the
  quiz's, a chat `@name` or a numeric id; anything else is named as what is wrong.
- A value that is echoed back is cleaned, shortened and isolated (`bot.core.display`), then
  escaped: a 4,096-character argument cannot make the reply too long for Telegram.
- Words after the last argument a command takes are refused, not ignored. Commands that take
  no arguments (/progress, /stopquiz, ...) ignore whatever follows them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import time
from typing import Literal, TypeVar

from bot.config import Settings
from bot.core.display import ECHO_LIMIT, isolate
from bot.core.i18n import Locale
from bot.core.render import Reply
from content.catalog import Catalog
from content.deadlines import DeadlineProblem, parse_deadline
from content.formats.registry import OUTPUT_FORMATS
from content.model import Quiz
from content.rules import parse_clock_time, parse_timezone
from content.schema import MAX_QUIZ_ID_LENGTH, SLUG

T = TypeVar("T")

Words = Sequence[str] | None  # `context.args`: None for an update that is not a command

QUIZ_ID = re.compile(SLUG)
CHAT = re.compile(r"@[A-Za-z][A-Za-z0-9_]{3,31}|-?[1-9][0-9]{0,15}")
ASCII_NUMBER = re.compile(r"[0-9]{1,9}")
DEEP_LINK_PREFIX = "quiz-"
POLL = "poll"
OFF: Literal["off"] = "off"
OFF_WORDS = frozenset({"off", "stop", "no"})
WHICH_QUIZ = Reply("args_which_quiz")
SKIP_WORDS = frozenset({"--skip-unsupported", "skip"})


@dataclass(frozen=True)
class Refusal:
    """Arguments a command cannot take: what was wrong (None when nothing was given), then
    the usage (None for commands that have none)."""

    problem: Reply | None
    usage: Reply | None

    def text(self, locale: Locale) -> str:
        return "\n".join(part.text(locale) for part in (self.problem, self.usage) if part)


def echo(word: str) -> str:
    """Someone's argument inside a reply: cleaned, shortened, isolated, escaped."""
    return html.escape(isolate(word, ECHO_LIMIT) or "…")


def example_quiz(catalog: Catalog) -> str:
    return next((quiz.id for quiz in catalog), "my-quiz")


# one argument: a value, or the Reply that says what is wrong with it


def ascii_number(word: str) -> int | None:
    """A whole number written with the digits 0-9 only (up to nine of them)."""
    return int(word) if ASCII_NUMBER.fullmatch(word) else None


def quiz_id(word: str) -> str | Reply:
    slug = word.lower() if word.isascii() else ""
    if len(slug) <= MAX_QUIZ_ID_LENGTH and QUIZ_ID.fullmatch(slug):
        return slug
    return Reply("unknown_quiz", {"quiz_id": echo(word)})


def known_quiz(word: str, catalog: Catalog) -> Quiz | Reply:
    slug = quiz_id(word)
    if isinstance(slug, Reply):
        return slug
    return catalog.get(slug) or Reply("unknown_quiz", {"quiz_id": slug})


def known_question(word: str, quiz: Quiz) -> str | Reply:
    if quiz.question(word) is not None:  # a bank's ids are [A-Za-z0-9_.-], at most 40
        return word
    return Reply("unknown_question", {"quiz_id": quiz.id, "question_id": echo(word)})


def parse_chat(word: str) -> int | str | None:
    """`@name` of a channel or group, or a numeric chat id."""
    if not word.isascii() or not CHAT.fullmatch(word):
        return None
    return word if word.startswith("@") else int(word)


def chat(word: str) -> int | str | Reply:
    target = parse_chat(word)
    return Reply("args_chat", {"value": echo(word)}) if target is None else target


def clock_time(word: str) -> time | Reply:
    at = parse_clock_time(word)
    return Reply("args_clock_time", {"value": echo(word)}) if at is None else at


def seconds(word: str, low: int, high: int) -> int | Reply:
    number = ascii_number(word)
    if number is not None and low <= number <= high:
        return number
    return Reply("args_seconds", {"low": low, "high": high, "value": echo(word)})


# the words of a command


def _words(
    args: Words, usage: Reply | None, least: int, most: int, missing: Reply | None = None
) -> list[str] | Refusal:
    words = list(args or ())
    if len(words) < least:
        return Refusal(missing, usage)
    if len(words) > most:
        return Refusal(Reply("args_extra", {"value": echo(words[most])}), usage)
    return words


def _quiz_first(
    args: Words,
    catalog: Catalog,
    usage: Reply,
    least: int,
    most: int,
    missing: Reply | None = WHICH_QUIZ,
) -> tuple[Quiz, list[str]] | Refusal:
    """A known quiz's id, then the words after it (`least` to `most` words in all)."""
    words = _words(args, usage, least, most, missing)
    if isinstance(words, Refusal):
        return words
    quiz = known_quiz(words[0], catalog)
    return Refusal(quiz, usage) if isinstance(quiz, Reply) else (quiz, words[1:])


def _one_quiz(args: Words, catalog: Catalog, usage_key: str) -> Quiz | Refusal:
    given = _quiz_first(args, catalog, Reply(usage_key, {"example": example_quiz(catalog)}), 1, 1)
    return given if isinstance(given, Refusal) else given[0]


# learners


def start(args: Words, catalog: Catalog) -> Quiz | Refusal | None:
    """`/start`, or the deep link `/start quiz-<id>`: the quiz to open; None to welcome."""
    payload = args[0] if args else ""
    if not payload.startswith(DEEP_LINK_PREFIX):
        return None
    quiz = known_quiz(payload.removeprefix(DEEP_LINK_PREFIX), catalog)
    return Refusal(quiz, None) if isinstance(quiz, Reply) else quiz


def quiz(args: Words, catalog: Catalog) -> Quiz | Refusal:
    """`/quiz <id>`"""
    return _one_quiz(args, catalog, "usage_quiz")


def preview(args: Words, catalog: Catalog) -> Quiz | Refusal:
    """`/preview <id>`"""
    return _one_quiz(args, catalog, "usage_preview")


def exam(args: Words, catalog: Catalog) -> Quiz | Refusal:
    """`/exam <id>`"""
    return _one_quiz(args, catalog, "usage_exam")


def timezone(args: Words, current: str) -> str | Refusal:
    """`/timezone Area/City` or `/timezone +01:00` (words joined: `UTC +1` is one zone)."""
    usage = Reply("timezone_usage", {"timezone": html.escape(current)})
    if not args:
        return Refusal(None, usage)
    wanted = " ".join(args)
    zone = parse_timezone(wanted)
    if zone is None:
        return Refusal(Reply("timezone_unknown", {"timezone": echo(wanted)}), usage)
    return zone


def remind(args: Words, timezone: str, current: str | None) -> time | Literal["off"] | Refusal:
    """`/remind HH:MM`, `/remind 7pm` (or `7 pm`), or `/remind off` (also `stop`, `no`)."""
    shown = html.escape(current) if current else Reply("remind_none")
    usage = Reply("remind_usage", {"timezone": html.escape(timezone), "current": shown})
    words = _words(args, usage, 1, 2)
    if isinstance(words, Refusal):
        return words
    if len(words) == 1 and words[0].lower() in OFF_WORDS:
        return OFF
    at = clock_time(" ".join(words))
    return Refusal(at, usage) if isinstance(at, Reply) else at


MAX_GOAL = 1000  # answers a day


def goal(args: Words, current: int | None) -> int | Literal["off"] | Refusal:
    """`/goal <answers a day>` (1 to 1000) or `/goal off` (also `stop`, `no`)."""
    usage = Reply("goal_usage", {"current": current if current else Reply("goal_none")})
    word = _word_or_off(args, usage)
    if isinstance(word, Refusal) or word == OFF:
        return word
    number = ascii_number(word)
    if number is None or not 1 <= number <= MAX_GOAL:
        return Refusal(Reply("args_goal", {"value": echo(word)}), usage)
    return number


def _word_or_off(args: Words, usage: Reply) -> str | Refusal:
    """The one word a setting takes, or `OFF` for off, stop or no."""
    words = _words(args, usage, 1, 1)
    if isinstance(words, Refusal):
        return words
    return OFF if words[0].lower() in OFF_WORDS else words[0]


# groups and channels


@dataclass(frozen=True)
class GroupQuiz:
    quiz: Quiz
    seconds: int
    poll: bool


def groupquiz(args: Words, catalog: Catalog, settings: Settings) -> GroupQuiz | Refusal:
    """`/groupquiz <id> [seconds] [poll]`; `poll` may stand anywhere after the command."""
    low, high = settings.group_min_seconds, settings.group_max_seconds
    usage = Reply("group_usage", {"example": example_quiz(catalog), "low": low, "high": high})
    given = list(args or ())
    words = _words([w for w in given if w.lower() != POLL], usage, 1, 2, WHICH_QUIZ)
    if isinstance(words, Refusal):
        return words
    chosen = seconds(words[1], low, high) if len(words) == 2 else settings.group_seconds
    # the seconds first: "/groupquiz id 5" is about the 5 whatever "id" turns out to be
    if isinstance(chosen, Reply):
        return Refusal(chosen, usage)
    quiz = known_quiz(words[0], catalog)
    if isinstance(quiz, Reply):
        return Refusal(quiz, usage)
    return GroupQuiz(quiz, chosen, poll=len(words) < len(given))


# admins


def export(args: Words, catalog: Catalog) -> tuple[Quiz, str] | Refusal:
    """`/export <quiz id> [format]`: the quiz and the name of an output format (YAML unless
    given)."""
    formats = _listed(OUTPUT_FORMATS)
    usage = Reply("usage_export", {"example": example_quiz(catalog), "formats": formats})
    return _quiz_and_format(args, catalog, usage, OUTPUT_FORMATS, "yaml", "args_format")


def _quiz_and_format(
    args: Words, catalog: Catalog, usage: Reply, formats: Sequence[str], default: str, wrong: str
) -> tuple[Quiz, str] | Refusal:
    """A known quiz's id, then one of `formats` (`default` unless given; `.xlsx` as `xlsx`);
    any other word is refused by the Reply `wrong`, which may show the `{value}` and the
    `{formats}`."""
    given = _quiz_first(args, catalog, usage, 1, 2)
    if isinstance(given, Refusal):
        return given
    quiz, rest = given
    if not rest:
        return quiz, default
    wanted = rest[0].lower().lstrip(".")
    if wanted not in formats:
        return Refusal(Reply(wrong, {"value": echo(rest[0]), "formats": _listed(formats)}), usage)
    return quiz, wanted


def _listed(formats: Sequence[str]) -> str:
    return ", ".join(f"<code>{name}</code>" for name in formats)


def import_options(args: Words) -> bool | Refusal:
    """`/import [--skip-unsupported]`: whether to convert what a bank can hold and list the
    rest, rather than refuse the file."""
    usage = Reply("usage_import")
    words = _words(args, usage, 0, 1)
    if isinstance(words, Refusal):
        return words
    if not words:
        return False
    if words[0].lower() in SKIP_WORDS:
        return True
    return Refusal(Reply("args_extra", {"value": echo(words[0])}), usage)


def collect(args: Words, catalog: Catalog) -> Quiz | Refusal:
    """`/collect <quiz id>`"""
    return _one_quiz(args, catalog, "usage_collect")


def addquestion(args: Words, catalog: Catalog) -> Quiz | Refusal:
    """`/addquestion <quiz id>`"""
    return _one_quiz(args, catalog, "usage_addquestion")


def delquestion(args: Words, catalog: Catalog) -> tuple[Quiz, str] | Refusal:
    """`/delquestion <quiz id> <question id>`: the quiz and one of its questions' ids."""
    return _quiz_and(args, catalog, "usage_delquestion", known_question)


MAX_TITLE_WORDS = 12  # words after a quiz id taken as a chat's title (to be picked instead)


@dataclass(frozen=True)
class PushArgs:
    quiz: Quiz
    chat: int | str | None  # None: to be picked with Telegram's chat picker
    named: str | None = None  # words that name no chat (a title), echoed: the picker says so


def push(args: Words, catalog: Catalog) -> PushArgs | Refusal:
    """`/push <quiz id> [<@channel or chat id>]`: without a chat, or with words that are no
    @name or id (`/push week-3 Study group`), the chat is picked with the chat picker."""
    given = _quiz_first(args, catalog, Reply("usage_push"), 1, 1 + MAX_TITLE_WORDS)
    if isinstance(given, Refusal):
        return given
    quiz, rest = given
    target = parse_chat(rest[0]) if len(rest) == 1 else None
    if target is not None:
        return PushArgs(quiz, target)
    return PushArgs(quiz, None, echo(" ".join(rest)) if rest else None)


def _quiz_and(
    args: Words, catalog: Catalog, usage_key: str, second: Callable[[str, Quiz], T | Reply]
) -> tuple[Quiz, T] | Refusal:
    """Two words: a quiz id, then what `second` makes of the next word for that quiz."""
    usage = Reply(usage_key)
    given = _quiz_first(args, catalog, usage, 2, 2, missing=None)
    if isinstance(given, Refusal):
        return given
    quiz, (word,) = given
    value = second(word, quiz)
    return Refusal(value, usage) if isinstance(value, Reply) else (quiz, value)


@dataclass(frozen=True)
class ScheduleArgs:
    quiz_id: str  # not necessarily a quiz any more: `off` ends the schedule of a removed one
    chat: int | str | None  # None: to be picked with the chat picker
    minute_of_day: int | None  # UTC; None: `off`


def schedule(args: Words) -> ScheduleArgs | Refusal:
    """`/schedule <quiz id> [<@channel or chat id>] <HH:MM | off>`: without the chat, it is
    picked with the chat picker."""
    usage = Reply("usage_schedule")
    words = _words(args, usage, 2, 3)
    if isinstance(words, Refusal):
        return words
    slug = quiz_id(words[0])
    if isinstance(slug, Reply):
        return Refusal(slug, usage)
    target = chat(words[1]) if len(words) == 3 else None
    if isinstance(target, Reply):
        return Refusal(target, usage)
    if words[-1].lower() == OFF:
        return ScheduleArgs(slug, target, None)
    at = clock_time(words[-1])
    if isinstance(at, Reply):
        return Refusal(at, usage)
    return ScheduleArgs(slug, target, at.hour * 60 + at.minute)


# reports


REPORT_FORMATS = ("csv", "xlsx")


def report(args: Words, catalog: Catalog) -> tuple[Quiz, str] | Refusal:
    """`/report <quiz id> [csv|xlsx]` (a bot admin, in private); CSV unless asked."""
    usage = Reply("usage_report", {"example": example_quiz(catalog)})
    return _quiz_and_format(args, catalog, usage, REPORT_FORMATS, "csv", "args_report_format")


# homework


COUNTS_WORDS = ("first", "best")  # which attempt counts (storage.homework_store.COUNTS)
SHUFFLE_WORDS = frozenset({"shuffle", "shuffled"})


@dataclass(frozen=True)
class AssignArgs:
    quiz: Quiz
    deadline: float  # Unix time
    counts: str = "first"
    shuffled: bool = False
    exam: bool = False  # taken as an exam
    minutes: int | None = None  # the exam's time limit; None: the bank's


EXAM_WORD = "exam"
MAX_EXAM_MINUTES = 24 * 60


def assign(
    args: Words, catalog: Catalog, timezone: str, now: float, min_seconds: int
) -> AssignArgs | Refusal:
    """`/assign <quiz id> <deadline> [first|best] [shuffle] [exam [minutes]]`: the deadline a
    duration (`90m`, `2h`, `3d`) or `YYYY-MM-DD HH:MM` in the group's time zone; then, in any
    order, which attempt counts (the first unless `best`), whether each member's questions are
    shuffled, and `exam` to take it as an exam, in the `minutes` that follow it (else the
    bank's time limit)."""
    usage = Reply("usage_assign", {"example": example_quiz(catalog), "timezone": timezone})
    given = _quiz_first(args, catalog, usage, 1, 7)
    if isinstance(given, Refusal):
        return given
    quiz, rest = given
    options = [word for word in rest if word.lower() in (*COUNTS_WORDS, *SHUFFLE_WORDS)]
    rest = [word for word in rest if word not in options]
    counts = [word.lower() for word in options if word.lower() in COUNTS_WORDS]
    shuffles = [word for word in options if word.lower() in SHUFFLE_WORDS]
    folded = [word.lower() for word in rest]
    exam = EXAM_WORD in folded
    after: list[str] = []  # the exam's minutes, after `exam`
    if exam:
        at = folded.index(EXAM_WORD)
        rest, after = rest[:at], rest[at + 1 :]
    if len(counts) > 1 or len(shuffles) > 1 or len(rest) > 2 or len(after) > 1:
        extra = (counts[1:] or shuffles[1:] or rest[2:] or after[1:])[0]
        return Refusal(Reply("args_extra", {"value": echo(extra)}), usage)
    if not rest:
        return Refusal(Reply("deadline_missing"), usage)
    minutes = None
    if after:
        minutes = ascii_number(after[0])
        if minutes is None or not 1 <= minutes <= MAX_EXAM_MINUTES:
            problem = {"value": echo(after[0]), "high": MAX_EXAM_MINUTES}
            return Refusal(Reply("args_exam_minutes", problem), usage)
    deadline = parse_deadline(rest, now, timezone, min_seconds)
    if isinstance(deadline, DeadlineProblem):
        value = echo(" ".join(rest))
        return Refusal(Reply(f"deadline_{deadline.reason}", {"value": value}), usage)
    return AssignArgs(
        quiz, deadline, counts[0] if counts else "first", bool(shuffles), exam, minutes
    )


def unassign(args: Words) -> int | Refusal:
    """`/unassign <id>`: an assignment's number, as `/assignments` shows it."""
    usage = Reply("usage_unassign")
    words = _words(args, usage, 1, 1)
    if isinstance(words, Refusal):
        return words
    number = ascii_number(words[0].removeprefix("#"))
    if number is None:
        return Refusal(Reply("args_assignment", {"value": echo(words[0])}), usage)
    return number


# a group's settings


def chat_language(args: Words, choices: Sequence[str], current: str) -> str | Refusal:
    """`/language <code>` in a group: one of the languages the bot or its quizzes speak."""
    listed = ", ".join(choices)
    usage = Reply("usage_group_language", {"choices": listed, "language": current})
    words = _words(args, usage, 1, 1)
    if isinstance(words, Refusal):
        return words
    code = words[0].lower() if words[0].isascii() else ""
    if code not in choices:
        return Refusal(Reply("args_language", {"value": echo(words[0]), "choices": listed}), usage)
    return code
