"""The argument parsers (bot/arguments.py) and the time rules under them: for any text a value
or a refusal, never an exception; a refusal in every language is valid HTML that fits one
Telegram message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.config import Settings
from bot.core import arguments
from bot.core.arguments import GroupQuiz, PushArgs, Refusal, ScheduleArgs
from bot.core.i18n import Locale, ui_languages
from bot.core.render import MAX_MESSAGE_LENGTH, Reply
from bot.sandbox.html_check import telegram_length, visible_text
from content.catalog import Catalog
from content.rules import parse_clock_time, parse_timezone, zone
from tests.support.quizzes import make_question, make_quiz

SETTINGS = Settings(token="1:x")
CATALOG = Catalog(
    [make_quiz([make_question(f"q{i}", "Q?", ["a", "b"]) for i in (1, 2, 3)], quiz_id="tiny")],
    "en",
)
LOCALES = [Locale(language, "en") for language in sorted(ui_languages())]
TRICKY = (
    "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"  # bidi controls
    "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u00ad"  # zero-width and invisible
    "\x00\x1b\n\t\u2028"  # controls and breaks
    "\u00b2\u00b3\u0663\u06f5\u0968\uff15\U0001d7d8"  # digits that are not 0-9
    "<>&\"';:/@+-.0123456789 "
)
ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates included
WORD = st.one_of(
    st.text(ANY_CHARACTER, max_size=30),
    st.text(st.sampled_from(TRICKY), max_size=30),
    st.builds(
        lambda unit, n: unit * n, st.text(st.sampled_from(TRICKY), min_size=1), st.just(4100)
    ),
    st.sampled_from(
        [
            *("tiny", "q1", "30", "08:30", "off", "poll", "@news_room", "-1001", "UTC+1"),
            *("gift", "skip", "2d", "best", "shuffle"),
        ]
    ),
)
WORDS = st.lists(WORD, max_size=4)

PARSERS: dict[str, Callable[[Sequence[str]], object]] = {
    "start": lambda words: arguments.start(words, CATALOG),
    "quiz": lambda words: arguments.quiz(words, CATALOG),
    "preview": lambda words: arguments.preview(words, CATALOG),
    "timezone": lambda words: arguments.timezone(words, "Africa/Lagos"),
    "remind": lambda words: arguments.remind(words, "UTC+01:00", None),
    "goal": lambda words: arguments.goal(words, 20),
    "groupquiz": lambda words: arguments.groupquiz(words, CATALOG, SETTINGS),
    "export": lambda words: arguments.export(words, CATALOG),
    "report": lambda words: arguments.report(words, CATALOG),
    "import": arguments.import_options,
    "collect": lambda words: arguments.collect(words, CATALOG),
    "addquestion": lambda words: arguments.addquestion(words, CATALOG),
    "delquestion": lambda words: arguments.delquestion(words, CATALOG),
    "push": lambda words: arguments.push(words, CATALOG),
    "schedule": arguments.schedule,
    "assign": lambda words: arguments.assign(words, CATALOG, "Africa/Lagos", 1.8e9, 60),
}


def sendable(refusal: Refusal) -> None:
    for locale in LOCALES:
        shown = visible_text(refusal.text(locale), "HTML")  # raises where Telegram would
        assert shown.strip()
        assert telegram_length(shown) <= MAX_MESSAGE_LENGTH
        assert not set(shown) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\x00")


@pytest.mark.parametrize("command", sorted(PARSERS))
@given(words=WORDS)
@settings(max_examples=150, deadline=None)
def test_any_words_give_a_value_or_a_sendable_refusal(command: str, words: list[str]) -> None:
    parsed = PARSERS[command](words)
    if isinstance(parsed, Refusal):
        sendable(parsed)


@given(st.text(st.one_of(ANY_CHARACTER, st.sampled_from(TRICKY)), max_size=200))
@settings(max_examples=300, deadline=None)
@example("/remind \u00b2:00")
@example("/timezone America/Indiana")
def test_a_whole_message_split_like_ptb_does_never_raises(text: str) -> None:
    words = text.split()
    for parse in PARSERS.values():
        parsed = parse(words)
        if isinstance(parsed, Refusal):
            sendable(parsed)


@given(st.text(st.one_of(ANY_CHARACTER, st.sampled_from(TRICKY)), max_size=12))
@settings(max_examples=400, deadline=None)
def test_seconds_are_taken_only_as_ascii_digits_in_range(word: str) -> None:
    parsed = arguments.groupquiz(["tiny", word], CATALOG, SETTINGS)
    if isinstance(parsed, GroupQuiz):
        assert word.lower() == "poll" or (
            word.isascii() and word.isdigit() and 10 <= int(word) <= 600
        )
    else:
        sendable(parsed)


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        (["id", "5"], "args_seconds"),  # the seconds are what is wrong, not the unknown quiz
        (["tiny", "\u00b2"], "args_seconds"),
        (["tiny", "\u0663\u0660"], "args_seconds"),
        (["tiny", "\uff13\uff10"], "args_seconds"),
        (["tiny", "9"], "args_seconds"),
        (["tiny", "601"], "args_seconds"),
        (["id", "30"], "unknown_quiz"),
        ([], "args_which_quiz"),
        (["poll"], "args_which_quiz"),
        (["tiny", "30", "x"], "args_extra"),
    ],
)
def test_groupquiz_names_what_is_wrong(words: list[str], problem: str) -> None:
    parsed = arguments.groupquiz(words, CATALOG, SETTINGS)
    assert isinstance(parsed, Refusal) and parsed.problem is not None
    assert parsed.problem.key == problem
    assert parsed.usage is not None and parsed.usage.key == "group_usage"


def test_groupquiz_values() -> None:
    quiz = CATALOG.get("tiny")
    assert quiz is not None
    assert arguments.groupquiz(["TINY"], CATALOG, SETTINGS) == GroupQuiz(quiz, 30, poll=False)
    assert arguments.groupquiz(["poll", "tiny", "45"], CATALOG, SETTINGS) == GroupQuiz(
        quiz, 45, poll=True
    )
    english = Locale("en", "en")
    refusal = arguments.groupquiz(["id", "5"], CATALOG, SETTINGS)
    assert isinstance(refusal, Refusal)
    assert refusal.text(english).startswith(
        "Seconds per question must be a whole number from 10 to 600"
    )
    assert "Which quiz?" not in refusal.text(english)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["08:30"], time(8, 30)),
        (["7:05"], time(7, 5)),
        (["OFF"], "off"),
        (["stop"], "off"),
        (["\u00b2:00"], "args_clock_time"),
        (["\u0660\u0668:\u0663\u0660"], "args_clock_time"),
        (["\uff10\uff18:\uff10\uff10"], "args_clock_time"),
        (["24:00"], "args_clock_time"),
        (["08:30", "daily"], "args_clock_time"),  # two words: a time such as "7 pm"
        (["08:30", "daily", "x"], "args_extra"),
        (["7pm"], time(19, 0)),
        (["7:30", "PM"], time(19, 30)),
        (["12am"], time(0, 0)),
        (["12pm"], time(12, 0)),
        (["19:00"], time(19, 0)),
        (["13pm"], "args_clock_time"),
        (["off", "now"], "args_clock_time"),
        ([], None),
    ],
)
def test_remind(words: list[str], expected: object) -> None:
    parsed = arguments.remind(words, "UTC", "07:00")
    if isinstance(parsed, Refusal):
        assert (parsed.problem.key if parsed.problem else None) == expected
        assert "Now: 07:00" in parsed.text(Locale("en", "en"))
    else:
        assert parsed == expected


def test_remind_usage_shows_off_in_the_learners_language() -> None:
    parsed = arguments.remind([], "UTC", None)
    assert isinstance(parsed, Refusal)
    assert parsed.text(Locale("yo", "en")).endswith("Báyìí: kò sí.")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["tiny", "@news_room", "07:30"], ScheduleArgs("tiny", "@news_room", 450)),
        (["gone-quiz", "-1001234", "off"], ScheduleArgs("gone-quiz", -1001234, None)),
        (["tiny", "@news_room", "\u0660\u0667:30"], "args_clock_time"),
        (["tiny", "news", "07:30"], "args_chat"),
        (["tiny", "@a b", "07:30"], "args_chat"),
        (["tiny", "-\uff11\uff12\uff13\uff14", "07:30"], "args_chat"),
        (["Tiny Quiz", "@news_room", "07:30"], "unknown_quiz"),
        (["tiny", "@news_room"], "args_clock_time"),  # two words: the chat is to be picked
        (["tiny", "07:30"], ScheduleArgs("tiny", None, 450)),
        (["tiny", "OFF"], ScheduleArgs("tiny", None, None)),
        (["tiny"], None),
    ],
)
def test_schedule(words: list[str], expected: object) -> None:
    parsed = arguments.schedule(words)
    if isinstance(parsed, Refusal):
        assert (parsed.problem.key if parsed.problem else None) == expected
    else:
        assert parsed == expected


def test_chats_questions_and_deep_links() -> None:
    quiz = CATALOG.get("tiny")
    assert quiz is not None
    assert arguments.parse_chat("@news_room") == "@news_room"
    assert arguments.parse_chat("-1001234") == -1001234
    assert arguments.parse_chat("news") is None and arguments.parse_chat("123\n") is None
    assert arguments.push(["tiny", "@news_room"], CATALOG) == PushArgs(quiz, "@news_room")
    assert arguments.push(["tiny"], CATALOG) == PushArgs(quiz, None)
    assert arguments.push(["tiny", "Study", "group"], CATALOG) == PushArgs(
        quiz, None, "\u2068Study group\u2069"
    )
    assert arguments.delquestion(["tiny", "q2"], CATALOG) == (quiz, "q2")
    missing = arguments.delquestion(["tiny", "q\u00b2"], CATALOG)
    assert isinstance(missing, Refusal) and missing.problem == Reply(
        "unknown_question", {"quiz_id": "tiny", "question_id": "\u2068q\u00b2\u2069"}
    )
    assert arguments.start([], CATALOG) is None
    assert arguments.start(["ref-42"], CATALOG) is None
    assert arguments.start(["quiz-tiny"], CATALOG) == quiz
    unknown = arguments.start(["quiz-\u212ainy"], CATALOG)  # KELVIN SIGN lower-cases to "k"
    assert isinstance(unknown, Refusal) and unknown.usage is None


@pytest.mark.parametrize(
    ("command", "default", "taken", "problem"),
    [("export", "yaml", "gift", "args_format"), ("report", "csv", "xlsx", "args_report_format")],
)
def test_a_quiz_then_a_format_it_writes_or_a_refusal_naming_the_word(
    command: str, default: str, taken: str, problem: str
) -> None:
    quiz = CATALOG.get("tiny")
    parse = PARSERS[command]
    assert parse(["tiny"]) == (quiz, default)
    assert parse(["tiny", taken.upper()]) == (quiz, taken)
    assert parse(["tiny", f".{taken}"]) == (quiz, taken)
    # PDF, and look-alikes: a Cyrillic х, full-width letters, a KELVIN SIGN lower-casing to k
    for word in ["pdf", f"\u0445{taken[1:]}", "\uff43\uff53\uff56", f"{taken}\u212a"]:
        refusal = parse(["tiny", word])
        assert isinstance(refusal, Refusal) and refusal.problem is not None, word
        assert refusal.problem.key == problem


def test_an_echo_is_short_escaped_and_isolated() -> None:
    assert arguments.echo("<b>") == "\u2068&lt;b&gt;\u2069"
    assert arguments.echo("\u202e\u200b") == "…"
    long = arguments.echo("x" * 5000)
    assert long == "\u2068" + "x" * 31 + "…\u2069"


# the time rules under /timezone and /remind (content/rules.py)


@given(st.text(st.one_of(ANY_CHARACTER, st.sampled_from(TRICKY)), max_size=80))
@settings(max_examples=500, deadline=None)
@example("America/Indiana")
@example("/etc/localtime")
@example("A/" + "a" * 300)
@example("Africa/Lagos\x00")
def test_parse_timezone_never_raises_and_what_it_takes_works(text: str) -> None:
    parsed = parse_timezone(text)
    if parsed is not None:
        assert parsed.isascii()
        assert parsed == "UTC" or zone(parsed) != zone(None) or parsed.startswith("UTC")


@given(st.text(st.one_of(ANY_CHARACTER, st.sampled_from(TRICKY)), max_size=12))
@settings(max_examples=500, deadline=None)
def test_parse_clock_time_takes_ascii_digits_only(text: str) -> None:
    parsed = parse_clock_time(text)
    if parsed is not None:
        assert text.strip().isascii()
        assert parsed.strftime("%H:%M").lstrip("0") == text.strip().zfill(5).lstrip("0")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("africa/lagos", "Africa/Lagos"),
        ("AMERICA/NEW_YORK", "America/New_York"),
        ("America/Indiana", None),  # a folder in tzdata
        ("America/Indiana/Indianapolis", "America/Indiana/Indianapolis"),
        ("/etc/localtime", None),
        ("localtime", None),
        ("posix/Africa/Lagos", None),
        ("Africa/Lagos/..", None),
        ("+\u0663", None),
        ("UTC+\uff15", None),
        ("UTC +5", "UTC+05:00"),
    ],
)
def test_time_zone_names_are_looked_up_never_opened(text: str, expected: str | None) -> None:
    assert parse_timezone(text) == expected


@pytest.mark.parametrize(
    ("words", "expected"),
    [(["20"], 20), (["1"], 1), (["1000"], 1000), (["OFF"], "off"), (["stop"], "off")],
)
def test_goal(words: list[str], expected: object) -> None:
    assert arguments.goal(words, None) == expected


@given(st.text(st.one_of(ANY_CHARACTER, st.sampled_from(TRICKY)), max_size=12))
@settings(max_examples=300, deadline=None)
def test_a_goal_is_taken_only_as_ascii_digits_from_1_to_1000(word: str) -> None:
    parsed = arguments.goal([word], None)
    if isinstance(parsed, int):
        assert word.isascii() and word.isdigit() and 1 <= int(word) <= 1000
    elif parsed != "off":
        assert isinstance(parsed, Refusal)
        sendable(parsed)


@pytest.mark.parametrize(
    ("words", "counts", "shuffled"),
    [
        ("tiny 2d", "first", False),
        ("tiny 2d best", "best", False),
        ("tiny BEST 2d", "best", False),
        ("tiny shuffle 2d first", "first", True),
        ("tiny 2030-01-02 10:00 best shuffle", "best", True),
    ],
)
def test_assign_takes_which_attempt_counts_and_shuffle_anywhere_after_the_quiz(
    words: str, counts: str, shuffled: bool
) -> None:
    parsed = arguments.assign(words.split(), CATALOG, "UTC", 1.88e9, 60)
    assert isinstance(parsed, arguments.AssignArgs)
    assert (parsed.quiz.id, parsed.counts, parsed.shuffled) == ("tiny", counts, shuffled)


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("tiny 2d best first", "first\u2069</code> is one word too many"),
        ("tiny 2d shuffle shuffled", "shuffled\u2069</code> is one word too many"),
        ("tiny 2d 3d 4d", "4d\u2069</code> is one word too many"),
        ("tiny best", "Which deadline?"),
    ],
)
def test_assign_refuses_two_counts_two_shuffles_and_no_deadline(words: str, said: str) -> None:
    parsed = arguments.assign(words.split(), CATALOG, "UTC", 1.88e9, 60)
    assert isinstance(parsed, Refusal)
    assert said in parsed.text(Locale("en", "en"))
