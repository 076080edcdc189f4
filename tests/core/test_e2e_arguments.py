"""Bad command arguments end to end: each gets a clear reply that fits Telegram, no error is
logged, and nothing changes. Real Application, real HTTP, real SQLite, the stand-in."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from bot.sandbox.html_check import telegram_length
from tests.support.db import rows
from tests.support.harness import SEED, bank_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import BANK

ADMIN = FakeUser(900, "Ade", "en")
LEARNER = FakeUser(901, "Lu", "en")
YORUBA = FakeUser(902, "Ife", "yo")
GROUP_ID = -100777
MAX_MESSAGE = 4096


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(api, tmp_path, {"tiny": BANK}, seed=True, admin_ids=frozenset({ADMIN.id}))


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every bad argument is expected input: not one ERROR line (no traceback) in the log."""
    with caplog.at_level(logging.INFO):
        yield
    errors = [r.getMessage()[:200] for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


def all_calls_ok(api: FakeBotApi) -> None:
    assert [(c.method, c.description) for c in api.calls if not c.ok] == []


def fill(head: str, tail: str = "") -> str:
    """`head`, then one argument that makes the message Telegram's longest (4,096 characters)
    of HTML's special characters and right-to-left overrides, then `tail`. A head ending in
    "-" is the start of that argument (`/start quiz-`)."""
    head = head if head.endswith("-") else f"{head} "
    tail = f" {tail}" if tail else ""
    return head + (UNIT * MAX_MESSAGE)[: MAX_MESSAGE - len(head) - len(tail)] + tail


UNIT = "<&>\u202e"


def fits(message: Message) -> None:
    assert telegram_length(message.text) <= MAX_MESSAGE
    assert "\u202e" not in message.text  # an echo cannot reverse the rest of the reply
    assert "<&>" not in message.text or "&lt;&amp;&gt;" in message.html


BAD_SETTINGS = {
    "/timezone": (
        "America/Indiana",  # a folder of tzdata: IsADirectoryError on main
        "America/Argentina",
        "../../etc/passwd",
        "/etc/localtime",
        "Africa/Lagos/..",
        "localtime",
        "+\u0663",  # Arabic-Indic three
        "UTC+\uff15",  # fullwidth five
    ),
    "/remind": (
        "\u00b2:00",  # superscript two: str.isdigit() says yes, int() raises on main
        "\u0660\u0668:\u0663\u0660",  # Arabic-Indic 08:30, taken as 08:30 on main
        "\uff10\uff18:\uff10\uff10",  # fullwidth 08:00
        "8:3\uff10",
    ),
}


@pytest.mark.parametrize(
    ("command", "refusal", "hints", "good", "done", "column", "stored"),
    [
        ("/timezone", "I don't know the time zone", ("/timezone Area/City",),
         "africa/lagos", "Time zone set: Africa/Lagos", "timezone", "Africa/Lagos"),
        ("/remind", "is not a time", ("digits 0-9", "/remind HH:MM"),
         "08:30", "Every day at 08:30", "remind_at", "08:30"),
    ],
    ids=["timezone", "remind"],
)  # fmt: skip
async def test_a_setting_refuses_what_it_cannot_take_and_stores_what_it_can(
    api: FakeBotApi,
    settings: Settings,
    bot: QuizApplication,
    no_errors: None,
    command: str,
    refusal: str,
    hints: tuple[str, ...],
    good: str,
    done: str,
    column: str,
    stored: str,
) -> None:
    learner = Learner(api, LEARNER)
    for wanted in BAD_SETTINGS[command]:
        reply = await learner.send(f"{command} {wanted}", refusal)
        # the usage, or the zones such a name may mean (`America/Indiana` is a folder)
        assert all(hint in reply.text for hint in hints) or reply.buttons, wanted
    await learner.send(f"{command} {good}", done)
    all_calls_ok(api)
    assert rows(settings.db_path, f"SELECT {column} FROM users") == [(stored,)]


async def test_groupquiz_says_what_is_wrong_with_its_seconds(
    api: FakeBotApi, settings: Settings, no_errors: None
) -> None:
    admin = FakeUser(1, "Ada")
    chat = api.group(GROUP_ID, "study", admins={admin.id})

    async def say(text: str, expect: str) -> Message:
        seen = len(api.bot_messages(GROUP_ID))
        api.send_text(admin, text, chat)
        return await api.wait_for_bot_message(GROUP_ID, expect, after=seen)

    async with running_bot(settings):
        # an unknown quiz and seconds out of range: the seconds are what is wrong
        reply = await say("/groupquiz id 5", "must be a whole number from 10 to 600")
        assert "Which quiz?" not in reply.text
        for seconds in ("\u00b2", "\u0663\u0660", "\uff13\uff10", "-30", "30s", "601"):
            reply = await say(f"/groupquiz tiny {seconds}", "digits 0-9")
            assert "Seconds per question must be" in reply.text, seconds
        reply = await say("/groupquiz", "Which quiz?")
        assert reply.buttons  # the quizzes, to tap
        await say("/groupquiz tiny 30 poll extra", "is one word too many")
        assert rows(settings.db_path, "SELECT COUNT(*) FROM group_sessions") == [(0,)]
        await say("/groupquiz tiny 30", "Question 1 of 3")
    all_calls_ok(api)


async def test_an_addquestion_answer_in_foreign_digits_is_asked_again(
    api: FakeBotApi, settings: Settings, no_errors: None
) -> None:
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        await admin.converse(
            ("/addquestion tiny", "Send the question text"),
            ("Three plus three?", "Now the options"),
            ("five\nsix", "Which option is correct"),
            # "²" crashed the step on main; "٢" (Arabic-Indic two) was taken as B
            ("\u00b2", "Send a letter from A to B"),
            ("\u0662", "Send a letter from A to B"),
            ("2", "explanation"),
            ("/skip", "Optional translation"),
            (fill("xx\nq"), "Send the language code"),  # two lines: refused
        )
        # a first line of 4,080 characters: echoed whole (too long for Telegram) on main
        wrong_code = await admin.send(UNIT * 1020 + "\nSix?\ncinq\nsix", "is not a language code")
        fits(wrong_code)
        assert telegram_length(wrong_code.text) < 200  # the echo is shortened
        preview = await admin.send("/skip", "Preview")
        assert "✅ B. six" in preview.text
    all_calls_ok(api)


LEARNER_COMMANDS = [
    ("/quiz", "", "I have no quiz called"),
    ("/preview", "", "I have no quiz called"),
    ("/start quiz-", "", "I have no quiz called"),
    ("/timezone", "", "I don't know the time zone"),
    ("/remind", "", "is not a time"),
]
ADMIN_COMMANDS = [
    ("/export", "", "I have no quiz called"),
    ("/addquestion", "", "I have no quiz called"),
    (f"/delquestion {SEED}", "", "has no question"),
    ("/delquestion", "mpp-1", "I have no quiz called"),
    (f"/push {SEED}", "", "cannot find a chat by its name"),
    (f"/schedule {SEED} @news_channel", "", "is not a time"),
    (f"/schedule {SEED}", "off", "is not a chat"),
    ("/schedule", "@news_channel off", "I have no quiz called"),
]


async def test_arguments_of_4096_characters_are_shortened_and_escaped_in_the_reply(
    api: FakeBotApi, settings: Settings, no_errors: None
) -> None:
    async with running_bot(settings):
        for user, commands in ((LEARNER, LEARNER_COMMANDS), (ADMIN, ADMIN_COMMANDS)):
            person = Learner(api, user)
            for head, tail, expect in commands:
                text = fill(head, tail)
                assert len(text) == MAX_MESSAGE
                reply = await person.send(text, expect)
                fits(reply)
                assert "&lt;&amp;&gt;" in reply.html, head  # echoed: shortened and escaped
        group = api.group(GROUP_ID, "study", admins={ADMIN.id})
        for head in ("/groupquiz", "/groupquiz tiny"):
            seen = len(api.bot_messages(GROUP_ID))
            api.send_text(ADMIN, fill(head), group)
            fits(await api.wait_for_bot_message(GROUP_ID, "/groupquiz", after=seen))
    all_calls_ok(api)
    assert rows(settings.db_path, "SELECT timezone, remind_at FROM users") == [
        (None, None),
        (None, None),
    ]
    assert rows(settings.db_path, "SELECT COUNT(*) FROM audit_log") == [(0,)]
    assert rows(settings.db_path, "SELECT COUNT(*) FROM group_sessions") == [(0,)]


async def test_replies_are_in_the_senders_language(
    api: FakeBotApi, settings: Settings, no_errors: None
) -> None:
    learner = Learner(api, YORUBA)
    async with running_bot(settings):
        reply = await learner.send("/remind 0\u0668:00", "díjítì 0-9")
        assert "/remind HH:MM" in reply.text
        await learner.send("/quiz", "Ìdánwò wo?")
    all_calls_ok(api)
