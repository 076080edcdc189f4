"""/import does what `python -m content convert` does with the same file: every problem said
at once, in the file's order, "Errors (n)" counting errors only; the questions that can be
taken imported on request (a button on the refusal, or the caption `/import skip`), the
others listed in the reply, all of them in a file when the list is long. End to end: the real
Application over real HTTP against the stand-in, real SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.export import dump_bank
from content.formats.base import ConversionError, ReadOptions
from content.formats.convert import Loaded, read_quiz
from content.formats.registry import FORMATS
from content.loader import PLAYABLE
from tests.support.admin import failed_calls, nothing_stored, seed_banks, upload
from tests.support.db import rows
from tests.support.formats import MIXED_GIFT, OVER_LONG
from tests.support.harness import make_settings
from tests.support.sheets import workbook_bytes

ADMIN = FakeUser(980, "Ade", "en")
AIKEN = """\
What is the idle time at the ends of a pipeline called?
A)A bubble
B)A stall
ANSWER: A

Which split puts consecutive layers on different GPUs?
A. Tensor
C. Pipeline
ANSWER: B
"""

XML = """<quiz>
<question type="category"><category><text>$course$/top/Week 3</text></category>
  <idnumber>Week 3 / Pipelines</idnumber></question>
<question type="essay"><name><text>essay</text></name></question>
<question type="truefalse"><name><text>ok</text></name>
  <questiontext><text>True?</text></questiontext>
  <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
</question>
</quiz>
"""

CSV = f"id,question,option1,option2,answer,explanation\nok,Which?,a,b,A,\nlong,Why?,a,b,A,{OVER_LONG}\n"

YAML = """\
id: mixed
title: Mixed
level: easy
questions:
  - {id: a, text: "A?", options: [x, y], answer: 0}
  - {id: b, text: "B?", options: [x], answer: 0}
"""

XLSX = workbook_bytes(
    [["id", "question", "option1", "option2", "answer"], ["Q 1", "Which?", "a", "b", "A"],
     ["two", "Which?", "a", "b", "C"]],
    [["id", "My Sheet Quiz"]],
)  # fmt: skip

FILES: dict[str, str | bytes] = {
    "mixed.gift": MIXED_GIFT,
    "mixed.txt": AIKEN,
    "mixed.xml": XML,
    "mixed.csv": CSV,
    "mixed.yaml": YAML,
    "mixed.xlsx": XLSX,
}


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


def convert(name: str, skip: bool) -> Loaded:
    """What the converter makes of the file, as `python -m content convert` reads it."""
    content = FILES[name]
    data = content.encode() if isinstance(content, str) else content
    fmt = FORMATS["aiken" if name.endswith(".txt") else name.rsplit(".", 1)[1]]
    options = ReadOptions(name=name, skip_unsupported=skip)
    return read_quiz(data, fmt, options, accepts=PLAYABLE)


def converter_refusal(name: str) -> ConversionError:
    with pytest.raises(ConversionError) as caught:
        convert(name, skip=False)
    return caught.value


def sent_since(api: FakeBotApi, seen: int) -> list[Message]:
    return api.bot_messages(ADMIN.id)[seen:]


@pytest.mark.parametrize("name", list(FILES))
async def test_import_refuses_and_skips_as_the_converter_does(
    api: FakeBotApi, bot: QuizApplication, db_path: Path, name: str
) -> None:
    content = FILES[name]
    refusal = converter_refusal(name)
    report = await upload(api, ADMIN, content, "was refused", name=name)
    assert f"Errors ({len(refusal.problems)}):" in report.text
    for problem in refusal.problems:
        assert problem in report.text
    assert nothing_stored(db_path)

    converted = convert(name, skip=True)
    seen = len(api.bot_messages(ADMIN.id))
    done = await upload(api, ADMIN, content, "imported", name=name, caption="/import skip")
    notes = "\n".join(m.text for m in sent_since(api, seen))
    assert f"Skipped from {name} ({len(converted.skipped)})" in notes
    for line in converted.skipped:
        assert line[:200] in notes
    assert f"<code>{converted.quiz.id}</code>" in done.html
    ((stored,),) = rows(db_path, "SELECT yaml FROM content_banks")
    assert stored == dump_bank(converted.quiz)
    assert failed_calls(api) == []


async def test_the_refusal_offers_the_good_questions_and_a_tap_imports_them(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, MIXED_GIFT, "was refused", name="week.gift")
    assert "Errors (3):" in report.text  # the hint is not an error
    offer = await api.wait_for_bot_message(ADMIN.id, "can be taken")
    assert offer.reply_to is not None and offer.reply_to.document is not None
    assert "/import skip" in offer.text
    (button,) = offer.button_data()
    assert "(2)" in offer.buttons[0]["text"]
    assert nothing_stored(db_path)

    seen = len(api.bot_messages(ADMIN.id))
    api.tap(ADMIN, offer, button)
    done = await api.wait_for_bot_message(ADMIN.id, "imported", after=seen)
    assert "2 questions" in done.text
    notes = "\n".join(m.text for m in sent_since(api, seen))
    assert "Skipped from week.gift (3)" in notes and "line 7 ::long::" in notes
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(1,)]
    offer_now = next(m for m in api.bot_messages(ADMIN.id) if m.message_id == offer.message_id)
    assert offer_now.button_data() == []  # one tap, one import
    assert failed_calls(api) == []


async def test_the_offer_is_for_admins_only(api: FakeBotApi, bot: QuizApplication) -> None:
    await upload(api, ADMIN, MIXED_GIFT, "was refused", name="week.gift")
    offer = await api.wait_for_bot_message(ADMIN.id, "can be taken")
    stranger = FakeUser(981, "Bo", "en")
    answer = await api.wait_for_answer(api.tap(stranger, offer, offer.button_data()[0], forge=True))
    assert "admin" in str(answer.get("text", "")).lower()


async def test_a_long_list_of_skipped_questions_comes_whole_in_a_file(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    broken = "".join(f"Broken question {n}?\nA. a\nB. b\nANSWER: Z\n\n" for n in range(45))
    aiken = "Good?\nA. yes\nB. no\nANSWER: A\n\n" + broken
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, aiken.encode(), "long.txt", caption="/import skip")
    await api.wait_for_bot_message(ADMIN.id, "imported", after=seen)
    document = await api.wait_for(
        lambda: next((m for m in sent_since(api, seen) if m.document), None)
    )
    await api.wait_until_polled()
    sent = sent_since(api, seen)
    notes = "\n".join(m.text for m in sent if not m.document)
    assert "Skipped from long.txt (45)" in notes and "… and 25 more" in notes
    assert all(len(m.text) <= 4096 for m in sent)
    listing = api.file_content(document.document or {}).decode().splitlines()
    assert sum(line.startswith("line ") for line in listing) == 45
    assert "line 229 'Broken question 44?': ANSWER: 'Z' is not one letter A to B" in listing
    assert failed_calls(api) == []


async def test_aiken_without_a_space_after_the_letter_and_a_moodle_category_id(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    await upload(api, ADMIN, AIKEN.split("\n\n")[0] + "\n", "imported", name="aiken.txt")
    report = await upload(api, ADMIN, XML, "imported", name="w3.xml", caption="/import skip")
    assert "<code>week-3-pipelines</code>" in report.html
    assert rows(db_path, "SELECT quiz_id FROM content_banks ORDER BY quiz_id") == [
        ("aiken",),
        ("week-3-pipelines",),
    ]
